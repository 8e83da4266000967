#include "fw_dma.h"

#include "fw_log.h"
#include "hal.h"

#define BUF_OFF (RNIC_FW_DMA_BUF_BASE - RNIC_FW_MMIO_BASE)
#define DMA_POLL_LIMIT 1000000u /* ~ms of core time: a transfer that takes longer is an error */

static uint8_t dma_posted; /* a transfer started by fw_dma_post may still run */
/* What the DMA block's argument registers hold (they keep their values; only the firmware
 * writes them): an unchanged one is not written again, each write being an MMIO access of
 * several cycles. Starts as values the firmware never writes. */
static uint32_t reg_hi = ~0u, reg_off = ~0u, reg_len = ~0u;

static int dma_wait(void)
{
	for (uint32_t i = 0; i < DMA_POLL_LIMIT; i++) {
		uint32_t st = hal_rd32(RNIC_FW_REG_DMA_STATUS);
		if (!(st & RNIC_FW_DMA_STATUS_BUSY_MASK))
			return (st & RNIC_FW_DMA_STATUS_ERROR_MASK) ? -1 : 0;
	}
	return -1;
}

int fw_dma_wait(void)
{
	if (!dma_posted)
		return 0;
	dma_posted = 0;
	if (dma_wait()) {
		fw_log("dma: posted transfer failed");
		return -1;
	}
	return 0;
}

static void dma_start(uint64_t host, uint32_t buf_off, uint32_t len, int dir)
{
	hal_wr32(RNIC_FW_REG_DMA_HOST_LO, (uint32_t)host);
	if (reg_hi != (uint32_t)(host >> 32))
		hal_wr32(RNIC_FW_REG_DMA_HOST_HI, reg_hi = (uint32_t)(host >> 32));
	if (reg_off != buf_off)
		hal_wr32(RNIC_FW_REG_DMA_BUF_OFF, reg_off = buf_off);
	if (reg_len != len)
		hal_wr32(RNIC_FW_REG_DMA_LEN, reg_len = len);
	hal_wr32(RNIC_FW_REG_DMA_CTRL,
		 RNIC_FW_DMA_CTRL_START_MASK | (dir == FW_DMA_TO_HOST ? RNIC_FW_DMA_CTRL_TO_HOST_MASK : 0u));
}

int fw_dma_xfer(uint64_t host, uint32_t buf_off, uint32_t len, int dir)
{
	fw_dma_wait();
	dma_start(host, buf_off, len, dir);
	return dma_wait();
}

void fw_dma_post(uint64_t host, uint32_t buf_off, uint32_t len)
{
	fw_dma_wait();
	dma_start(host, buf_off, len, FW_DMA_TO_HOST);
	dma_posted = 1;
}

uint32_t fw_buf_rd32(uint32_t off) { return hal_rd32(BUF_OFF + off); }
void fw_buf_wr32(uint32_t off, uint32_t v) { hal_wr32(BUF_OFF + off, v); }

/* Layout buffers are word-aligned (FW_LAYOUT_ALIGN): one word access per 4 bytes. */
void fw_buf_read(uint32_t off, void *dst, uint32_t len)
{
	uint8_t *d = (uint8_t *)RNIC_ASSUME_ALIGNED(dst, 4);
	for (uint32_t i = 0; i < len; i += 4)
		rnic_st_le32(d + i, fw_buf_rd32(off + i));
}

void fw_buf_write(uint32_t off, const void *src, uint32_t len)
{
	const uint8_t *s = (const uint8_t *)RNIC_ASSUME_ALIGNED(src, 4);
	for (uint32_t i = 0; i < len; i += 4)
		fw_buf_wr32(off + i, rnic_ld_le32(s + i));
}
