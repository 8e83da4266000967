/* The generated C header: accessors put each field at the byte offsets the spec gives,
 * little-endian, without disturbing neighbouring bits. Built with -Wall -Wextra -Werror. */
#include <stdio.h>
#include <string.h>

#include "rnic_spec.h"

static int failed;

/* Buffers for the per-field check, aligned as RNIC_LAYOUT_ALIGNED code promises. */
static _Alignas(8) uint8_t buf_a[256], buf_b[256];
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* One field: the generated accessor reads what the byte-by-byte reference reads, and writes
 * the same bytes (neighbours untouched, value truncated), over random contents and values. */
#define CHECK_FIELD(l, f, off, cb, lsb, bits)                                                         \
	for (int it = 0; it < 64; it++) {                                                             \
		for (unsigned i = 0; i < sizeof(buf_a); i++)                                          \
			buf_a[i] = buf_b[i] = (uint8_t)rnd();                                         \
		uint64_t v = rnd();                                                                   \
		if ((uint64_t)rnic_##l##_get_##f(buf_a) != rnic_get_field(buf_a, off, cb, lsb, bits)) \
			bad_get++;                                                                    \
		rnic_##l##_set_##f(buf_a, v);                                                         \
		rnic_set_field(buf_b, off, cb, lsb, bits, v);                                         \
		if (memcmp(buf_a, buf_b, sizeof(buf_a)))                                              \
			bad_set++;                                                                    \
	}                                                                                             \
	nfields++;

/* One field of a register value: v_ reads what the layout's byte accessor reads from the value
 * stored little-endian, mk_ sets exactly the field's mask bits (and truncates). */
#define CHECK_REG_FIELD(l, f, lsb, bits)                                                              \
	for (int it = 0; it < 64; it++) {                                                             \
		uint32_t v = (uint32_t)rnd(), mask = (uint32_t)((((uint64_t)1 << (bits)) - 1) << (lsb));   \
		uint8_t le[4];                                                                        \
		rnic_st_le32(le, v);                                                                  \
		if (rnic_##l##_v_##f(v) != (uint32_t)rnic_##l##_get_##f(le) ||                       \
		    rnic_##l##_mk_##f(0xFFFFFFFFu) != mask ||                                          \
		    rnic_##l##_mk_##f(rnic_##l##_v_##f(v)) != (v & mask))                              \
			bad_reg++;                                                                    \
	}                                                                                             \
	nreg++;

static void check(int ok, const char *name)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	failed |= !ok;
}

int main(void)
{
	uint8_t cqe[RNIC_CQE_SIZE], ref[RNIC_CQE_SIZE];

	memset(cqe, 0, sizeof(cqe));
	rnic_cqe_set_wr_id(cqe, 0x0102030405060708ull);
	rnic_cqe_set_byte_len(cqe, 0xA0B0C0D0u);
	rnic_cqe_set_status(cqe, RNIC_WC_STATUS_REM_ACCESS_ERR);
	rnic_cqe_set_opcode(cqe, RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM);
	rnic_cqe_set_wqe_index(cqe, 0xBEEF);
	rnic_cqe_set_owner(cqe, 1);
	memset(ref, 0, sizeof(ref));
	for (int i = 0; i < 8; i++)
		ref[i] = (uint8_t)(8 - i);
	ref[8] = 0xD0, ref[9] = 0xC0, ref[10] = 0xB0, ref[11] = 0xA0;
	ref[24] = 10, ref[25] = 129, ref[28] = 0xEF, ref[29] = 0xBE, ref[31] = 0x80;
	check(memcmp(cqe, ref, sizeof(cqe)) == 0, "spec-c-cqe-bytes-little-endian");
	check(rnic_cqe_get_wr_id(cqe) == 0x0102030405060708ull && rnic_cqe_get_owner(cqe) == 1 &&
		      rnic_cqe_get_status(cqe) == 10 && rnic_cqe_get_wqe_index(cqe) == 0xBEEF,
	      "spec-c-cqe-roundtrip");

	/* A 1-bit field in the top bit of a byte leaves the other seven alone. */
	memset(cqe, 0x7F, sizeof(cqe));
	rnic_cqe_set_owner(cqe, 1);
	check(cqe[31] == 0xFF && cqe[30] == 0x7F, "spec-c-bitfield-preserves-neighbours");
	rnic_cqe_set_owner(cqe, 0);
	check(cqe[31] == 0x7F, "spec-c-bitfield-clear");

	/* Values wider than the field are truncated to it. */
	uint8_t e[RNIC_EQ_ENTRY_SIZE];
	memset(e, 0, sizeof(e));
	rnic_eq_entry_set_event_type(e, 0x1FF);
	check(e[0] == 0xFF && e[1] == 0, "spec-c-truncates-to-width");

	/* Layout sizes and a command layout offset as the spec states. */
	check(RNIC_CMD_ENTRY_SIZE == 64 && RNIC_WQE_CTRL_SIZE == 32 && RNIC_WQE_SGE_SIZE == 16 &&
		      RNIC_CMD_REG_MR_IOVA_OFF == 24,
	      "spec-c-sizes-and-offsets");

	/* Every field of every layout, fast accessors against the byte loop. */
	unsigned nfields = 0, bad_get = 0, bad_set = 0;
	RNIC_FOR_EACH_FIELD(CHECK_FIELD)
	printf("%u fields checked\n", nfields);
	check(nfields > 200 && bad_get == 0, "spec-c-every-field-get-matches-byte-reference");
	check(nfields > 200 && bad_set == 0, "spec-c-every-field-set-matches-byte-reference");

	/* Register values (4-byte layouts): the value accessors agree with the byte accessors of the
	 * same value stored little-endian, the masks cover the field, mk_ places and truncates. */
	unsigned nreg = 0, bad_reg = 0;
	RNIC_FOR_EACH_REG_FIELD(CHECK_REG_FIELD)
	printf("%u register-value fields checked\n", nreg);
	check(nreg >= 20 && bad_reg == 0, "spec-c-register-value-accessors-match-layout");

	/* The container helpers are little-endian whatever the host. */
	uint8_t b[8];
	rnic_st_le64(b, 0x0807060504030201ull);
	check(b[0] == 1 && b[7] == 8 && rnic_ld_le32(b + 4) == 0x08070605u && rnic_ld_le16(b + 2) == 0x0403,
	      "spec-c-container-helpers-little-endian");
	return failed;
}
