#include "fw_log.h"

#include "hal.h"

/* Lives in DMEM; its offset is published so the host can find it. */
static char log_ring[FW_LOG_SIZE] __attribute__((aligned(4)));
static uint32_t log_head;

static size_t put_num(char *buf, size_t size, size_t n, uint32_t v, unsigned base, int neg, unsigned width,
		      char pad)
{
	char tmp[12];
	unsigned len = 0;

	do {
		unsigned d = v % base;
		tmp[len++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v /= base;
	} while (v);
	if (neg)
		tmp[len++] = '-';
	while (len < width && len < sizeof(tmp))
		tmp[len++] = pad;
	while (len && n + 1 < size)
		buf[n++] = tmp[--len];
	return n;
}

size_t fw_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

	if (!size)
		return 0;
	for (; *fmt && n + 1 < size; fmt++) {
		if (*fmt != '%') {
			buf[n++] = *fmt;
			continue;
		}
		fmt++;
		char pad = ' ';
		unsigned width = 0;
		if (*fmt == '0')
			pad = '0', fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned)(*fmt++ - '0');
		switch (*fmt) {
		case 'd': {
			int v = va_arg(ap, int);
			uint32_t mag = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
			n = put_num(buf, size, n, mag, 10, v < 0, width, pad);
			break;
		}
		case 'u':
			n = put_num(buf, size, n, va_arg(ap, unsigned int), 10, 0, width, pad);
			break;
		case 'x':
			n = put_num(buf, size, n, va_arg(ap, unsigned int), 16, 0, width, pad);
			break;
		case 'p':
			n = put_num(buf, size, n, (uint32_t)(uintptr_t)va_arg(ap, void *), 16, 0, 8, '0');
			break;
		case 'c':
			buf[n++] = (char)va_arg(ap, int);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			while (*s && n + 1 < size)
				buf[n++] = *s++;
			break;
		}
		case '%':
			buf[n++] = '%';
			break;
		case '\0':
			fmt--; /* a trailing '%' ends the string */
			break;
		default: /* unknown conversion: shown as is so the mistake is visible */
			buf[n++] = '%';
			if (n + 1 < size)
				buf[n++] = *fmt;
		}
	}
	buf[n] = '\0';
	return n;
}

size_t fw_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = fw_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void fw_log_init(void)
{
	log_head = 0;
	hal_wr32(RNIC_FW_REG_LOG_SIZE, FW_LOG_SIZE);
	hal_wr32(RNIC_FW_REG_LOG_BASE, (uint32_t)(uintptr_t)log_ring);
	hal_wr32(RNIC_FW_REG_LOG_HEAD, 0);
}

void fw_log(const char *fmt, ...)
{
	char line[128];
	va_list ap;

	va_start(ap, fmt);
	size_t n = fw_vformat(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	line[n++] = '\n';
	for (size_t i = 0; i < n; i++)
		log_ring[(log_head + i) & (FW_LOG_SIZE - 1)] = line[i];
	log_head += (uint32_t)n;
	/* Publish the head after the bytes: the host reads head, then the ring. */
	hal_wr32(RNIC_FW_REG_LOG_HEAD, log_head);
}

const char *fw_log_ring(void) { return log_ring; }
uint32_t fw_log_head(void) { return log_head; }
