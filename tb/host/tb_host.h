/* Shared pieces of the host-software unit tests: result lines, a seeded PRNG, the mock OS. */
#ifndef TB_HOST_H
#define TB_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rnic_os.h"

extern int tb_failed;
extern unsigned tb_checks;

/* One result line: "PASS name" or "FAIL name why". */
void tb_check(int ok, const char *name, const char *fmt, ...);
#define CHECK(cond, name) tb_check(!!(cond), name, "%s (%s:%d)", #cond, __FILE__, __LINE__)

/* xorshift64*: deterministic from the printed seed. */
uint64_t tb_rand(void);
void tb_seed(uint64_t s);
uint32_t tb_rand_below(uint32_t n);

/* ---- mock device: BAR0 registers, "DMA" memory from malloc, a fake clock ---------------- */
#define MOCK_REGS_BYTES 0x1000u
#define MOCK_MAX_ALLOCS 256

struct mock_alloc {
	void *cpu;
	uint64_t bus;
	size_t size;
};

struct mock_dev {
	uint32_t regs[MOCK_REGS_BYTES / 4];
	struct mock_alloc allocs[MOCK_MAX_ALLOCS];
	unsigned live_allocs, total_allocs;
	uint64_t next_bus;
	int fail_alloc;		/* next dma_alloc returns -ENOMEM */
	uint64_t now_ns;	/* advanced by sleep_us */
	unsigned sleeps;
	unsigned lock_depth[RNIC_NUM_LOCKS], lock_errors;
	/* called on every MMIO write and every sleep: the fake firmware hooks in here */
	void (*on_write)(struct mock_dev *d, uint32_t off, uint32_t val);
	void (*on_sleep)(struct mock_dev *d);
	void *user;
};

/* Fills os with the mock's callbacks; with_clock 0 leaves now_ns NULL. */
void mock_init(struct mock_dev *d, struct rnic_os *os, int with_clock);
/* CPU address of a bus range handed out by dma_alloc, or NULL. */
void *mock_bus_to_cpu(struct mock_dev *d, uint64_t bus, size_t len);
void mock_free_all(struct mock_dev *d);

void test_cmdq(void);
void test_cmdq_mt(void);
void test_mr(void);
void test_res(void);
void test_eq(void);
void test_wqe(void);
void test_db(void);
void test_cq(void);

#endif /* TB_HOST_H */
