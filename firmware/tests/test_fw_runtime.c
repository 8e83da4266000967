/* Host unit tests of the firmware runtime (MOCK_MMIO build): log formatting, the log ring and
 * its registers, the panic record. */
#include <stdio.h>
#include <string.h>

#include "fw_cmd.h"
#include "fw_log.h"
#include "fw_panic.h"
#include "hal.h"

static uint32_t regs[0x800];
static uint32_t writes[64][2];
static unsigned nwrites;
static int failed;

uint32_t mock_mmio_rd32(uint32_t off) { return regs[off / 4]; }
void mock_mmio_wr32(uint32_t off, uint32_t v)
{
	regs[off / 4] = v;
	if (nwrites < 64)
		writes[nwrites][0] = off, writes[nwrites][1] = v;
	nwrites++;
}
uint64_t mock_cycles(void) { return 0; }

static void check(int ok, const char *name)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	failed |= !ok;
}

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

	/* Command handler: statuses and outputs per the spec layouts. */
	uint8_t e[RNIC_CMD_ENTRY_SIZE];
	fw_cmd_init();
#define CMD(op) (memset(e, 0, sizeof(e)), rnic_cmd_entry_set_opcode(e, (op)))
	CMD(RNIC_CMD_OP_NOP);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cmd-nop");
	CMD(0xEE);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_OPCODE, "fw-cmd-unknown-opcode");
	CMD(RNIC_CMD_OP_QUERY_DEVICE);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_OK && rnic_cmd_query_device_get_fw_version(e) == FW_VERSION &&
		      rnic_cmd_query_device_get_max_sge(e) == 4 && rnic_cmd_query_device_get_max_pd(e) == FW_MAX_PD - 1,
	      "fw-cmd-query-device");
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(e, FW_NUM_GIDS);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_PARAM, "fw-cmd-set-gid-bad-index");
	CMD(RNIC_CMD_OP_SET_GID);
	rnic_cmd_set_gid_set_index(e, 0);
	rnic_cmd_set_gid_set_ipv4(e, 0x0A000001);
	rnic_cmd_set_gid_set_mac(e, 0x020000000001ull);
	uint32_t st = fw_cmd_exec(e);
	CMD(RNIC_CMD_OP_QUERY_PORT);
	check(st == RNIC_CMD_STATUS_OK && fw_cmd_exec(e) == RNIC_CMD_STATUS_OK &&
		      rnic_cmd_query_port_get_mac(e) == 0x020000000001ull && rnic_cmd_query_port_get_state(e) == 4,
	      "fw-cmd-set-gid-then-query-port");
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	uint32_t pd1 = rnic_cmd_pd_get_pdn(e);
	CMD(RNIC_CMD_OP_ALLOC_PD);
	fw_cmd_exec(e);
	uint32_t pd2 = rnic_cmd_pd_get_pdn(e);
	check(pd1 != 0 && pd2 != 0 && pd1 != pd2, "fw-cmd-alloc-pd-distinct");
	CMD(RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(e, pd1);
	st = fw_cmd_exec(e);
	check(st == RNIC_CMD_STATUS_OK && fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-dealloc-pd-double-free");
	CMD(RNIC_CMD_OP_DEALLOC_PD);
	rnic_cmd_pd_set_pdn(e, 0);
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-dealloc-pd-zero");
	CMD(RNIC_CMD_OP_ALLOC_PD);
	rnic_cmd_pd_set_uctx(e, 7); /* never allocated */
	check(fw_cmd_exec(e) == RNIC_CMD_STATUS_BAD_HANDLE, "fw-cmd-alloc-pd-unknown-uctx");
	unsigned got = 0;
	for (;;) {
		CMD(RNIC_CMD_OP_ALLOC_PD);
		if (fw_cmd_exec(e) != RNIC_CMD_STATUS_OK)
			break;
		got++;
	}
	check(got == FW_MAX_PD - 2 && rnic_cmd_entry_get_opcode(e) == RNIC_CMD_OP_ALLOC_PD,
	      "fw-cmd-alloc-pd-exhaustion-no-resources");
	CMD(RNIC_CMD_OP_ALLOC_UCTX);
	st = fw_cmd_exec(e);
	uint32_t u = rnic_cmd_uctx_get_uctx(e);
	CMD(RNIC_CMD_OP_DEALLOC_UCTX);
	rnic_cmd_uctx_set_uctx(e, u);
	check(st == RNIC_CMD_STATUS_OK && u != 0 && fw_cmd_exec(e) == RNIC_CMD_STATUS_OK, "fw-cmd-uctx-alloc-free");
	return failed;
}
