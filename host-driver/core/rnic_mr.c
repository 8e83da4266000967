/* Translation-table building: page lists of mtt_entry in DMA memory. */
#include "rnic_mr.h"
#include "rnic_compat.h"
#include "rnic_spec.h"

int rnic_mtt_layout(uint64_t iova, uint64_t length, unsigned page_shift, uint32_t *num_pages,
		    uint32_t *first_page_offset)
{
	uint64_t mask, off, pages;

	if (page_shift != RNIC_PAGE_SHIFT_4K && page_shift != RNIC_PAGE_SHIFT_2M)
		return -EINVAL;
	if (length == 0 || iova + length < iova || (iova + length == 0))
		return -EINVAL;	/* empty, or the last byte beyond 2^64 - 1 */
	mask = (1ull << page_shift) - 1;
	off = iova & mask;
	/* Pages from the one holding iova to the one holding iova + length - 1. */
	pages = (((iova + length - 1) >> page_shift) - (iova >> page_shift)) + 1;
	if (pages > RNIC_MTT_MAX_PAGES)
		return -EINVAL;
	*num_pages = (uint32_t)pages;
	*first_page_offset = (uint32_t)off;
	return 0;
}

int rnic_mtt_fill(void *table, const uint64_t *pages, uint32_t n, unsigned page_shift)
{
	uint64_t mask = (1ull << page_shift) - 1;
	uint8_t *t = table;

	for (uint32_t i = 0; i < n; i++)
		if (pages[i] & mask)
			return -EINVAL;
	for (uint32_t i = 0; i < n; i++)
		rnic_mtt_entry_set_page_addr(t + (size_t)i * RNIC_MTT_ENTRY_SIZE, pages[i] | 1u);
	return 0;
}

static int mtt_alloc(const struct rnic_os *os, struct rnic_mtt *m, uint32_t n)
{
	void *cpu;
	uint64_t bus;
	int rc;

	if (!os->dma_alloc)
		return -EOPNOTSUPP;
	rc = os->dma_alloc(os->ctx, (size_t)n * RNIC_MTT_ENTRY_SIZE, RNIC_MTT_ENTRY_SIZE, &cpu, &bus);
	if (rc)
		return rc;
	m->table = cpu;
	m->table_bus = bus;
	return 0;
}

int rnic_mtt_build_pages(const struct rnic_os *os, struct rnic_mtt *m, uint64_t iova,
			 uint64_t length, unsigned page_shift, const uint64_t *pages, uint32_t npages)
{
	uint32_t n, fpo;
	uint64_t mask;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = rnic_mtt_layout(iova, length, page_shift, &n, &fpo);
	if (rc)
		return rc;
	if (!pages || npages != n)
		return -EINVAL;
	mask = (1ull << page_shift) - 1;
	for (uint32_t i = 0; i < n; i++)
		if (pages[i] & mask)
			return -EINVAL;
	rc = mtt_alloc(os, m, n);
	if (rc)
		return rc;
	rnic_mtt_fill(m->table, pages, n, page_shift);
	m->num_pages = n;
	m->first_page_offset = fpo;
	m->page_shift = page_shift;
	rnic_wmb();
	return 0;
}

int rnic_mtt_build_contig(const struct rnic_os *os, struct rnic_mtt *m, uint64_t iova,
			  uint64_t length, unsigned page_shift, uint64_t bus)
{
	uint32_t n, fpo;
	uint64_t mask, first;
	uint8_t *t;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = rnic_mtt_layout(iova, length, page_shift, &n, &fpo);
	if (rc)
		return rc;
	mask = (1ull << page_shift) - 1;
	if ((bus & mask) != fpo || bus + length < bus || bus + length == 0)
		return -EINVAL;
	rc = mtt_alloc(os, m, n);
	if (rc)
		return rc;
	first = bus & ~mask;
	t = m->table;
	for (uint32_t i = 0; i < n; i++)
		rnic_mtt_entry_set_page_addr(t + (size_t)i * RNIC_MTT_ENTRY_SIZE,
					     (first + ((uint64_t)i << page_shift)) | 1u);
	m->num_pages = n;
	m->first_page_offset = fpo;
	m->page_shift = page_shift;
	rnic_wmb();
	return 0;
}

void rnic_mtt_free(const struct rnic_os *os, struct rnic_mtt *m)
{
	if (m->table && os->dma_free)
		os->dma_free(os->ctx, (size_t)m->num_pages * RNIC_MTT_ENTRY_SIZE, m->table, m->table_bus);
	memset(m, 0, sizeof(*m));
}
