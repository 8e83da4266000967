/* Mock device behind the driver core's OS interface. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec.h"
#include "tb_host.h"

int tb_failed;
unsigned tb_checks;
static uint64_t rng_state = 1;

void tb_check(int ok, const char *name, const char *fmt, ...)
{
	tb_checks++;
	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	va_list ap;
	printf("FAIL %s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	tb_failed = 1;
}

void tb_seed(uint64_t s)
{
	rng_state = s ? s : 0x9E3779B97F4A7C15ull;
}

uint64_t tb_rand(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

uint32_t tb_rand_below(uint32_t n)
{
	return n ? (uint32_t)(tb_rand() % n) : 0;
}

static uint32_t m_read(void *ctx, uint32_t off)
{
	struct mock_dev *d = ctx;

	return off < MOCK_REGS_BYTES ? d->regs[off / 4] : 0;
}

static void m_write(void *ctx, uint32_t off, uint32_t val)
{
	struct mock_dev *d = ctx;

	if (off < MOCK_REGS_BYTES)
		d->regs[off / 4] = val;
	if (d->on_write)
		d->on_write(d, off, val);
}

static void m_log(void *ctx, const char *msg)
{
	(void)ctx;
	printf("INFO log: %s\n", msg);
}

static int m_dma_alloc(void *ctx, size_t size, size_t align, void **cpu, uint64_t *bus)
{
	struct mock_dev *d = ctx;
	unsigned i;

	if (d->fail_alloc) {
		d->fail_alloc = 0;
		return -ENOMEM;
	}
	for (i = 0; i < MOCK_MAX_ALLOCS && d->allocs[i].cpu; i++)
		;
	if (i == MOCK_MAX_ALLOCS || size == 0)
		return -ENOMEM;
	if (align < 4096)
		align = 4096;
	void *p = aligned_alloc(align, (size + align - 1) / align * align);
	if (!p)
		return -ENOMEM;
	memset(p, 0, size);
	/* Bus addresses above 4 GiB so the high register word matters, page aligned. */
	d->allocs[i] = (struct mock_alloc){ p, d->next_bus, size };
	d->next_bus += (size + 0xFFFFu) & ~(uint64_t)0xFFFFu;
	*cpu = p;
	*bus = d->allocs[i].bus;
	d->live_allocs++;
	d->total_allocs++;
	return 0;
}

static void m_dma_free(void *ctx, size_t size, void *cpu, uint64_t bus)
{
	struct mock_dev *d = ctx;

	for (unsigned i = 0; i < MOCK_MAX_ALLOCS; i++)
		if (d->allocs[i].cpu == cpu && d->allocs[i].bus == bus && d->allocs[i].size == size) {
			free(cpu);
			d->allocs[i].cpu = NULL;
			d->live_allocs--;
			return;
		}
	printf("INFO mock: bad dma_free\n");
	d->lock_errors++;
}

static void m_lock(void *ctx, enum rnic_lock_id id)
{
	struct mock_dev *d = ctx;

	if (d->lock_depth[id]++)
		d->lock_errors++;
}

static void m_unlock(void *ctx, enum rnic_lock_id id)
{
	struct mock_dev *d = ctx;

	if (d->lock_depth[id]-- != 1)
		d->lock_errors++;
}

static void m_sleep(void *ctx, unsigned us)
{
	struct mock_dev *d = ctx;

	d->now_ns += (uint64_t)(us ? us : 1) * 1000u;
	d->sleeps++;
	if (d->on_sleep)
		d->on_sleep(d);
}

static uint64_t m_now(void *ctx)
{
	return ((struct mock_dev *)ctx)->now_ns;
}

void mock_init(struct mock_dev *d, struct rnic_os *os, int with_clock)
{
	memset(d, 0, sizeof(*d));
	d->next_bus = 0x123400000000ull;
	*os = (struct rnic_os){ 0 };
	os->ctx = d;
	os->mmio_read32 = m_read;
	os->mmio_write32 = m_write;
	os->log = m_log;
	os->dma_alloc = m_dma_alloc;
	os->dma_free = m_dma_free;
	os->lock = m_lock;
	os->unlock = m_unlock;
	os->sleep_us = m_sleep;
	os->now_ns = with_clock ? m_now : NULL;
}

void *mock_bus_to_cpu(struct mock_dev *d, uint64_t bus, size_t len)
{
	for (unsigned i = 0; i < MOCK_MAX_ALLOCS; i++) {
		struct mock_alloc *a = &d->allocs[i];

		if (a->cpu && bus >= a->bus && bus - a->bus + len <= a->size)
			return (uint8_t *)a->cpu + (bus - a->bus);
	}
	return NULL;
}

void mock_free_all(struct mock_dev *d)
{
	for (unsigned i = 0; i < MOCK_MAX_ALLOCS; i++)
		if (d->allocs[i].cpu) {
			free(d->allocs[i].cpu);
			d->allocs[i].cpu = NULL;
		}
	d->live_allocs = 0;
}
