/* Address handles for UD: a RoCE AH is global, its destination the IPv4 address in the GID. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "rnicp_verbs.h"

struct ibv_ah *rnicp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rnicp_context *ctx = to_rctx(pd->context);
	struct rnic_create_ah_in in = { 0 };
	struct rnicp_ah *ah;
	uint32_t gid_tbl_len;
	int rc;

	pthread_mutex_lock(&ctx->port_lock);
	gid_tbl_len = ctx->pattr.gid_tbl_len;
	pthread_mutex_unlock(&ctx->port_lock);
	/* Like ib_core's rdma_check_ah_attr: no GRH on a RoCE port is an error, not a local AH.
	 * The destination MAC comes from the backend (no ARP here). */
	if (!attr->is_global || attr->port_num > 1 || attr->grh.sgid_index >= gid_tbl_len ||
	    rnicp_gid_to_ipv4(&attr->grh.dgid, &in.dest_ipv4)) {
		errno = EINVAL;
		return NULL;
	}
	in.pdn = to_rpd(pd)->pdn;
	in.sgid_index = attr->grh.sgid_index;
	in.hop_limit = attr->grh.hop_limit;
	in.traffic_class = rnic_av_tclass(attr->grh.traffic_class, attr->sl);
	ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	rc = ctx->be_ops->create_ah(ctx->be, &in, &ah->ahn);
	if (rc) {
		free(ah);
		errno = -rc;
		return NULL;
	}
	ah->ibv_ah.context = pd->context;
	ah->ibv_ah.pd = pd;
	ah->ibv_ah.handle = ah->ahn;
	return &ah->ibv_ah;
}

int rnicp_destroy_ah(struct ibv_ah *ibah)
{
	struct rnicp_ah *ah = to_rah(ibah);
	struct rnicp_context *ctx = to_rctx(ibah->context);
	int rc = ctx->be_ops->destroy_ah(ctx->be, ah->ahn);

	if (rc)
		return -rc;
	free(ah);
	return 0;
}
