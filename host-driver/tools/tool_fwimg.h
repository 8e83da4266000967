/* Firmware image checks done by rnic-tool before it writes anything to the card. */
#ifndef TOOL_FWIMG_H
#define TOOL_FWIMG_H

#include <stddef.h>
#include <stdint.h>

#include "rnic_fw.h"

/* CRC-32 (IEEE 802.3, as zlib and the loader compute it). */
uint32_t tool_crc32(const uint8_t *p, size_t len);

/* Every check the loader would make, and the file framing: 0, or -EINVAL with why[] saying
 * what is wrong in words. */
int tool_fwimg_check(const uint8_t *img, size_t len, struct rnic_fw_image_info *info, uint32_t *crc,
		     char *why, size_t why_len);

#endif /* TOOL_FWIMG_H */
