/* The kernel backend: uverbs commands to host-driver/linux. That module does not exist yet,
 * so opening a device fails cleanly (ENOSYS) and says why, once per process; every other op
 * is unreachable without a successful open. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "rnicp_backend.h"

static int kernel_open(const char *ibdev, struct rnicp_be **out)
{
	static int said;

	*out = NULL;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		fprintf(stderr, "librnic: no kernel backend for %s yet: it comes with the kernel module "
				"(host-driver/linux); for simulated NICs run under `rnic-sim run` "
				"(RNIC_SIM_SOCK)\n",
			ibdev);
	return -ENOSYS;
}

const struct rnicp_be_ops rnicp_be_kernel_ops = {
	.name = "kernel",
	.open = kernel_open,
};
