// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Memory regions of user processes: pinned with ib_umem, described to the NIC as a page list
 * (mtt_entry, host-driver/core rnic_mr.c) in 4 KiB or 2 MiB pages, whichever ib_core finds
 * fits the region best, and registered with REG_MR. */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#include "rnic_drv.h"
#include "rnic_mr.h"

struct rnic_kmr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct rnic_mtt mtt;
};

/* ib_access_flags and enum access share bit positions for the four rights (the spec says so). */
static int access_bits(int access, u32 *out)
{
	const int rights = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			   IB_ACCESS_REMOTE_ATOMIC;

	BUILD_BUG_ON(IB_ACCESS_REMOTE_WRITE != 1 << RNIC_ACCESS_REMOTE_WRITE);
	BUILD_BUG_ON(IB_ACCESS_REMOTE_READ != 1 << RNIC_ACCESS_REMOTE_READ);
	BUILD_BUG_ON(IB_ACCESS_REMOTE_ATOMIC != 1 << RNIC_ACCESS_REMOTE_ATOMIC);
	BUILD_BUG_ON(IB_ACCESS_LOCAL_WRITE != 1 << RNIC_ACCESS_LOCAL_WRITE);
	/* Optional hints a device may ignore (ib_verbs.h IB_ACCESS_OPTIONAL) are; memory windows,
	 * zero-based and on-demand regions are not implemented. */
	if (access & ~(rights | IB_ACCESS_OPTIONAL))
		return -EOPNOTSUPP;
	*out = (u32)(access & rights);
	return 0;
}

struct ib_mr *rnic_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length, u64 virt, int access,
			       struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibpd->device);
	struct rnic_reg_mr_in in = { .pdn = rnic_pdn(ibpd), .iova = virt, .length = length };
	struct ib_block_iter biter;
	struct rnic_kmr *mr;
	unsigned long pgsz;
	u32 n, i = 0, lkey, rkey;
	u64 *pages;
	int rc;

	(void)udata;
	rc = access_bits(access, &in.access);
	if (rc)
		return ERR_PTR(rc);
	if (!length || length > (1ull << min(rd->dattr.max_mr_size_log2, 63u)))
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		rc = PTR_ERR(mr->umem);
		goto err_mr;
	}
	pgsz = ib_umem_find_best_pgsz(mr->umem, SZ_4K | SZ_2M, virt);
	if (!pgsz) {
		rc = -EINVAL;
		goto err_umem;
	}
	n = ib_umem_num_dma_blocks(mr->umem, pgsz);
	pages = kvcalloc(n, sizeof(*pages), GFP_KERNEL);
	if (!pages) {
		rc = -ENOMEM;
		goto err_umem;
	}
	rdma_umem_for_each_dma_block(mr->umem, &biter, pgsz)
		pages[i++] = rdma_block_iter_dma_address(&biter);
	rc = rnic_mtt_build_pages(&rd->os, &mr->mtt, virt, length, ilog2(pgsz), pages, n);
	kvfree(pages);
	if (rc)
		goto err_umem;
	in.mtt = &mr->mtt;
	rc = RNIC_CMD(rd, rnic_cmd_reg_mr(&rd->cmdq, &in, &lkey, &rkey));
	if (rc)
		goto err_mtt;
	mr->ibmr.lkey = lkey;
	mr->ibmr.rkey = rkey;
	return &mr->ibmr;

err_mtt:
	rnic_mtt_free(&rd->os, &mr->mtt);
err_umem:
	ib_umem_release(mr->umem);
err_mr:
	kfree(mr);
	return ERR_PTR(rc);
}

int rnic_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rnic_kdev *rd = to_rdev(ibmr->device);
	struct rnic_kmr *mr = container_of(ibmr, struct rnic_kmr, ibmr);
	int rc;

	(void)udata;
	rc = RNIC_CMD(rd, rnic_cmd_dereg_mr(&rd->cmdq, ibmr->lkey));
	/* A live device that refuses keeps the region (and its pages) registered; a dead one
	 * cannot use them any more. */
	if (rc && !READ_ONCE(rd->dead))
		return rc;
	rnic_mtt_free(&rd->os, &mr->mtt);
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}
