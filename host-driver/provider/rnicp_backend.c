/* Which control-path backend this process uses. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "rnicp_backend.h"
#include "rnicp_sim_proto.h"

const struct rnicp_be_ops *rnicp_be_select(void)
{
	/* Only processes started by `rnic-sim run` have the service's socket in the environment. */
	return getenv(RNIC_SVC_ENV) ? &rnicp_be_sim_ops : &rnicp_be_kernel_ops;
}
