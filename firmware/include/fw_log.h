/* Firmware log: printf-style lines into a ring in DMEM that the host reads through BAR0
 * (cpu.log_base, cpu.log_head). No dynamic allocation; a full ring overwrites the oldest bytes. */
#ifndef FW_LOG_H
#define FW_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define FW_LOG_SIZE 4096u /* a power of two */

void fw_log_init(void);
void fw_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Formats into buf (always NUL-terminated); returns the length written. Supports %d (int), %u and
 * %x (unsigned int), %s %c %p and %%, with an optional width, zero-padded with a leading 0 (%08x). */
size_t fw_vformat(char *buf, size_t size, const char *fmt, va_list ap);
size_t fw_format(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The ring and the count of bytes ever written, for tests. */
const char *fw_log_ring(void);
uint32_t fw_log_head(void);

#endif /* FW_LOG_H */
