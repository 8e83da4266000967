/* A firmware image file (firmware/tools/mkimage.py): the 32-byte header (spec fw_image_hdr),
 * IMEM, then DMEM, which starts with the same header. The loader in the NIC checks magic,
 * sizes, entry and the IMEM CRC only after the host has held the core and overwritten its
 * memories, so the running firmware would already be gone: the tool checks all of it first. */
#include "tool_fwimg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rnic_spec.h"

#define FW_MAGIC RNIC_FW_IMAGE_MAGIC /* 'RNFW', spec device.fw_image_magic */

uint32_t tool_crc32(const uint8_t *p, size_t len)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < len; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

int tool_fwimg_check(const uint8_t *img, size_t len, struct rnic_fw_image_info *info, uint32_t *crc,
		     char *why, size_t why_len)
{
	const uint32_t half = RNIC_BAR0_FW_WINDOW_SIZE / 2;
	const size_t hdr = RNIC_FW_IMAGE_HDR_SIZE;
	uint32_t magic, imem, dmem, want_crc, entry;
	size_t want;

	if (len < hdr) {
		snprintf(why, why_len, "truncated: %zu bytes, shorter than the %zu-byte header", len, hdr);
		return -EINVAL;
	}
	magic = rnic_fw_image_hdr_get_magic(img);
	if (magic != FW_MAGIC) {
		snprintf(why, why_len, "bad magic 0x%08X (a firmware image starts with 0x%08X 'RNFW')", magic, FW_MAGIC);
		return -EINVAL;
	}
	imem = rnic_fw_image_hdr_get_imem_size(img);
	dmem = rnic_fw_image_hdr_get_dmem_size(img);
	if (imem > half || dmem > half) {
		snprintf(why, why_len, "too big: IMEM %u bytes, DMEM %u bytes; the window holds %u of each", imem, dmem,
			 half);
		return -EINVAL;
	}
	if ((imem | dmem) & 3 || !imem || dmem < hdr) {
		snprintf(why, why_len, "bad sizes in the header: IMEM %u, DMEM %u bytes (whole words; DMEM holds the header)",
			 imem, dmem);
		return -EINVAL;
	}
	want = hdr + (size_t)imem + dmem;
	if (len < want) {
		snprintf(why, why_len, "truncated: %zu bytes, the header announces %zu", len, want);
		return -EINVAL;
	}
	if (len > want) {
		snprintf(why, why_len, "too long: %zu bytes, the header announces %zu (trailing data)", len, want);
		return -EINVAL;
	}
	if (memcmp(img, img + hdr + imem, hdr)) {
		snprintf(why, why_len, "the header at DMEM offset 0 differs from the file's header");
		return -EINVAL;
	}
	entry = rnic_fw_image_hdr_get_entry(img);
	if (entry != RNIC_FW_IMEM_BASE) {
		snprintf(why, why_len, "entry 0x%08X is not the start of IMEM (0x%08X)", entry, RNIC_FW_IMEM_BASE);
		return -EINVAL;
	}
	want_crc = rnic_fw_image_hdr_get_imem_crc(img);
	*crc = tool_crc32(img + hdr, imem);
	if (*crc != want_crc) {
		snprintf(why, why_len, "bad CRC: IMEM CRC-32 is 0x%08X, the header says 0x%08X (corrupted image)", *crc,
			 want_crc);
		return -EINVAL;
	}
	/* The driver core's own framing check, so the tool never passes what rnic_fw_load refuses. */
	if (rnic_fw_image_parse(img, len, info)) {
		snprintf(why, why_len, "refused by the driver core's image check");
		return -EINVAL;
	}
	return 0;
}
