// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Bring-up and the command queue / event queue glue: discovery and the spec hash check,
 * optional firmware load (request_firmware), the firmware's READY status, the command queue,
 * the event queue on MSI-X vector RNIC_EQ_VECTOR, the device limits. A device that stops
 * answering (all-ones reads, commands timing out) is marked dead: every later access fails
 * fast, so the kernel stays healthy and the module still unloads. */
#include <linux/delay.h>
#include <linux/firmware.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "rnic_drv.h"
#include "rnic_fw.h"

static char *fw_image;
module_param(fw_image, charp, 0444);
MODULE_PARM_DESC(fw_image, "firmware image (request_firmware name) loaded at probe; empty: keep the baked-in image");

static uint cmd_timeout_ms = 1000;
module_param(cmd_timeout_ms, uint, 0444);
MODULE_PARM_DESC(cmd_timeout_ms, "per-command timeout in ms (a simulated NIC behind the guest transport needs more)");

static uint fw_ready_ms = 5000;
module_param(fw_ready_ms, uint, 0444);
MODULE_PARM_DESC(fw_ready_ms, "how long probe waits for the firmware's READY status, ms");

void rnic_hw_mark_dead(struct rnic_kdev *rd, const char *why)
{
	if (xchg(&rd->dead, true))
		return;
	dev_err(rd->dma_dev, "device marked dead: %s; every further command fails\n", why);
	if (rd->ib_registered) {
		struct ib_event ev = {
			.device = &rd->ibdev,
			.event = IB_EVENT_DEVICE_FATAL,
			.element.port_num = 1,
		};

		ib_dispatch_event(&ev);
	}
}

/* After a typed command of host-driver/core ran: a timeout with a device that reads all-ones
 * (surprise removal, hung bridge) or a panicked firmware marks it dead. Returns rc. */
int rnic_hw_cmd_done(struct rnic_kdev *rd, int rc)
{
	if (rc == -ETIMEDOUT && !READ_ONCE(rd->dead)) {
		u32 id = rd->xp->read32(rd, RNIC_REG_ID_SPEC_HASH);
		u32 st = rd->xp->read32(rd, RNIC_REG_CPU_FW_STATUS);

		dev_warn(rd->dma_dev, "command timed out (spec hash reads 0x%08x, fw status %u)\n", id, st);
		if (id == ~0u || st == RNIC_FW_STATUS_PANIC)
			rnic_hw_mark_dead(rd, id == ~0u ? "registers read all-ones" : "firmware panic");
	}
	return rc;
}

/* Completion (type < 0) or asynchronous event of CQ cqn, to its owner (ib_uverbs: the
 * completion channel or the async fd). Under the xarray's lock: destroy_cq erases the entry
 * first, so the CQ is alive here. */
static void eq_cq_event(struct rnic_kdev *rd, u32 cqn, int type)
{
	struct rnic_cq *cq;

	xa_lock(&rd->cq_xa);
	cq = xa_load(&rd->cq_xa, cqn);
	if (cq && type < 0 && cq->ibcq.comp_handler) {
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	} else if (cq && type >= 0 && cq->ibcq.event_handler) {
		struct ib_event ibev = { .device = &rd->ibdev, .event = type,
					 .element.cq = &cq->ibcq };

		cq->ibcq.event_handler(&ibev, cq->ibcq.cq_context);
	}
	xa_unlock(&rd->cq_xa);
	if (!cq)
		dev_dbg(rd->dma_dev, "event %d of unknown CQ %u\n", type, cqn);
}

static void eq_qp_event(struct rnic_kdev *rd, u32 qpn, enum ib_event_type type)
{
	struct rnic_qp *qp;

	xa_lock(&rd->qp_xa);
	qp = xa_load(&rd->qp_xa, qpn);
	if (qp && qp->ibqp.event_handler) {
		struct ib_event ibev = { .device = &rd->ibdev, .event = type,
					 .element.qp = &qp->ibqp };

		qp->ibqp.event_handler(&ibev, qp->ibqp.qp_context);
	}
	xa_unlock(&rd->qp_xa);
	if (!qp)
		dev_dbg(rd->dma_dev, "event %d of unknown QP %u\n", type, qpn);
}

static void eq_on_event(void *arg, const struct rnic_event *ev)
{
	struct rnic_kdev *rd = arg;
	struct ib_event ibev = { .device = &rd->ibdev };

	atomic_inc(&rd->events);
	switch (ev->type) {
	case RNIC_EQ_TYPE_PORT_CHANGE:
		if (!rd->ib_registered)
			return;
		ibev.event = ev->data ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
		ibev.element.port_num = 1;
		ib_dispatch_event(&ibev);
		return;
	case RNIC_EQ_TYPE_FW_PANIC:
		rnic_hw_mark_dead(rd, "firmware panic event");
		return;
	case RNIC_EQ_TYPE_COMPLETION:
		eq_cq_event(rd, ev->handle, -1);
		return;
	case RNIC_EQ_TYPE_CQ_ERROR:
		eq_cq_event(rd, ev->handle, IB_EVENT_CQ_ERR);
		return;
	case RNIC_EQ_TYPE_QP_FATAL:
		/* The verbs event the entry stands for (the core's mapping; its values are
		 * enum ib_event_type's), or none: a requester-side error is the WC's status. */
		if (rnic_eq_ib_event(ev) >= 0)
			eq_qp_event(rd, ev->handle, (enum ib_event_type)rnic_eq_ib_event(ev));
		return;
	case RNIC_EQ_TYPE_QP_LAST_WQE:
		eq_qp_event(rd, ev->handle, IB_EVENT_QP_LAST_WQE_REACHED);
		return;
	default:
		dev_dbg(rd->dma_dev, "event type %u handle %u\n", ev->type, ev->handle);
		return;
	}
}

irqreturn_t rnic_hw_eq_irq(int irq, void *data)
{
	struct rnic_kdev *rd = data;

	(void)irq;
	if (!rd->eq_up || READ_ONCE(rd->dead))
		return IRQ_HANDLED;
	atomic_inc(&rd->eq_irqs);
	/* The arm (eq_cons bit 31) makes the NIC raise the vector at its next notify only: an
	 * entry written after the poll's last look at the ring but before the arm reached the
	 * NIC raised nothing, and its completion event waited for the next one (ibv_rc_pingpong
	 * -e waited for ever: the guest transport's arm takes a mailbox round trip). So after
	 * the arm, a register read (on PCIe it also flushes the posted arm) and a look again:
	 * an entry there is consumed now; one written later finds the EQ armed. */
	for (;;) {
		rnic_eq_poll(&rd->eq, 64, 1);
		(void)rd->xp->read32(rd, RNIC_REG_EQ_EQ_PROD);
		if (READ_ONCE(rd->dead) || !rnic_eq_pending(&rd->eq))
			break;
		atomic_inc(&rd->eq_late);
	}
	return IRQ_HANDLED;
}

static int load_firmware(struct rnic_kdev *rd)
{
	const struct firmware *fw;
	int rc;

	rc = request_firmware(&fw, fw_image, rd->dma_dev);
	if (rc) {
		dev_err(rd->dma_dev, "request_firmware(%s): %d\n", fw_image, rc);
		return rc;
	}
	rc = rnic_fw_load(&rd->os, fw->data, fw->size, fw_ready_ms * 1000u);
	release_firmware(fw);
	if (rc)
		dev_err(rd->dma_dev, "firmware %s refused or not started: %d\n", fw_image, rc);
	else
		dev_info(rd->dma_dev, "firmware %s loaded\n", fw_image);
	return rc;
}

static int wait_fw_ready(struct rnic_kdev *rd)
{
	unsigned long end = jiffies + msecs_to_jiffies(fw_ready_ms);
	u32 st;

	for (;;) {
		st = rnic_rd32(&rd->os, RNIC_REG_CPU_FW_STATUS);
		if (st == RNIC_FW_STATUS_READY)
			return 0;
		if (st == RNIC_FW_STATUS_BAD_IMAGE || st == RNIC_FW_STATUS_PANIC || st == ~0u) {
			dev_err(rd->dma_dev, "firmware status %u\n", st);
			return -EIO;
		}
		if (time_after(jiffies, end)) {
			dev_err(rd->dma_dev, "firmware not READY after %u ms (status %u)\n", fw_ready_ms, st);
			return -ETIMEDOUT;
		}
		msleep(10);
	}
}

int rnic_hw_init(struct rnic_kdev *rd)
{
	struct rnic_res_limits lim;
	u32 eq_prod;
	char name[5];
	int rc;
	unsigned int i;

	rnic_os_init(rd);
	rc = rnic_discover(&rd->os, &rd->info);
	if (rc == -EPROTO) {
		dev_err(rd->dma_dev, "spec hash 0x%08x, this driver was built from spec 0x%08x: refusing the device\n",
			rd->info.spec_hash, RNIC_SPEC_HASH);
		return rc;
	}
	if (rc) {
		dev_err(rd->dma_dev, "register discovery failed: %d\n", rc);
		return rc;
	}
	dev_info(rd->dma_dev, "%04x:%04x hw %u.%u spec hash 0x%08x ok, %u register blocks, %u cores at %u MHz, caps 0x%x\n",
		 rd->info.vendor_id, rd->info.device_id, rd->info.hw_version >> 16,
		 rd->info.hw_version & 0xFFFF, rd->info.spec_hash, rd->info.num_blocks,
		 rd->info.num_cores, rd->info.clock_mhz, rd->info.caps);
	for (i = 0; i < rd->info.num_blocks; i++) {
		rnic_block_name(rd->info.blocks[i].type, name);
		dev_dbg(rd->dma_dev, "block %s v%u at 0x%05x\n", name, rd->info.blocks[i].version,
			rd->info.blocks[i].base);
	}
	if (fw_image && fw_image[0]) {
		rc = load_firmware(rd);
		if (rc)
			return rc;
	}
	rc = wait_fw_ready(rd);
	if (rc)
		return rc;

	rc = rnic_cmdq_init(&rd->cmdq, &rd->os, RNIC_CMDQ_LOG_SIZE);
	if (rc) {
		dev_err(rd->dma_dev, "command queue: %d\n", rc);
		return rc;
	}
	rd->cmdq.timeout_us = cmd_timeout_ms * 1000u;
	rd->cmdq.poll_us = 20;
	rd->cmdq_up = true;

	/* The firmware's producer count runs on across the host's EQs (a module reloaded, a new
	 * firmware image): the new ring's consumer starts there, where the NIC writes next, with
	 * the owner bit of that pass. Read while the EQ is off (eq_log_size 0): nothing moves it. */
	eq_prod = rnic_rd32(&rd->os, RNIC_REG_EQ_EQ_PROD);
	rc = rnic_eq_init(&rd->eq, &rd->os, RNIC_EQ_LOG_SIZE, RNIC_EQ_VECTOR);
	if (rc) {
		dev_err(rd->dma_dev, "event queue: %d\n", rc);
		goto err_cmdq;
	}
	rd->eq.ci = eq_prod;
	rnic_eq_set_handler(&rd->eq, RNIC_EQ_NUM_TYPES, eq_on_event, rd);
	for (i = 0; i < RNIC_EQ_NUM_TYPES; i++)
		rnic_eq_set_handler(&rd->eq, i, eq_on_event, rd);
	rd->eq_up = true;

	rc = RNIC_CMD(rd, rnic_cmd_query_device(&rd->cmdq, &rd->dattr));
	if (!rc)
		rc = RNIC_CMD(rd, rnic_cmd_query_port(&rd->cmdq, &rd->pattr));
	if (rc) {
		dev_err(rd->dma_dev, "QUERY_DEVICE/QUERY_PORT: %d\n", rc);
		goto err_eq;
	}
	dev_info(rd->dma_dev, "firmware %u.%u: %u QPs, %u CQs, %u MRs, %u PDs, %u user contexts, port %u Gb/s mtu %u\n",
		 rd->dattr.fw_version >> 16, rd->dattr.fw_version & 0xFFFF, rd->dattr.max_qp,
		 rd->dattr.max_cq, rd->dattr.max_mr, rd->dattr.max_pd, rd->dattr.num_uctx,
		 rd->pattr.speed_gbps, rd->pattr.max_mtu);

	rd->res = kzalloc(sizeof(*rd->res), GFP_KERNEL);
	if (!rd->res) {
		rc = -ENOMEM;
		goto err_eq;
	}
	lim = (struct rnic_res_limits){
		.max_pd = rd->dattr.max_pd, .max_cq = rd->dattr.max_cq, .max_qp = rd->dattr.max_qp,
		.max_ah = 0, .num_uctx = rd->dattr.num_uctx,
	};
	rc = rnic_res_init(rd->res, &rd->os, &lim);
	if (rc)
		goto err_res;
	return 0;

err_res:
	kfree(rd->res);
	rd->res = NULL;
err_eq:
	rd->eq_up = false;
	rnic_eq_fini(&rd->eq);
err_cmdq:
	rd->cmdq_up = false;
	rnic_cmdq_fini(&rd->cmdq);
	return rc;
}

void rnic_hw_fini(struct rnic_kdev *rd)
{
	if (rd->eq_up) {
		rd->eq_up = false;
		if (rd->irq_eq > 0)
			synchronize_irq(rd->irq_eq);
		rnic_eq_fini(&rd->eq);
	}
	if (rd->cmdq_up) {
		rd->cmdq_up = false;
		rnic_cmdq_fini(&rd->cmdq);
	}
	kfree(rd->res);
	rd->res = NULL;
}
