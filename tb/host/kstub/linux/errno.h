/* Stand-in for the kernel's <linux/errno.h> (values as on Linux). */
#ifndef KSTUB_LINUX_ERRNO_H
#define KSTUB_LINUX_ERRNO_H
#define ENOENT 2
#define EIO 5
#define ENOMEM 12
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ELOOP 40
#define ENODATA 61
#define EPROTO 71
#define EBADMSG 74
#define EOPNOTSUPP 95
#define ETIMEDOUT 110
#endif
