/* Walks the register-block chain (TYPE, VERSION, NEXT) from BAR0 offset 0. */
#include "rnic_discover.h"
#include "rnic_spec.h"

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

int rnic_discover(const struct rnic_os *os, struct rnic_dev_info *info)
{
	uint32_t off = 0, pci;
	unsigned n = 0;

	*info = (struct rnic_dev_info){ 0 };
	if (rnic_rd32(os, RNIC_BLK_TYPE) != RNIC_BLK_ID_TYPE)
		return -ENODEV;
	do {
		if (n == RNIC_MAX_BLOCKS || (off & 3) || off >= RNIC_BAR0_FW_WINDOW_BASE)
			return -ELOOP;
		info->blocks[n].type = rnic_rd32(os, off + RNIC_BLK_TYPE);
		info->blocks[n].version = rnic_rd32(os, off + RNIC_BLK_VERSION);
		info->blocks[n].base = off;
		n++;
		off = rnic_rd32(os, off + RNIC_BLK_NEXT);
	} while (off != 0);
	info->num_blocks = n;

	pci = rnic_rd32(os, RNIC_REG_ID_PCI_ID);
	info->vendor_id = (uint16_t)pci;
	info->device_id = (uint16_t)(pci >> 16);
	info->hw_version = rnic_rd32(os, RNIC_REG_ID_HW_VERSION);
	info->spec_hash = rnic_rd32(os, RNIC_REG_ID_SPEC_HASH);
	info->clock_mhz = rnic_rd32(os, RNIC_REG_ID_CLOCK_MHZ);
	info->data_width = rnic_rd32(os, RNIC_REG_ID_DATA_WIDTH);
	info->num_cores = rnic_rd32(os, RNIC_REG_ID_NUM_CORES);
	info->caps = rnic_rd32(os, RNIC_REG_ID_CAPS);
	if (info->spec_hash != RNIC_SPEC_HASH)
		return -EPROTO;
	off = rnic_find_block(info, RNIC_BLK_DOORBELL_TYPE);
	for (unsigned i = 0; i < n; i++)
		if (off && info->blocks[i].base == off && info->blocks[i].version >> 16 != RNIC_BLK_DOORBELL_VERSION >> 16)
			return -EPROTO;
	if (!off)
		return -EPROTO;
	info->db_bar = rnic_rd32(os, RNIC_REG_DOORBELL_DB_BAR);
	info->db_page_size = rnic_rd32(os, RNIC_REG_DOORBELL_DB_PAGE_SIZE);
	info->db_num_pages = rnic_rd32(os, RNIC_REG_DOORBELL_DB_NUM_PAGES);
	return 0;
}

uint32_t rnic_find_block(const struct rnic_dev_info *info, uint32_t type)
{
	for (unsigned i = 0; i < info->num_blocks; i++)
		if (info->blocks[i].type == type)
			return info->blocks[i].base;
	return 0;
}

void rnic_block_name(uint32_t type, char out[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)(type >> (24 - 8 * i));
		out[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	out[4] = '\0';
}
