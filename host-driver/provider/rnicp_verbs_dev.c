/* query_device(_ex) and query_port from the device's own answers. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rnic_spec.h"
#include "rnicp_verbs.h"

uint32_t rnicp_mtu_bytes(uint32_t ibv_mtu)
{
	return ibv_mtu >= IBV_MTU_256 && ibv_mtu <= IBV_MTU_4096 ? 128u << ibv_mtu : 0;
}

/* EUI-64 from the port MAC, as RoCE GUIDs are formed (network byte order). */
static __be64 mac_guid(const uint8_t mac[6])
{
	uint64_t g = (uint64_t)(mac[0] ^ 2u) << 56 | (uint64_t)mac[1] << 48 | (uint64_t)mac[2] << 40 |
		     0xFFull << 32 | 0xFEull << 24 | (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];

	return htobe64(g);
}

int rnicp_query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct rnicp_context *ctx = to_rctx(context);
	const struct rnic_device_attr *d = &ctx->dattr;
	struct ibv_device_attr_ex a;
	struct ibv_device_attr *o = &a.orig_attr;
	uint8_t mac[6];

	if (input && input->comp_mask)
		return EINVAL;
	if (attr_size < sizeof(struct ibv_device_attr))
		return EINVAL;
	pthread_mutex_lock(&ctx->port_lock);
	memcpy(mac, ctx->pattr.mac, sizeof(mac));
	pthread_mutex_unlock(&ctx->port_lock);

	memset(&a, 0, sizeof(a));
	snprintf(o->fw_ver, sizeof(o->fw_ver), "%u.%u", d->fw_version >> 16, d->fw_version & 0xFFFFu);
	o->node_guid = mac_guid(mac);
	o->sys_image_guid = o->node_guid;
	o->max_mr_size = d->max_mr_size_log2 >= 64 ? UINT64_MAX : 1ull << d->max_mr_size_log2;
	o->page_size_cap = d->page_size_cap;
	o->vendor_id = RNIC_PCI_VENDOR_ID;
	/* Not one of perftest's known part IDs: it then uses ibv_post_send and no inline default. */
	o->vendor_part_id = RNIC_PCI_DEVICE_ID;
	o->hw_ver = RNIC_HW_VERSION;
	o->max_qp = (int)d->max_qp;
	o->max_qp_wr = (int)d->max_qp_wr;
	o->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN;
	o->max_sge = (int)d->max_sge;
	o->max_sge_rd = (int)d->max_sge;
	o->max_cq = (int)d->max_cq;
	o->max_cqe = (int)d->max_cqe;
	o->max_mr = (int)d->max_mr;
	o->max_pd = (int)d->max_pd;
	o->max_qp_rd_atom = (int)(d->max_rd_atomic ? d->max_rd_atomic : 1);
	o->max_qp_init_rd_atom = o->max_qp_rd_atom;
	o->max_res_rd_atom = o->max_qp * o->max_qp_rd_atom;
	o->atomic_cap = IBV_ATOMIC_HCA;
	/* QUERY_DEVICE has no AH limit; this is the firmware's table (64 entries, 0 unused). */
	o->max_ah = 63;
	o->max_pkeys = 1;
	o->phys_port_cnt = 1;
	a.device_cap_flags_ex = o->device_cap_flags;
	a.phys_port_cnt_ex = 1;

	memcpy(attr, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
	return 0;
}

/* speed in Gb/s -> (width, per-lane speed) as ibv_port_attr encodes them. */
static void port_speed(uint32_t gbps, uint8_t *width, uint8_t *speed)
{
	static const struct {
		uint32_t gbps;
		uint8_t width, speed;
	} t[] = {
		{ 400, 2, 128 },	/* 4x HDR */
		{ 200, 2, 64 },		/* 4x HDR */
		{ 100, 2, 32 },		/* 4x EDR */
		{ 50, 16, 32 },		/* 2x EDR */
		{ 40, 2, 8 },		/* 4x QDR */
		{ 25, 1, 32 },		/* 1x EDR */
		{ 10, 1, 8 },		/* 1x QDR */
	};

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (gbps >= t[i].gbps) {
			*width = t[i].width;
			*speed = t[i].speed;
			return;
		}
	*width = 1;
	*speed = 1;	/* 1x SDR */
}

int rnicp_query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *attr)
{
	struct rnicp_context *ctx = to_rctx(context);
	struct rnic_port_attr p;
	int rc;

	if (port != 1)
		return EINVAL;
	rc = ctx->be_ops->query_port(ctx->be, port, &p);
	if (rc)
		return -rc;
	pthread_mutex_lock(&ctx->port_lock);
	ctx->pattr = p;
	pthread_mutex_unlock(&ctx->port_lock);

	memset(attr, 0, sizeof(*attr));
	attr->state = (enum ibv_port_state)p.state;
	attr->max_mtu = (enum ibv_mtu)p.max_mtu;
	attr->active_mtu = (enum ibv_mtu)p.active_mtu;
	attr->gid_tbl_len = (int)p.gid_tbl_len;
	attr->max_msg_sz = RNICP_MAX_MSG_SZ;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;
	attr->phys_state = p.state == IBV_PORT_ACTIVE ? 5 /* LinkUp */ : 3 /* Disabled */;
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	port_speed(p.speed_gbps, &attr->active_width, &attr->active_speed);
	return 0;
}
