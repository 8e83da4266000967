/* The few libc functions GCC may call on its own in freestanding code (struct and array
 * initialisation and copies). Target build only: the host build has its libc. */
#include <stddef.h>

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = (unsigned char *)d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = (unsigned char *)d;
	const unsigned char *q = (const unsigned char *)s;
	while (n--)
		*p++ = *q++;
	return d;
}
