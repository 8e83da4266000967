/* The command queue under real concurrency: four client threads share a 4-slot ring, a firmware
 * thread answers; every client must get the outputs of its own command. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_spec.h"
#include "tb_host.h"

#define MT_CLIENTS 4
#define MT_PER_CLIENT 2000

static uint32_t regs[MOCK_REGS_BYTES / 4];
static void *ring_cpu;
static uint64_t ring_bus;
static size_t ring_size;
static pthread_mutex_t locks[RNIC_NUM_LOCKS] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
						 PTHREAD_MUTEX_INITIALIZER };
static int stop;

static uint32_t t_read(void *ctx, uint32_t off)
{
	(void)ctx;
	return __atomic_load_n(&regs[off / 4], __ATOMIC_ACQUIRE);
}

static void t_write(void *ctx, uint32_t off, uint32_t val)
{
	(void)ctx;
	__atomic_store_n(&regs[off / 4], val, __ATOMIC_RELEASE);
}

static int t_alloc(void *ctx, size_t size, size_t align, void **cpu, uint64_t *bus)
{
	(void)ctx;
	(void)align;
	ring_cpu = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
	if (!ring_cpu)
		return -ENOMEM;
	memset(ring_cpu, 0, size);
	ring_size = size;
	ring_bus = 0xBEEF000000ull;
	*cpu = ring_cpu;
	*bus = ring_bus;
	return 0;
}

static void t_free(void *ctx, size_t size, void *cpu, uint64_t bus)
{
	(void)ctx;
	(void)size;
	(void)bus;
	free(cpu);
}

static void t_lock(void *ctx, enum rnic_lock_id id)
{
	(void)ctx;
	pthread_mutex_lock(&locks[id]);
}

static void t_unlock(void *ctx, enum rnic_lock_id id)
{
	(void)ctx;
	pthread_mutex_unlock(&locks[id]);
}

static void t_sleep(void *ctx, unsigned us)
{
	(void)ctx;
	(void)us;
	sched_yield();
}

static uint64_t t_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *firmware(void *arg)
{
	uint32_t cons = 0, lg = regs[RNIC_REG_CMDQ_CMDQ_LOG_SIZE / 4];
	unsigned *bad = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		uint32_t prod = __atomic_load_n(&regs[RNIC_REG_CMDQ_CMDQ_PROD / 4], __ATOMIC_ACQUIRE);
		if (cons == prod) {
			sched_yield();
			continue;
		}
		uint8_t *s = (uint8_t *)ring_cpu + (size_t)(cons & ((1u << lg) - 1)) * RNIC_CMD_ENTRY_SIZE;
		if (rnic_cmd_entry_get_done(s) || rnic_cmd_entry_get_token(s) != (uint16_t)cons ||
		    rnic_cmd_entry_get_opcode(s) != RNIC_CMD_OP_ALLOC_PD)
			(*bad)++;
		rnic_cmd_pd_set_pdn(s, rnic_cmd_pd_get_uctx(s) * 2 + 1);
		rnic_cmd_entry_set_status(s, RNIC_CMD_STATUS_OK);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		/* done last, in its own store */
		__atomic_store_n(&s[RNIC_CMD_ENTRY_DONE_OFF], (uint8_t)(s[RNIC_CMD_ENTRY_DONE_OFF] | 0x80), __ATOMIC_RELEASE);
		cons++;
		__atomic_store_n(&regs[RNIC_REG_CMDQ_CMDQ_CONS / 4], cons, __ATOMIC_RELEASE);
	}
	return NULL;
}

static struct rnic_cmdq q;

struct client {
	pthread_t t;
	unsigned id, wrong, errors;
};

static void *client(void *arg)
{
	struct client *c = arg;

	for (unsigned i = 0; i < MT_PER_CLIENT; i++) {
		uint32_t uctx = c->id * 100000 + i, pdn = 0;
		int rc = rnic_cmd_alloc_pd(&q, uctx, &pdn);
		if (rc)
			c->errors++;
		else if (pdn != uctx * 2 + 1)
			c->wrong++;
	}
	return NULL;
}

void test_cmdq_mt(void)
{
	struct rnic_os os = { 0 };
	struct client cl[MT_CLIENTS];
	pthread_t fw;
	unsigned bad = 0, wrong = 0, errors = 0;

	os.mmio_read32 = t_read;
	os.mmio_write32 = t_write;
	os.dma_alloc = t_alloc;
	os.dma_free = t_free;
	os.lock = t_lock;
	os.unlock = t_unlock;
	os.sleep_us = t_sleep;
	os.now_ns = t_now;
	if (rnic_cmdq_init(&q, &os, 2)) {
		CHECK(0, "cmdq-mt-init");
		return;
	}
	q.timeout_us = 20000000;
	pthread_create(&fw, NULL, firmware, &bad);
	for (unsigned i = 0; i < MT_CLIENTS; i++) {
		cl[i] = (struct client){ .id = i };
		pthread_create(&cl[i].t, NULL, client, &cl[i]);
	}
	for (unsigned i = 0; i < MT_CLIENTS; i++) {
		pthread_join(cl[i].t, NULL);
		wrong += cl[i].wrong;
		errors += cl[i].errors;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(fw, NULL);
	CHECK(errors == 0 && wrong == 0 && bad == 0 && q.prod == MT_CLIENTS * MT_PER_CLIENT &&
		      q.tail == q.prod,
	      "cmdq-mt-4-clients-4-slots-own-outputs");
	rnic_cmdq_fini(&q);
}
