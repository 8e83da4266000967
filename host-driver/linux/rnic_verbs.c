// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The ib_device: a RoCE v2 port (UDP encapsulation, Ethernet link layer) whose GID table
 * follows a host netdev (module parameter netdev) and is mirrored into the firmware's table
 * (SET_GID), device/port/pkey queries, user contexts and PDs. */
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/gfp.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "rnic_drv.h"
#include "rnic_user_abi.h"

struct rnic_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

static u32 gid_tbl_len(struct rnic_kdev *rd)
{
	return min_t(u32, rd->pattr.gid_tbl_len ? rd->pattr.gid_tbl_len : 1, RNIC_GID_TBL_LEN);
}

static int rnic_query_device(struct ib_device *ibdev, struct ib_device_attr *a, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibdev);
	const struct rnic_device_attr *d = &rd->dattr;

	if (udata->inlen || udata->outlen)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->fw_ver = d->fw_version;
	a->vendor_id = rd->info.vendor_id;
	a->vendor_part_id = rd->info.device_id;
	a->hw_ver = rd->info.hw_version;
	a->sys_image_guid = ibdev->node_guid;
	a->max_mr_size = d->max_mr_size_log2 >= 64 ? ~0ull : (1ull << d->max_mr_size_log2) - 1;
	a->page_size_cap = d->page_size_cap;
	a->max_qp = d->max_qp;
	a->max_qp_wr = d->max_qp_wr;
	a->max_send_sge = d->max_sge;
	a->max_recv_sge = d->max_sge;
	a->max_sge_rd = d->max_sge;
	a->max_cq = d->max_cq;
	a->max_cqe = d->max_cqe;
	a->max_mr = d->max_mr;
	a->max_pd = d->max_pd;
	a->max_qp_rd_atom = d->max_rd_atomic;
	a->max_qp_init_rd_atom = d->max_rd_atomic;
	a->max_res_rd_atom = d->max_rd_atomic * d->max_qp;
	a->atomic_cap = (rd->info.caps & BIT(RNIC_ID_CAPS_ATOMICS)) ? IB_ATOMIC_HCA : IB_ATOMIC_NONE;
	a->max_ah = d->max_qp;
	a->max_pkeys = 1;
	a->local_ca_ack_delay = 15;
	a->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN | IB_DEVICE_PORT_ACTIVE_EVENT;
	return 0;
}

static void rnic_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct rnic_kdev *rd = to_rdev(ibdev);

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u", rd->dattr.fw_version >> 16,
		 rd->dattr.fw_version & 0xFFFF);
}

/* QUERY_PORT's MTUs are ibv_mtu values, which are ib_mtu's. */
static enum ib_mtu mtu_enum(u32 v)
{
	return v >= IB_MTU_256 && v <= IB_MTU_4096 ? (enum ib_mtu)v : IB_MTU_1024;
}

static int rnic_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *a)
{
	struct rnic_kdev *rd = to_rdev(ibdev);
	struct net_device *nd = rd->netdev;
	bool up = nd && netif_running(nd) && netif_carrier_ok(nd) && !READ_ONCE(rd->dead);

	(void)port;
	/* ib_query_port zeroed *a */
	a->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	a->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP : IB_PORT_PHYS_STATE_DISABLED;
	a->max_mtu = mtu_enum(rd->pattr.max_mtu);
	a->active_mtu = min(a->max_mtu, nd ? iboe_get_mtu(nd->mtu) : IB_MTU_1024);
	a->gid_tbl_len = gid_tbl_len(rd);
	a->pkey_tbl_len = 1;
	a->max_msg_sz = 0x80000000u;
	a->port_cap_flags = IB_PORT_CM_SUP;
	a->active_width = IB_WIDTH_4X;
	a->active_speed = IB_SPEED_EDR;	/* 4X EDR: the 100 Gb/s port */
	return 0;
}

static int rnic_get_port_immutable(struct ib_device *ibdev, u32 port, struct ib_port_immutable *im)
{
	struct ib_port_attr a = {};
	int rc;

	rc = ib_query_port(ibdev, port, &a);
	if (rc)
		return rc;
	im->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;	/* RoCE v2 only */
	im->gid_tbl_len = a.gid_tbl_len;
	im->pkey_tbl_len = 1;
	im->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer rnic_get_link_layer(struct ib_device *ibdev, u32 port)
{
	(void)ibdev;
	(void)port;
	return IB_LINK_LAYER_ETHERNET;
}

static int rnic_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	(void)ibdev;
	(void)port;
	if (index)
		return -EINVAL;
	*pkey = 0xFFFF;
	return 0;
}

/* The firmware's GID table holds IPv4 RoCE v2 entries (address + source MAC): mirror those.
 * Other entries (IPv6) stay in ib_core's table only; the NIC cannot send from them. */
static int rnic_add_gid(const struct ib_gid_attr *attr, void **context)
{
	struct rnic_kdev *rd = to_rdev(attr->device);
	const struct in6_addr *a6 = (const struct in6_addr *)attr->gid.raw;
	u8 mac[ETH_ALEN];
	u16 vlan;
	int rc;

	(void)context;
	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP || !ipv6_addr_v4mapped(a6))
		return 0;
	rc = rdma_read_gid_l2_fields(attr, &vlan, mac);
	if (rc)
		return rc;
	rc = RNIC_CMD(rd, rnic_cmd_set_gid(&rd->cmdq, attr->index, be32_to_cpu(a6->s6_addr32[3]), mac));
	if (!rc)
		dev_info(rd->dma_dev, "GID %u = %pI4 (%pM) written to the firmware\n", attr->index,
			 &a6->s6_addr32[3], mac);
	return rc;
}

static int rnic_del_gid(const struct ib_gid_attr *attr, void **context)
{
	struct rnic_kdev *rd = to_rdev(attr->device);
	const struct in6_addr *a6 = (const struct in6_addr *)attr->gid.raw;
	static const u8 zero_mac[ETH_ALEN];

	(void)context;
	if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP || !ipv6_addr_v4mapped(a6))
		return 0;
	return RNIC_CMD(rd, rnic_cmd_set_gid(&rd->cmdq, attr->index, 0, zero_mac));
}

struct rnic_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	phys_addr_t phys;	/* the doorbell page */
	/* or a queue buffer (rnic_kbuf_alloc): its pages and the device's address of them */
	void *cpu;
	dma_addr_t bus;
	size_t len;
	struct device *dma_dev;
};

/* A ring larger than a page, allocated here bus-contiguous (the firmware takes no page lists
 * for rings, and a process's pages are contiguous only by chance): physically contiguous pages
 * (up to 4 MiB), mapped for the device, zeroed, and offered to the process as an mmap entry of
 * its context (*key). The pages go in rnic_mmap_free, when the entry was removed
 * (rdma_user_mmap_entry_remove after the firmware's DESTROY) and the process's mapping closed
 * (rdma_user_mmap_io holds the entry per mapping): never while the device or the process can
 * still reach them. */
struct rdma_user_mmap_entry *rnic_kbuf_alloc(struct rnic_kdev *rd, struct ib_ucontext *ibuc,
					     size_t len, u64 *bus, u64 *key)
{
	struct rnic_mmap_entry *e;
	int rc = -ENOMEM;

	if (!len || !PAGE_ALIGNED(len))
		return ERR_PTR(-EINVAL);
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);
	e->len = len;
	e->dma_dev = rd->dma_dev;
	e->cpu = alloc_pages_exact(len, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!e->cpu)
		goto err_free;
	/* A streaming mapping kept for the ring's life: the device and the process share it
	 * the way they share a pinned user page (coherent DMA, as ib_umem's). */
	e->bus = dma_map_single(rd->dma_dev, e->cpu, len, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(rd->dma_dev, e->bus))
		goto err_pages;
	rc = rdma_user_mmap_entry_insert(ibuc, &e->rdma, len);
	if (rc)
		goto err_map;
	*bus = e->bus;
	*key = rdma_user_mmap_get_offset(&e->rdma);
	atomic_inc(&rd->kbufs);
	return &e->rdma;

err_map:
	dma_unmap_single(rd->dma_dev, e->bus, len, DMA_BIDIRECTIONAL);
err_pages:
	free_pages_exact(e->cpu, len);
err_free:
	kfree(e);
	return ERR_PTR(rc);
}

/* The context's doorbell page as an mmap entry of its ucontext: the offset (key) that mmap on
 * this context's cmd_fd takes names this page only; ib_core refuses any other offset, and a
 * key of another context does not exist in this one. */
static int db_entry_add(struct rnic_kdev *rd, struct rnic_ucontext *uc)
{
	phys_addr_t phys = rd->xp->db_page ? rd->xp->db_page(rd, uc->uctx) : 0;
	struct rnic_mmap_entry *e;
	int rc;

	if (!phys)
		return 0;	/* no doorbell page: the provider sees key 0 */
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->phys = phys;
	rc = rdma_user_mmap_entry_insert(&uc->ibuc, &e->rdma, PAGE_SIZE);
	if (rc) {
		kfree(e);
		return rc;
	}
	uc->db_entry = &e->rdma;
	return 0;
}

static int rnic_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry = rdma_user_mmap_entry_get(ibuc, vma);
	struct rnic_mmap_entry *e;
	int rc;

	if (!entry)
		return -EINVAL;
	e = container_of(entry, struct rnic_mmap_entry, rdma);
	if (e->cpu)	/* a queue buffer: ordinary cached memory, as the process's own */
		rc = rdma_user_mmap_io(ibuc, vma, PHYS_PFN(virt_to_phys(e->cpu)), e->len,
				       vma->vm_page_prot, entry);
	/* Write-combined: a BlueFlame WQE's 64-byte blocks reach the device as whole beats. The
	 * provider fences before every doorbell word, so the doorbells keep program order. */
	else
		rc = rdma_user_mmap_io(ibuc, vma, PHYS_PFN(e->phys), PAGE_SIZE,
				       pgprot_writecombine(vma->vm_page_prot), entry);
	rdma_user_mmap_entry_put(entry);
	return rc;
}

static void rnic_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct rnic_mmap_entry *e = container_of(entry, struct rnic_mmap_entry, rdma);

	if (e->cpu) {
		dma_unmap_single(e->dma_dev, e->bus, e->len, DMA_BIDIRECTIONAL);
		free_pages_exact(e->cpu, e->len);
	}
	kfree(e);
}

static int rnic_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibuc->device);
	struct rnic_ucontext *uc = container_of(ibuc, struct rnic_ucontext, ibuc);
	struct rnic_uresp_ucontext resp = {};
	int rc;

	rc = RNIC_CMD(rd, rnic_cmd_alloc_uctx(&rd->cmdq, &uc->uctx));
	if (rc)
		return rc;
	rc = db_entry_add(rd, uc);
	if (rc)
		goto err_uctx;
	resp.db_mmap_key = uc->db_entry ? rdma_user_mmap_get_offset(uc->db_entry) : 0;
	resp.uctx = uc->uctx;
	resp.db_page_size = uc->db_entry ? RNIC_DB_BAR_PAGE_SIZE : 0;
	/* Every doorbell page has bf_data; the card says whether it captures it (id.caps; a WQE
	 * not captured whole is read from the ring). */
	if (uc->db_entry && (rd->info.caps & BIT(RNIC_ID_CAPS_BLUEFLAME)))
		resp.flags |= RNIC_UCTX_BLUEFLAME;
	resp.fw_version = rd->dattr.fw_version;
	resp.max_qp = rd->dattr.max_qp;
	resp.max_cq = rd->dattr.max_cq;
	resp.max_mr = rd->dattr.max_mr;
	resp.max_pd = rd->dattr.max_pd;
	resp.max_qp_wr = rd->dattr.max_qp_wr;
	resp.max_cqe = rd->dattr.max_cqe;
	resp.max_sge = rd->dattr.max_sge;
	resp.max_inline = rd->dattr.max_inline;
	resp.max_rd_atomic = rd->dattr.max_rd_atomic;
	resp.page_size_cap = rd->dattr.page_size_cap;
	resp.max_mr_size_log2 = rd->dattr.max_mr_size_log2;
	resp.num_uctx = rd->dattr.num_uctx;
	resp.speed_gbps = rd->pattr.speed_gbps;
	ether_addr_copy(resp.mac, rd->netdev->dev_addr);
	rc = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (!rc)
		return 0;
	if (uc->db_entry)
		rdma_user_mmap_entry_remove(uc->db_entry);
err_uctx:
	RNIC_CMD(rd, rnic_cmd_dealloc_uctx(&rd->cmdq, uc->uctx));
	return rc;
}

static void rnic_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct rnic_kdev *rd = to_rdev(ibuc->device);
	struct rnic_ucontext *uc = container_of(ibuc, struct rnic_ucontext, ibuc);

	if (uc->db_entry)
		rdma_user_mmap_entry_remove(uc->db_entry);
	RNIC_CMD(rd, rnic_cmd_dealloc_uctx(&rd->cmdq, uc->uctx));
}

static int rnic_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibpd->device);
	struct rnic_pd *pd = container_of(ibpd, struct rnic_pd, ibpd);
	struct rnic_ucontext *uc = rdma_udata_to_drv_context(udata, struct rnic_ucontext, ibuc);
	struct rnic_uresp_pd resp = {};
	int rc;

	rc = RNIC_CMD(rd, rnic_cmd_alloc_pd(&rd->cmdq, uc ? uc->uctx : 0, &pd->pdn));
	if (rc)
		return rc;
	if (udata) {
		resp.pdn = pd->pdn;
		rc = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
		if (rc)
			RNIC_CMD(rd, rnic_cmd_dealloc_pd(&rd->cmdq, pd->pdn));
	}
	return rc;
}

u32 rnic_pdn(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct rnic_pd, ibpd)->pdn;
}

static int rnic_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibpd->device);
	struct rnic_pd *pd = container_of(ibpd, struct rnic_pd, ibpd);

	(void)udata;
	/* A dead device cannot answer; the PD is gone with it. */
	RNIC_CMD(rd, rnic_cmd_dealloc_pd(&rd->cmdq, pd->pdn));
	return 0;
}

static const struct ib_device_ops rnic_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,	/* out of tree: matched by name, see docs */
	.uverbs_abi_ver = RNIC_UVERBS_ABI_VERSION,

	.query_device = rnic_query_device,
	.get_dev_fw_str = rnic_get_dev_fw_str,
	.query_port = rnic_query_port,
	.get_port_immutable = rnic_get_port_immutable,
	.get_link_layer = rnic_get_link_layer,
	.query_pkey = rnic_query_pkey,
	.add_gid = rnic_add_gid,
	.del_gid = rnic_del_gid,
	.alloc_ucontext = rnic_alloc_ucontext,
	.dealloc_ucontext = rnic_dealloc_ucontext,
	.mmap = rnic_mmap,
	.mmap_free = rnic_mmap_free,
	.alloc_pd = rnic_alloc_pd,
	.dealloc_pd = rnic_dealloc_pd,
	.reg_user_mr = rnic_reg_user_mr,
	.dereg_mr = rnic_dereg_mr,
	.create_cq = rnic_create_cq,
	.destroy_cq = rnic_destroy_cq,
	.req_notify_cq = rnic_req_notify_cq,
	.create_qp = rnic_create_qp,
	.destroy_qp = rnic_destroy_qp,
	.modify_qp = rnic_modify_qp,
	.query_qp = rnic_query_qp,
	.create_ah = rnic_create_ah,
	.create_user_ah = rnic_create_ah,
	.destroy_ah = rnic_destroy_ah,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, rnic_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, rnic_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, rnic_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, rnic_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ah, rnic_ah, ibah),
};

int rnic_ib_register(struct rnic_kdev *rd)
{
	struct ib_device *ibdev = &rd->ibdev;
	struct net_device *nd;
	int rc;

	nd = dev_get_by_name(&init_net, rnic_netdev_name);
	if (!nd) {
		dev_err(rd->dma_dev, "netdev %s (module parameter netdev) not found: the GID table needs one\n",
			rnic_netdev_name);
		return -ENODEV;
	}
	rd->netdev = nd;
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1;
	ibdev->dev.parent = rd->dma_dev;
	/* EUI-64 from the netdev's MAC, as RoCE drivers do */
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, nd->dev_addr);
	ib_set_device_ops(ibdev, &rnic_dev_ops);
	/* REQ_NOTIFY_CQ is one of the write commands ib_uverbs offers only to drivers that ask
	 * (as rxe does): the arm through the front-end's kernel doorbell path. */
	if (rd->xp->db_write32)
		ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	rc = ib_device_set_netdev(ibdev, nd, 1);
	if (rc)
		goto err;
	rc = ib_register_device(ibdev, RNIC_DRV_NAME "%d", rd->dma_dev);
	if (rc) {
		dev_err(rd->dma_dev, "ib_register_device: %d\n", rc);
		goto err;
	}
	rd->ib_registered = true;
	dev_info(rd->dma_dev, "registered %s on netdev %s (RoCE v2, uverbs ABI %d)\n",
		 dev_name(&ibdev->dev), nd->name, RNIC_UVERBS_ABI_VERSION);
	return 0;
err:
	rd->netdev = NULL;
	dev_put(nd);
	return rc;
}

void rnic_ib_unregister(struct rnic_kdev *rd)
{
	if (rd->ib_registered) {
		ib_unregister_device(&rd->ibdev);
		rd->ib_registered = false;
	}
	if (rd->netdev) {
		dev_put(rd->netdev);
		rd->netdev = NULL;
	}
}
