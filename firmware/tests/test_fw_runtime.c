/* Host unit tests of the firmware runtime (MOCK_MMIO build): log formatting, the log ring and
 * its registers, the panic record, WQE-fetch error attribution, the core's identity and QP owner
 * rule. */
#include <stdio.h>
#include <string.h>

#include "fw_core.h"
#include "fw_log.h"
#include "fw_panic.h"
#include "fw_wqf.h"
#include "hal.h"

#include "mock_mmio.h"

int main(void)
{
	char b[64];

	fw_format(b, sizeof(b), "a%db%uc%xd%08xe%s%c%%", -42, 42u, 0xbeefu, 0x1fu, "str", 'Z');
	check(strcmp(b, "a-42b42c" "beefd0000001festrZ%") == 0, "fw-format-conversions");
	fw_format(b, sizeof(b), "%d %d %5u|", (int32_t)0x80000000, 0, 7u);
	check(strcmp(b, "-2147483648 0     7|") == 0, "fw-format-extremes-and-width");
	fw_format(b, 8, "%s", "truncate me");
	check(strcmp(b, "truncat") == 0, "fw-format-truncates");
	/* Through a pointer, so the compiler's format check lets the bad string reach the runtime. */
	size_t (*unchecked)(char *, size_t, const char *, ...) = fw_format;
	unchecked(b, sizeof(b), "%q%");
	check(strcmp(b, "%q") == 0, "fw-format-unknown-conversion-visible");

	fw_log_init();
	check(regs[RNIC_FW_REG_LOG_BASE / 4] == (uint32_t)(uintptr_t)fw_log_ring() &&
		      regs[RNIC_FW_REG_LOG_SIZE / 4] == FW_LOG_SIZE && regs[RNIC_FW_REG_LOG_HEAD / 4] == 0,
	      "fw-log-init-publishes-ring");
	fw_log("boot ok %u.%u", 1u, 0u);
	check(memcmp(fw_log_ring(), "boot ok 1.0\n", 12) == 0 && regs[RNIC_FW_REG_LOG_HEAD / 4] == 12,
	      "fw-log-line-and-head");

	/* Wrap the ring: the newest bytes overwrite the oldest, the head keeps counting. */
	for (int i = 0; i < 400; i++)
		fw_log("line %04u", (uint32_t)i); /* 10 bytes each */
	uint32_t head = regs[RNIC_FW_REG_LOG_HEAD / 4];
	char last[11];
	for (int i = 0; i < 10; i++)
		last[i] = fw_log_ring()[(head - 10 + (uint32_t)i) & (FW_LOG_SIZE - 1)];
	last[10] = 0;
	check(head == 12 + 4000 && strcmp(last, "line 0399\n") == 0, "fw-log-ring-wraps");

	/* Panic: the three trap registers, the last one raising the status, then PANIC. */
	nwrites = 0;
	fw_panic_record(2, 0x1234, 0xdeadbeef);
	check(nwrites >= 4 && writes[0][0] == RNIC_FW_REG_PANIC_MCAUSE && writes[0][1] == 2 &&
		      writes[1][0] == RNIC_FW_REG_PANIC_MEPC && writes[1][1] == 0x1234 &&
		      writes[2][0] == RNIC_FW_REG_PANIC_MTVAL && writes[2][1] == 0xdeadbeef &&
		      writes[3][0] == RNIC_FW_REG_FW_STATUS && writes[3][1] == RNIC_FW_STATUS_PANIC,
	      "fw-panic-record-registers");

	/* WQE fetch: the send and receive sides wait for their own commands. A command that failed
	 * while the other side waited for a later one still fails when its own side waits (the
	 * error count moved once, seen by the first waiter); the other side's command does not. */
	mock_wqf_fail = 1;
	uint32_t ka = fw_wqf_issue_rq(MOCK_HOST_BASE, 2, 0);
	mock_wqf_fail = 0;
	uint32_t kb = fw_wqf_issue(MOCK_HOST_BASE + 64, 1, 3);
	int wb = fw_wqf_wait(kb, kb), wa = fw_wqf_wait(ka, ka);
	uint32_t kc = fw_wqf_issue_rq(MOCK_HOST_BASE + 128, 1, 0);
	check(wb == 0 && wa == -1 && fw_wqf_wait(kc, kc) == 0 && mock_wqf_rq_cmds == 2,
	      "fw-wqf-error-kept-for-its-own-waiter");
	/* two errors at once: every command completed since the last look counts as failed (once) */
	mock_wqf_fail = 1;
	ka = fw_wqf_issue(MOCK_HOST_BASE, 1, 0);
	kb = fw_wqf_issue_rq(MOCK_HOST_BASE, 1, 0);
	mock_wqf_fail = 0;
	kc = fw_wqf_issue(MOCK_HOST_BASE, 1, 1);
	wb = fw_wqf_wait(kb, kb);
	wa = fw_wqf_wait(ka, ka);
	check(wb == -1 && wa == -1 && fw_wqf_wait(kc, kc) == -1 && fw_wqf_wait(kc, kc) == 0,
	      "fw-wqf-two-errors-fail-every-command-seen");

	/* The core's identity from mhartid and hw_caps.log2_cores; every QPN has exactly one owner,
	 * QPN mod the core count, at 1, 2 and 4 cores (docs/decisions/multi-core.md). */
	uint32_t caps_saved = regs[RNIC_FW_REG_HW_CAPS / 4];
	int id_ok = 1, owner_ok = 1;
	for (uint32_t lg = 0; (1u << lg) <= RNIC_MAX_CORES; lg++) {
		uint32_t n = 1u << lg, owned[RNIC_MAX_CORES] = {0};
		regs[RNIC_FW_REG_HW_CAPS / 4] = (caps_saved & ~RNIC_HW_CAPS_LOG2_CORES_MASK) | rnic_hw_caps_mk_log2_cores(lg);
		for (uint32_t qpn = 0; qpn < 1024; qpn++) {
			uint32_t owners = 0;
			for (uint32_t h = 0; h < n; h++) {
				mock_hart_id = h;
				fw_core_init();
				id_ok &= fw_core_id == h && fw_core_mask == n - 1;
				if (fw_owns_qp(qpn))
					owners++, owned[h]++, owner_ok &= qpn % n == h;
			}
			owner_ok &= owners == 1;
		}
		for (uint32_t h = 0; h < n; h++)
			owner_ok &= owned[h] == 1024 / n;
	}
	check(id_ok, "fw-core-id-from-mhartid-and-hw-caps");
	check(owner_ok, "fw-core-owner-qpn-mod-cores");
	regs[RNIC_FW_REG_HW_CAPS / 4] = caps_saved;
	mock_hart_id = 0;

	return mock_failed;
}
