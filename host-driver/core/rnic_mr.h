/* Translation tables: the mtt_entry page list REG_MR, CREATE_CQ and CREATE_QP point to. */
#ifndef RNIC_MR_H
#define RNIC_MR_H

#include "rnic_os.h"

#define RNIC_PAGE_SHIFT_4K 12u
#define RNIC_PAGE_SHIFT_2M 21u
#define RNIC_MTT_MAX_PAGES 0x10000000u /* 2 GiB of page list: a sanity bound, not a device limit */

struct rnic_mtt {
	void *table;		/* CPU address of num_pages mtt_entry (NULL before build) */
	uint64_t table_bus;	/* what goes into mtt_table_addr / buf_addr */
	uint32_t num_pages;
	uint32_t first_page_offset; /* iova offset inside the first page */
	uint32_t page_shift;
};

/* The page-list shape of the region [iova, iova + length) in pages of 2^page_shift bytes:
 * 0, or -EINVAL for a page_shift other than 12/21, a zero length, an end past 2^64, or more
 * than RNIC_MTT_MAX_PAGES pages. */
int rnic_mtt_layout(uint64_t iova, uint64_t length, unsigned page_shift, uint32_t *num_pages,
		    uint32_t *first_page_offset);

/* Writes n mtt_entry (page | valid) into table. -EINVAL if a page is not aligned to
 * 2^page_shift. */
int rnic_mtt_fill(void *table, const uint64_t *pages, uint32_t n, unsigned page_shift);

/* Builds the table in DMA memory for a region whose pages are pages[0..npages) (bus addresses,
 * page-aligned, the first holding iova's page). -EINVAL when npages is not what
 * rnic_mtt_layout gives or a layout/page check fails; the DMA errno otherwise. */
int rnic_mtt_build_pages(const struct rnic_os *os, struct rnic_mtt *m, uint64_t iova,
			 uint64_t length, unsigned page_shift, const uint64_t *pages, uint32_t npages);

/* Same for a bus-contiguous region starting at bus address bus: bus and iova must have the same
 * offset inside a page (-EINVAL otherwise), and bus + length must not wrap. */
int rnic_mtt_build_contig(const struct rnic_os *os, struct rnic_mtt *m, uint64_t iova,
			  uint64_t length, unsigned page_shift, uint64_t bus);

void rnic_mtt_free(const struct rnic_os *os, struct rnic_mtt *m);

#endif /* RNIC_MR_H */
