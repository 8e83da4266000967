/* Firmware DMA through the staging buffer (spec fw_mmio dma_* registers): copies between host
 * memory and the buffer, and word access to the buffer. */
#ifndef FW_DMA_H
#define FW_DMA_H

#include <stdint.h>

#define FW_DMA_TO_BUF 0
#define FW_DMA_TO_HOST 1

/* Moves len bytes between host address host and buffer offset buf_off (64-byte aligned).
 * Returns 0, or -1 on bad arguments, a bus error, or a transfer that never finishes. */
int fw_dma_xfer(uint64_t host, uint32_t buf_off, uint32_t len, int dir);
/* Starts a buffer-to-host transfer and returns at once (a CQE write need not hold up the
 * firmware). The next transfer, or fw_dma_wait, waits for it; so must anything that rewrites
 * its part of the buffer. A failure is logged then. */
void fw_dma_post(uint64_t host, uint32_t buf_off, uint32_t len);
/* Waits for a posted transfer: 0, or -1 if it failed. */
int fw_dma_wait(void);
uint32_t fw_buf_rd32(uint32_t off);
void fw_buf_wr32(uint32_t off, uint32_t v);
/* Copies between the buffer and a local byte array (multiples of 4 bytes, word-aligned). */
void fw_buf_read(uint32_t off, void *dst, uint32_t len);
void fw_buf_write(uint32_t off, const void *src, uint32_t len);

#endif /* FW_DMA_H */
