/* Device discovery: walks BAR0's self-describing register-block chain. */
#ifndef RNIC_DISCOVER_H
#define RNIC_DISCOVER_H

#include "rnic_os.h"

#define RNIC_MAX_BLOCKS 32

struct rnic_block {
	uint32_t type;
	uint32_t version;
	uint32_t base;
};

struct rnic_dev_info {
	uint16_t vendor_id;
	uint16_t device_id;
	uint32_t hw_version;
	uint32_t spec_hash;
	uint32_t clock_mhz;
	uint32_t data_width;
	uint32_t num_cores;
	uint32_t caps;
	/* the doorbell BAR, from the doorbell block: PCIe BAR index, page size, pages; user
	 * context N's page is at offset N * db_page_size of that BAR (page 0: the kernel) */
	uint32_t db_bar;
	uint32_t db_page_size;
	uint32_t db_num_pages;
	unsigned num_blocks;
	struct rnic_block blocks[RNIC_MAX_BLOCKS];
};

/* Returns 0, or a negative errno: -ENODEV when BAR0 does not start with the identity block,
 * -ELOOP when the chain does not end, -EPROTO when the hardware was built from another spec or
 * has no doorbell block of this layout (major version 2: pages in their own BAR). */
int rnic_discover(const struct rnic_os *os, struct rnic_dev_info *info);

/* BAR0 offset of the first block of that type, or 0 when absent (offset 0 is always id). */
uint32_t rnic_find_block(const struct rnic_dev_info *info, uint32_t type);

/* The block type as four printable characters plus NUL. */
void rnic_block_name(uint32_t type, char out[5]);

#endif /* RNIC_DISCOVER_H */
