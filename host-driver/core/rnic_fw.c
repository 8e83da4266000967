#include "rnic_fw.h"

#include "rnic_spec.h"

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#define CPU_HOLD RNIC_CPU_CONTROL_HOLD_MASK
#define CPU_STATUS_RUNNING RNIC_CPU_STATUS_RUNNING_MASK
#define CPU_STATUS_ACCEPTED RNIC_CPU_STATUS_ACCEPTED_MASK
#define CPU_STATUS_REFUSED RNIC_CPU_STATUS_REFUSED_MASK
#define FW_MAGIC RNIC_FW_IMAGE_MAGIC
#define WIN_DMEM (RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2)

int rnic_fw_image_parse(const void *img, size_t len, struct rnic_fw_image_info *info)
{
	const uint8_t *p = (const uint8_t *)img;

	if (len < RNIC_FW_IMAGE_HDR_SIZE || rnic_fw_image_hdr_get_magic(p) != FW_MAGIC)
		return -EINVAL;
	info->version = rnic_fw_image_hdr_get_version(p);
	info->imem_size = rnic_fw_image_hdr_get_imem_size(p);
	info->dmem_size = rnic_fw_image_hdr_get_dmem_size(p);
	if ((info->imem_size | info->dmem_size) & 3 || info->imem_size > RNIC_BAR0_FW_WINDOW_SIZE / 2 ||
	    info->dmem_size > RNIC_BAR0_FW_WINDOW_SIZE / 2 ||
	    len != RNIC_FW_IMAGE_HDR_SIZE + (size_t)info->imem_size + info->dmem_size)
		return -EINVAL;
	return 0;
}

static void write_words(const struct rnic_os *os, uint32_t bar, const uint8_t *src, uint32_t bytes)
{
	for (uint32_t i = 0; i < bytes; i += 4)
		rnic_wr32(os, bar + i, (uint32_t)rnic_ld_le(src + i, 4));
}

int rnic_fw_load(const struct rnic_os *os, const void *img, size_t len, unsigned timeout_us)
{
	struct rnic_fw_image_info info;
	const uint8_t *p = (const uint8_t *)img;
	int rc = rnic_fw_image_parse(img, len, &info);

	if (rc)
		return rc;
	rnic_wr32(os, RNIC_REG_CPU_CPU_CONTROL, CPU_HOLD);
	/* The new image starts with no command queue and no event queue: a reload after a panic
	 * or a hang must not let it execute the old ring again (its consumer count starts at 0
	 * while cmdq_prod still held the old producer) nor write into the old EQ. The host
	 * registers both again (rnic_cmdq_init, rnic_eq_init). */
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_LOG_SIZE, 0);
	rnic_wr32(os, RNIC_REG_CMDQ_CMDQ_PROD, 0);
	rnic_wr32(os, RNIC_REG_EQ_EQ_LOG_SIZE, 0);
	/* The heartbeat watchdog too: booting (the CRC check, the table set-up) is no main loop;
	 * the host arms it again once the firmware is READY (rnic_dev_err_init). */
	rnic_wr32(os, RNIC_REG_CTRL_WDOG_TIMEOUT, 0);
	write_words(os, RNIC_BAR0_FW_WINDOW_BASE, p + RNIC_FW_IMAGE_HDR_SIZE, info.imem_size);
	write_words(os, WIN_DMEM, p + RNIC_FW_IMAGE_HDR_SIZE + info.imem_size, info.dmem_size);
	rnic_wr32(os, RNIC_REG_CPU_CPU_CONTROL, 0);
	/* The check reads all of IMEM (a cycle a word): microseconds. Without sleep_us every
	 * poll counts as a microsecond. */
	for (unsigned i = 0; i < timeout_us; i++) {
		uint32_t st = rnic_rd32(os, RNIC_REG_CPU_CPU_STATUS);
		if (st & CPU_STATUS_REFUSED)
			return -EBADMSG;
		if ((st & CPU_STATUS_ACCEPTED) && (st & CPU_STATUS_RUNNING))
			return 0;
		if (os->sleep_us)
			os->sleep_us(os->ctx, 1);
	}
	return -ETIMEDOUT;
}

int rnic_fw_log_read(const struct rnic_os *os, char *buf, size_t cap)
{
	uint32_t base = rnic_rd32(os, RNIC_REG_CPU_LOG_BASE);
	uint32_t head = rnic_rd32(os, RNIC_REG_CPU_LOG_HEAD);
	uint32_t size = rnic_rd32(os, RNIC_REG_CPU_LOG_SIZE);
	uint32_t n, start;

	if (!cap)
		return -EINVAL;
	if (base < RNIC_FW_DMEM_BASE || base + size > RNIC_FW_DMEM_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2 ||
	    !size || (size & (size - 1)))
		return -ENODATA;
	n = head < size ? head : size;
	if (n > cap - 1)
		n = (uint32_t)(cap - 1);
	start = head - n;
	for (uint32_t i = 0; i < n;) {
		uint32_t pos = (start + i) & (size - 1);
		uint32_t word_off = pos & ~3u;
		uint32_t w = rnic_rd32(os, WIN_DMEM + (base - RNIC_FW_DMEM_BASE) + word_off);
		for (uint32_t b = pos & 3; b < 4 && i < n; b++, i++)
			buf[i] = (char)(w >> (8 * b));
	}
	buf[n] = '\0';
	return (int)n;
}
