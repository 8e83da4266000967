/* The few libc functions GCC may call on its own in freestanding code (struct and array
 * initialisation and copies). Target build only: the host build has its libc. Word at a time
 * when both ends are word-aligned (layout buffers are): a 128-byte descriptor cleared byte by
 * byte costs ~400 cycles on the soft core. */
#include <stddef.h>
#include <stdint.h>

/* GCC calls them by these names; no libc header declares them here (-Wmissing-prototypes). */
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);

__attribute__((used)) void *memset(void *d, int c, size_t n)
{
	unsigned char *p = (unsigned char *)d;
	if (!((uintptr_t)p & 3)) {
		uint32_t w = (unsigned char)c * 0x01010101u;
		for (; n >= 4; n -= 4, p += 4)
			*(uint32_t *)(void *)p = w;
	}
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

__attribute__((used)) void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = (unsigned char *)d;
	const unsigned char *q = (const unsigned char *)s;
	if (!(((uintptr_t)p | (uintptr_t)q) & 3))
		for (; n >= 4; n -= 4, p += 4, q += 4)
			*(uint32_t *)(void *)p = *(const uint32_t *)(const void *)q;
	while (n--)
		*p++ = *q++;
	return d;
}
