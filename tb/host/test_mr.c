/* Translation-table building: layouts, entries, argument checks. */
#include <errno.h>
#include <string.h>

#include "rnic_mr.h"
#include "rnic_spec.h"
#include "tb_host.h"

static int table_is(const struct rnic_mtt *m, const uint64_t *pages, uint32_t n)
{
	const uint8_t *t = m->table;

	if (!t || m->num_pages != n)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (rnic_mtt_entry_get_page_addr(t + (size_t)i * RNIC_MTT_ENTRY_SIZE) != (pages[i] | 1u))
			return 0;
	return 1;
}

void test_mr(void)
{
	struct mock_dev dev;
	struct rnic_os os;
	struct rnic_mtt m;
	uint32_t n = 0, fpo = 0;
	uint64_t pages[16];

	mock_init(&dev, &os, 0);
	CHECK(rnic_mtt_layout(0x1000, 0x1000, 12, &n, &fpo) == 0 && n == 1 && fpo == 0, "mtt-layout-one-aligned-page");
	CHECK(rnic_mtt_layout(0x1001, 0x1000, 12, &n, &fpo) == 0 && n == 2 && fpo == 1, "mtt-layout-straddles-two-pages");
	CHECK(rnic_mtt_layout(0x1FFF, 1, 12, &n, &fpo) == 0 && n == 1 && fpo == 0xFFF, "mtt-layout-last-byte-of-page");
	CHECK(rnic_mtt_layout(0x1FFF, 2, 12, &n, &fpo) == 0 && n == 2, "mtt-layout-two-bytes-two-pages");
	CHECK(rnic_mtt_layout(0x200000 + 5, 0x400000, 21, &n, &fpo) == 0 && n == 3 && fpo == 5, "mtt-layout-2m-pages");
	CHECK(rnic_mtt_layout(0x1000, 0, 12, &n, &fpo) == -EINVAL, "mtt-layout-zero-length");
	CHECK(rnic_mtt_layout(~0ull - 10, 100, 12, &n, &fpo) == -EINVAL, "mtt-layout-length-overflow");
	CHECK(rnic_mtt_layout(0, 1ull << 60, 12, &n, &fpo) == -EINVAL, "mtt-layout-too-many-pages");
	CHECK(rnic_mtt_layout(0, 4096, 13, &n, &fpo) == -EINVAL && rnic_mtt_layout(0, 4096, 16, &n, &fpo) == -EINVAL,
	      "mtt-layout-unsupported-page-size");

	/* Scattered 4 KiB pages, region starting 0x234 into its first page. */
	for (int i = 0; i < 5; i++)
		pages[i] = 0x80000000ull + (uint64_t)(4 - i) * 0x3000 + ((uint64_t)i << 40);
	CHECK(rnic_mtt_build_pages(&os, &m, 0x7F0000234ull, 4 * 4096, 12, pages, 5) == 0 && table_is(&m, pages, 5) &&
		      m.first_page_offset == 0x234 && m.page_shift == 12 &&
		      mock_bus_to_cpu(&dev, m.table_bus, 5 * RNIC_MTT_ENTRY_SIZE) == m.table,
	      "mtt-build-pages-entries-valid-bit");
	rnic_mtt_free(&os, &m);
	CHECK(dev.live_allocs == 0 && m.table == NULL, "mtt-free");
	CHECK(rnic_mtt_build_pages(&os, &m, 0x7F0000234ull, 4 * 4096, 12, pages, 4) == -EINVAL,
	      "mtt-build-pages-count-mismatch");
	pages[2] |= 0x800;
	CHECK(rnic_mtt_build_pages(&os, &m, 0x7F0000234ull, 4 * 4096, 12, pages, 5) == -EINVAL && dev.live_allocs == 0,
	      "mtt-build-pages-unaligned-page");
	pages[0] = 0x40000000;
	pages[1] = 0x40200000 + 0x1000; /* 4K-aligned but not 2M-aligned */
	CHECK(rnic_mtt_build_pages(&os, &m, 0x40000000, 0x300000, 21, pages, 2) == -EINVAL, "mtt-build-2m-unaligned");
	pages[1] = 0x80200000;
	CHECK(rnic_mtt_build_pages(&os, &m, 0x40000000, 0x300000, 21, pages, 2) == 0 && table_is(&m, pages, 2),
	      "mtt-build-2m-pages");
	rnic_mtt_free(&os, &m);
	CHECK(rnic_mtt_build_pages(&os, &m, 0, 0, 12, pages, 0) == -EINVAL, "mtt-build-zero-length");

	/* Contiguous range. */
	uint64_t want[3] = { 0x55554000, 0x55555000, 0x55556000 };
	CHECK(rnic_mtt_build_contig(&os, &m, 0x10000F00, 0x1200, 12, 0x55554F00) == 0 && table_is(&m, want, 3) &&
		      m.first_page_offset == 0xF00,
	      "mtt-build-contig");
	rnic_mtt_free(&os, &m);
	CHECK(rnic_mtt_build_contig(&os, &m, 0x10000F00, 0x1200, 12, 0x55554E00) == -EINVAL,
	      "mtt-build-contig-offset-mismatch");
	CHECK(rnic_mtt_build_contig(&os, &m, 0xF00, 0x2000, 12, ~0ull - 0xFF) == -EINVAL, "mtt-build-contig-bus-overflow");
	dev.fail_alloc = 1;
	CHECK(rnic_mtt_build_contig(&os, &m, 0, 4096, 12, 0) == -ENOMEM, "mtt-build-dma-failure");
	CHECK(dev.live_allocs == 0, "mtt-no-leak");
	mock_free_all(&dev);
}
