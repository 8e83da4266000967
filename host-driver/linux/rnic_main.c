// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Module entry: the two front-ends (a 10ee:5252 card on PCIe, and the guest transport of the
 * simulator on ivshmem-doorbell) and the probe/remove steps they share. */
#include <linux/module.h>
#include <linux/netdevice.h>

#include "rnic_drv.h"

char *rnic_netdev_name = "eth0";
module_param_named(netdev, rnic_netdev_name, charp, 0444);
MODULE_PARM_DESC(netdev, "host netdev whose MAC and IPv4 addresses fill port 1's GID table (the card has no Ethernet path of its own yet)");

/* The probe steps after a front-end mapped its registers: MSI-X vectors (nvec, the EQ on
 * RNIC_EQ_VECTOR), the ib_device container, the EQ's threaded interrupt (register accesses of
 * the guest transport spin, so not in hard-IRQ context), bring-up and registration. */
int rnic_dev_probe(struct pci_dev *pdev, const struct rnic_xport *xp, void *priv, unsigned int nvec)
{
	struct rnic_kdev *rd;
	int rc;

	rc = pci_alloc_irq_vectors(pdev, 1, nvec, PCI_IRQ_MSIX);
	if (rc < 0)
		return rc;
	rd = ib_alloc_device(rnic_kdev, ibdev);
	if (!rd) {
		rc = -ENOMEM;
		goto err_vec;
	}
	rd->pdev = pdev;
	rd->dma_dev = &pdev->dev;
	rd->xp = xp;
	rd->xp_priv = priv;
	atomic_set(&rd->events, 0);
	atomic_set(&rd->eq_irqs, 0);
	atomic_set(&rd->eq_late, 0);
	atomic_set(&rd->kbufs, 0);
	xa_init(&rd->cq_xa);
	xa_init(&rd->qp_xa);
	rd->irq_eq = pci_irq_vector(pdev, RNIC_EQ_VECTOR);
	rc = request_threaded_irq(rd->irq_eq, NULL, rnic_hw_eq_irq, IRQF_ONESHOT, "rnic-eq", rd);
	if (rc)
		goto err_dev;
	pci_set_drvdata(pdev, rd);
	rc = rnic_hw_init(rd);
	if (rc)
		goto err_irq;
	rc = rnic_ib_register(rd);
	if (rc)
		goto err_hw;
	return 0;

err_hw:
	rnic_hw_fini(rd);
err_irq:
	free_irq(rd->irq_eq, rd);
err_dev:
	ib_dealloc_device(&rd->ibdev);
err_vec:
	pci_free_irq_vectors(pdev);
	return rc;
}

/* Unregistering first makes ib_core close every user context (uverbs disassociates the
 * processes still holding the device), so the command queue is quiet when it goes. */
void rnic_dev_remove(struct rnic_kdev *rd)
{
	struct pci_dev *pdev = rd->pdev;
	u8 c[RNIC_CMD_ENTRY_SIZE] = {};

	rnic_ib_unregister(rd);
	/* The firmware's data-path figures of this probe's life, for whoever reads the log (the
	 * guest test checks BlueFlame WQEs were taken from the capture). */
	rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_QUERY_COUNTERS);
	if (!RNIC_CMD(rd, rnic_cmdq_exec(&rd->cmdq, c, NULL)))
		dev_info(rd->dma_dev, "firmware counters: %u doorbells, %u send WQEs, %u CQEs, %u BlueFlame WQEs from the capture, %u BlueFlame misses\n",
			 rnic_cmd_query_counters_get_doorbells(c), rnic_cmd_query_counters_get_sq_wqes(c),
			 rnic_cmd_query_counters_get_cqes(c), rnic_cmd_query_counters_get_bf_wqes(c),
			 rnic_cmd_query_counters_get_bf_misses(c));
	rnic_hw_fini(rd);
	free_irq(rd->irq_eq, rd);
	dev_info(rd->dma_dev, "EQ: %d interrupts, %d events, %d entries found after the arm; %d rings allocated by the kernel\n",
		 atomic_read(&rd->eq_irqs), atomic_read(&rd->events), atomic_read(&rd->eq_late),
		 atomic_read(&rd->kbufs));
	xa_destroy(&rd->cq_xa);	/* empty: every CQ and QP went with its context */
	xa_destroy(&rd->qp_xa);
	ib_dealloc_device(&rd->ibdev);
	pci_free_irq_vectors(pdev);
}

static int __init rnic_init(void)
{
	int rc;

	rc = pci_register_driver(&rnic_pci_driver);
	if (rc)
		return rc;
	rc = pci_register_driver(&rnic_ivs_driver);
	if (rc)
		pci_unregister_driver(&rnic_pci_driver);
	return rc;
}

static void __exit rnic_exit(void)
{
	pci_unregister_driver(&rnic_ivs_driver);
	pci_unregister_driver(&rnic_pci_driver);
}

module_init(rnic_init);
module_exit(rnic_exit);
MODULE_DESCRIPTION("rnic: open FPGA RoCEv2 NIC (ib_core device)");
MODULE_LICENSE("Dual BSD/GPL");
