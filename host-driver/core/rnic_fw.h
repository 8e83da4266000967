/* Firmware control from the host: load an image through the BAR0 window, read the firmware's
 * log ring, read its status. */
#ifndef RNIC_FW_H
#define RNIC_FW_H

#include "rnic_os.h"

/* An image file (firmware/tools/mkimage.py fw.img): the 32-byte header (spec fw_image_hdr),
 * then imem_size bytes of IMEM, then dmem_size bytes of DMEM (which starts with the header). */
struct rnic_fw_image_info {
	uint32_t version;
	uint32_t imem_size;
	uint32_t dmem_size;
};

/* Checks an image file's framing: 0 or -EINVAL. */
int rnic_fw_image_parse(const void *img, size_t len, struct rnic_fw_image_info *info);

/* Holds the soft core, writes the image, releases it and waits up to timeout_us for the
 * device's verdict: 0 when accepted, -EBADMSG when the device refused it (bad
 * header or CRC: the core stays in reset), -EINVAL for a malformed file, -ETIMEDOUT.
 * The command queue and the event queue are disabled while the core is held (cmdq_prod zeroed):
 * register them again afterwards (rnic_cmdq_init, rnic_eq_init), as after a reset. The heartbeat
 * watchdog is turned off (ctrl.wdog_timeout 0): arm it again when the firmware is READY. */
int rnic_fw_load(const struct rnic_os *os, const void *img, size_t len, unsigned timeout_us);

/* Copies the newest bytes of the firmware log (up to cap - 1, NUL-terminated) into buf and
 * returns the count; negative errno if the firmware has not published a log. */
int rnic_fw_log_read(const struct rnic_os *os, char *buf, size_t cap);

#endif /* RNIC_FW_H */
