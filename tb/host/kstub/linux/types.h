/* Stand-in for the kernel's <linux/types.h>: proves the core's __KERNEL__ path needs no libc. */
#ifndef KSTUB_LINUX_TYPES_H
#define KSTUB_LINUX_TYPES_H
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __SIZE_TYPE__ size_t;
#define NULL ((void *)0)
#endif
