/* Stand-in for the kernel's <linux/string.h>. */
#ifndef KSTUB_LINUX_STRING_H
#define KSTUB_LINUX_STRING_H
#include <linux/types.h>
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
#endif
