/* Protection domains and memory regions. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

struct ibv_pd *rnicp_alloc_pd(struct ibv_context *context)
{
	struct rnicp_context *ctx = to_rctx(context);
	struct rnicp_pd *pd = calloc(1, sizeof(*pd));
	int rc;

	if (!pd) {
		errno = ENOMEM;
		return NULL;
	}
	rc = ctx->be_ops->alloc_pd(ctx->be, &pd->pdn);
	if (rc) {
		free(pd);
		errno = -rc;
		return NULL;
	}
	pd->ibv_pd.context = context;
	pd->ibv_pd.handle = pd->pdn;
	return &pd->ibv_pd;
}

int rnicp_dealloc_pd(struct ibv_pd *ibpd)
{
	struct rnicp_pd *pd = to_rpd(ibpd);
	struct rnicp_context *ctx = to_rctx(ibpd->context);
	int rc = ctx->be_ops->dealloc_pd(ctx->be, pd->pdn);

	if (rc)
		return -rc;	/* e.g. still in use: the PD stays valid */
	free(pd);
	return 0;
}

/* The four rights map 1:1 onto enum access (the spec numbers its bits as ibv_access_flags
 * does). Memory windows, zero-based and on-demand regions are not implemented; the hugetlb
 * hint and the optional flags (relaxed ordering, ...) may be ignored, as rdma-core allows. */
int rnicp_access_bits(int ibv_access, uint32_t *out)
{
	const int rights = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			   IBV_ACCESS_REMOTE_ATOMIC;
	const int unsupported = IBV_ACCESS_MW_BIND | IBV_ACCESS_ZERO_BASED | IBV_ACCESS_ON_DEMAND;
	const int ignored = IBV_ACCESS_HUGETLB | IBV_ACCESS_OPTIONAL_RANGE;

	_Static_assert(IBV_ACCESS_LOCAL_WRITE == 1 << RNIC_ACCESS_LOCAL_WRITE &&
			       IBV_ACCESS_REMOTE_WRITE == 1 << RNIC_ACCESS_REMOTE_WRITE &&
			       IBV_ACCESS_REMOTE_READ == 1 << RNIC_ACCESS_REMOTE_READ &&
			       IBV_ACCESS_REMOTE_ATOMIC == 1 << RNIC_ACCESS_REMOTE_ATOMIC,
		       "enum access follows ibv_access_flags");
	if (ibv_access & ~(rights | unsupported | ignored))
		return -EINVAL;
	if (ibv_access & unsupported)
		return -EOPNOTSUPP;
	/* IBTA, and ib_core's check of user MRs: remote write or atomic rights need local write. */
	if ((ibv_access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	    !(ibv_access & IBV_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	*out = (uint32_t)(ibv_access & rights);
	return 0;
}

struct ibv_mr *rnicp_reg_mr(struct ibv_pd *ibpd, void *addr, size_t length, uint64_t hca_va, int access)
{
	struct rnicp_context *ctx = to_rctx(ibpd->context);
	struct rnicp_mr *mr;
	uint32_t a, lkey, rkey;
	int rc = rnicp_access_bits(access, &a);

	if (!rc && (!length || !addr))
		rc = -EINVAL;
	if (rc) {
		errno = -rc;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		errno = ENOMEM;
		return NULL;
	}
	rc = ctx->be_ops->reg_mr(ctx->be, to_rpd(ibpd)->pdn, addr, length, hca_va, a, &lkey, &rkey);
	if (rc) {
		free(mr);
		errno = -rc;
		return NULL;
	}
	mr->vmr.ibv_mr.context = ibpd->context;
	mr->vmr.ibv_mr.pd = ibpd;
	mr->vmr.ibv_mr.addr = addr;
	mr->vmr.ibv_mr.length = length;
	mr->vmr.ibv_mr.handle = lkey;
	mr->vmr.ibv_mr.lkey = lkey;
	mr->vmr.ibv_mr.rkey = rkey;
	mr->vmr.mr_type = IBV_MR_TYPE_MR;
	mr->vmr.access = access;
	return &mr->vmr.ibv_mr;
}

int rnicp_dereg_mr(struct verbs_mr *vmr)
{
	struct rnicp_context *ctx = to_rctx(vmr->ibv_mr.context);
	int rc = ctx->be_ops->dereg_mr(ctx->be, vmr->ibv_mr.lkey);

	if (rc)
		return -rc;
	free((struct rnicp_mr *)vmr);
	return 0;
}
