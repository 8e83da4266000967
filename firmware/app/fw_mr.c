/* Memory regions: keys (index << 8 | variant), translation ranges in the on-chip MTT, the
 * page list fetched from host memory and written into the memory-key table. */
#include "fw_dma.h"
#include "fw_mbox.h"
#include "fw_res.h"

#define BUF_MTT 128u /* staging-buffer area for page lists (after the command slot) */
#define MTT_CHUNK ((RNIC_FW_DMA_BUF_SIZE - BUF_MTT) & ~7u)

int fw_pd_has_mr(uint32_t pdn)
{
	for (uint32_t i = 1; i < FW_MAX_MR; i++)
		if (fw_res.mrs[i].used && fw_res.mrs[i].pdn == pdn)
			return 1;
	return 0;
}

/* First-fit range of n translation entries not used by any region, or -1. */
static int32_t mtt_alloc(uint32_t n)
{
	uint32_t base = 0;
	for (int moved = 1; moved;) {
		moved = 0;
		for (uint32_t i = 1; i < FW_MAX_MR; i++) {
			const struct fw_mr *m = &fw_res.mrs[i];
			if (m->used && base < m->mtt_base + m->num_pages && m->mtt_base < base + n) {
				base = m->mtt_base + m->num_pages;
				moved = 1;
			}
		}
	}
	return base + n <= FW_NUM_MTT ? (int32_t)base : -1;
}

/* Copies the host's page list into MTT entries [base, base + n); checks every entry. */
static uint32_t load_pages(uint64_t table, uint32_t base, uint32_t n, uint32_t page_shift)
{
	FW_LAYOUT_ALIGN uint8_t ent[RNIC_MTT_ENTRY_SIZE];
	for (uint32_t done = 0; done < n;) {
		uint32_t cnt = n - done;
		if (cnt > MTT_CHUNK / RNIC_MTT_ENTRY_SIZE)
			cnt = MTT_CHUNK / RNIC_MTT_ENTRY_SIZE;
		uint32_t bytes = cnt * RNIC_MTT_ENTRY_SIZE;
		if (fw_dma_xfer(table + (uint64_t)done * RNIC_MTT_ENTRY_SIZE, BUF_MTT, (bytes + 3) & ~3u, FW_DMA_TO_BUF))
			return RNIC_CMD_STATUS_DMA_ERROR;
		for (uint32_t i = 0; i < cnt; i++) {
			fw_buf_read(BUF_MTT + i * RNIC_MTT_ENTRY_SIZE, ent, RNIC_MTT_ENTRY_SIZE);
			uint64_t a = rnic_mtt_entry_get_page_addr(ent);
			if (!(a & 1) || ((a & ~1ull) & ((1ull << page_shift) - 1)))
				return RNIC_CMD_STATUS_BAD_PARAM; /* not valid, or not page aligned */
			if (fw_mkey_write(RNIC_MKEY_WR_OP_WR_MTT, base + done + i, ent))
				return RNIC_CMD_STATUS_INTERNAL;
		}
		done += cnt;
	}
	return RNIC_CMD_STATUS_OK;
}

uint32_t fw_cmd_reg_mr(uint8_t *e)
{
	uint32_t pdn = rnic_cmd_reg_mr_get_pdn(e), acc = rnic_cmd_reg_mr_get_access(e);
	uint32_t shift = rnic_cmd_reg_mr_get_page_shift(e), n = rnic_cmd_reg_mr_get_num_pages(e);
	uint32_t fpo = rnic_cmd_reg_mr_get_first_page_offset(e);
	uint64_t iova = rnic_cmd_reg_mr_get_iova(e), len = rnic_cmd_reg_mr_get_length(e);
	uint64_t table = rnic_cmd_reg_mr_get_mtt_table_addr(e);

	if (pdn == 0 || pdn >= FW_MAX_PD || !fw_res.pd_used[pdn])
		return RNIC_CMD_STATUS_BAD_HANDLE;
	/* Remote write and atomic access need local write too (IBTA 10.6.3.1). */
	if ((acc & ~0xFu) || ((acc & ((1u << RNIC_ACCESS_REMOTE_WRITE) | (1u << RNIC_ACCESS_REMOTE_ATOMIC))) &&
			      !(acc & (1u << RNIC_ACCESS_LOCAL_WRITE))))
		return RNIC_CMD_STATUS_BAD_PARAM;
	/* Longer than max_mr_size (QUERY_DEVICE) is refused before the page count: near 2^64
	 * the count wraps, and a few pages would stand for a huge length whose translation runs
	 * into other MRs' entries. */
	if ((shift != 12 && shift != 21) || len == 0 || len > (1ull << 40) || iova + len < iova || fpo >= (1u << shift) ||
	    (table & 7) || n == 0 || n > FW_NUM_MTT ||
	    (uint64_t)n != ((uint64_t)fpo + len + (1u << shift) - 1) >> shift)
		return RNIC_CMD_STATUS_BAD_PARAM;
	uint32_t idx = 1;
	while (idx < FW_MAX_MR && fw_res.mrs[idx].used)
		idx++;
	int32_t base = mtt_alloc(n);
	if (idx == FW_MAX_MR || base < 0)
		return RNIC_CMD_STATUS_NO_RESOURCES;
	uint32_t st = load_pages(table, (uint32_t)base, n, shift);
	if (st != RNIC_CMD_STATUS_OK)
		return st;

	struct fw_mr *m = &fw_res.mrs[idx];
	m->used = 1;
	m->variant = (uint8_t)(m->variant + 1); /* a reused index gets a new key: old keys fail */
	m->pdn = pdn;
	m->mtt_base = (uint32_t)base;
	m->num_pages = n;
	FW_LAYOUT_ALIGN uint8_t mpt[RNIC_MPT_ENTRY_SIZE] = { 0 };
	rnic_mpt_entry_set_valid(mpt, 1);
	rnic_mpt_entry_set_access(mpt, acc);
	rnic_mpt_entry_set_page_shift(mpt, shift);
	rnic_mpt_entry_set_key_variant(mpt, m->variant);
	rnic_mpt_entry_set_pdn(mpt, pdn);
	rnic_mpt_entry_set_iova(mpt, iova);
	rnic_mpt_entry_set_length(mpt, len);
	rnic_mpt_entry_set_mtt_base(mpt, (uint32_t)base);
	rnic_mpt_entry_set_first_page_offset(mpt, fpo);
	if (fw_mkey_write(RNIC_MKEY_WR_OP_WR_MPT, idx, mpt)) {
		m->used = 0;
		return RNIC_CMD_STATUS_INTERNAL;
	}
	uint32_t key = idx << 8 | m->variant;
	rnic_cmd_reg_mr_set_lkey(e, key);
	rnic_cmd_reg_mr_set_rkey(e, key);
	return RNIC_CMD_STATUS_OK;
}

uint32_t fw_cmd_dereg_mr(uint8_t *e)
{
	uint32_t key = rnic_cmd_dereg_mr_get_lkey(e), idx = key >> 8;
	FW_LAYOUT_ALIGN uint8_t mpt[RNIC_MPT_ENTRY_SIZE] = { 0 };

	if (idx == 0 || idx >= FW_MAX_MR || !fw_res.mrs[idx].used || fw_res.mrs[idx].variant != (key & 0xFF))
		return RNIC_CMD_STATUS_BAD_HANDLE;
	if (fw_mkey_write(RNIC_MKEY_WR_OP_INV_MPT, idx, mpt))
		return RNIC_CMD_STATUS_INTERNAL;
	fw_res.mrs[idx].used = 0;
	return RNIC_CMD_STATUS_OK;
}
