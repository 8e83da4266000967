/* The few C library pieces the core uses (errno values, memcpy/memset), kernel or userspace. */
#ifndef RNIC_COMPAT_H
#define RNIC_COMPAT_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif

#endif /* RNIC_COMPAT_H */
