// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The PCIe front-end of a card: vendor 0x10EE device 0x5252, BAR0 mapped uncached, registers
 * read and written with readl/writel, MSI-X vectors from the card's own MSI-X table. */
#include <linux/dma-mapping.h>
#include <linux/io.h>

#include "rnic_drv.h"

struct rnic_pci {
	void __iomem *bar0;
};

static u32 pci_read32(struct rnic_kdev *rd, u32 off)
{
	struct rnic_pci *p = rd->xp_priv;

	return readl(p->bar0 + off);
}

static void pci_write32(struct rnic_kdev *rd, u32 off, u32 val)
{
	struct rnic_pci *p = rd->xp_priv;

	writel(val, p->bar0 + off);
}

/* User context N's doorbell page: page N of the doorbell BAR that discovery read from BAR0. */
static phys_addr_t pci_db_page(struct rnic_kdev *rd, u32 uctx)
{
	const struct rnic_dev_info *di = &rd->info;

	if (uctx >= di->db_num_pages || di->db_bar >= PCI_STD_NUM_BARS ||
	    (u64)(uctx + 1) * di->db_page_size > pci_resource_len(rd->pdev, di->db_bar))
		return 0;
	return pci_resource_start(rd->pdev, di->db_bar) + (phys_addr_t)uctx * di->db_page_size;
}

static const struct rnic_xport rnic_pci_xport = {
	.name = "pci",
	.read32 = pci_read32,
	.write32 = pci_write32,
	.db_page = pci_db_page,
};

static int rnic_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct rnic_pci *p;
	int rc;

	(void)id;
	p = devm_kzalloc(&pdev->dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;
	if (pci_resource_len(pdev, 0) < RNIC_BAR0_SIZE) {
		dev_err(&pdev->dev, "BAR0 is %llu bytes, the spec says %u\n",
			(unsigned long long)pci_resource_len(pdev, 0), RNIC_BAR0_SIZE);
		return -ENODEV;
	}
	rc = pcim_iomap_regions(pdev, BIT(0), RNIC_DRV_NAME);
	if (rc)
		return rc;
	p->bar0 = pcim_iomap_table(pdev)[0];
	pci_set_master(pdev);
	rc = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (rc)
		return rc;
	return rnic_dev_probe(pdev, &rnic_pci_xport, p, 1);
}

static void rnic_pci_remove(struct pci_dev *pdev)
{
	rnic_dev_remove(pci_get_drvdata(pdev));
}

static const struct pci_device_id rnic_pci_ids[] = {
	{ PCI_DEVICE(RNIC_PCI_VENDOR_ID, RNIC_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, rnic_pci_ids);

struct pci_driver rnic_pci_driver = {
	.name = RNIC_DRV_NAME,
	.id_table = rnic_pci_ids,
	.probe = rnic_pci_probe,
	.remove = rnic_pci_remove,
};
