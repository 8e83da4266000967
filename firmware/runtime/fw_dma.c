#include "fw_dma.h"

#include "hal.h"

#define BUF_OFF (RNIC_FW_DMA_BUF_BASE - RNIC_FW_MMIO_BASE)
#define DMA_BUSY 1u
#define DMA_ERR 2u
#define DMA_POLL_LIMIT 1000000u /* ~ms of core time: a transfer that takes longer is an error */

int fw_dma_xfer(uint64_t host, uint32_t buf_off, uint32_t len, int dir)
{
	hal_wr32(RNIC_FW_REG_DMA_HOST_LO, (uint32_t)host);
	hal_wr32(RNIC_FW_REG_DMA_HOST_HI, (uint32_t)(host >> 32));
	hal_wr32(RNIC_FW_REG_DMA_BUF_OFF, buf_off);
	hal_wr32(RNIC_FW_REG_DMA_LEN, len);
	hal_wr32(RNIC_FW_REG_DMA_CTRL, 1u | (dir == FW_DMA_TO_HOST ? 2u : 0u));
	for (uint32_t i = 0; i < DMA_POLL_LIMIT; i++) {
		uint32_t st = hal_rd32(RNIC_FW_REG_DMA_STATUS);
		if (!(st & DMA_BUSY))
			return (st & DMA_ERR) ? -1 : 0;
	}
	return -1;
}

uint32_t fw_buf_rd32(uint32_t off) { return hal_rd32(BUF_OFF + off); }
void fw_buf_wr32(uint32_t off, uint32_t v) { hal_wr32(BUF_OFF + off, v); }

void fw_buf_read(uint32_t off, void *dst, uint32_t len)
{
	uint8_t *d = (uint8_t *)dst;
	for (uint32_t i = 0; i < len; i += 4)
		rnic_st_le(d + i, 4, fw_buf_rd32(off + i));
}

void fw_buf_write(uint32_t off, const void *src, uint32_t len)
{
	const uint8_t *s = (const uint8_t *)src;
	for (uint32_t i = 0; i < len; i += 4)
		fw_buf_wr32(off + i, (uint32_t)rnic_ld_le(s + i, 4));
}
