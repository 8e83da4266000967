/* BAR0 of a card on the PCI bus, found and mapped through libpciaccess (which reads
 * /sys/bus/pci/devices on Linux and maps resource0 there). */
#include "tool_bar.h"

#include <errno.h>
#include <pciaccess.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_spec_regs.h"

struct pci_bar {
	struct tool_bar bar;
	struct pci_device *dev;
	volatile uint8_t *base;
	uint64_t map_size;
};

static char why_buf[256];

static int slot_parse(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
	char tail;

	*dom = 0;
	if (sscanf(s, "%x:%x:%x.%x%c", dom, bus, dev, fn, &tail) == 4)
		return 0;
	*dom = 0;
	if (sscanf(s, "%x:%x.%x%c", bus, dev, fn, &tail) == 3)
		return 0;
	return -EINVAL;
}

static void card_fill(struct tool_pci_card *c, struct pci_device *d)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->slot, sizeof(c->slot), "%04x:%02x:%02x.%x", (unsigned)d->domain, (unsigned)d->bus,
		 (unsigned)d->dev, (unsigned)d->func);
	c->vendor_id = d->vendor_id;
	c->device_id = d->device_id;
	c->subvendor_id = d->subvendor_id;
	c->subdevice_id = d->subdevice_id;
	/* probe reads the resource file for the regions; without it BAR0 shows as absent */
	if (pci_device_probe(d) == 0) {
		c->bar0_addr = d->regions[0].base_addr;
		c->bar0_size = d->regions[0].size;
	}
}

/* Walks the cards with our IDs; calls fn on each until it returns non-zero. */
static int for_each_card(int (*fn)(struct pci_device *d, void *arg), void *arg)
{
	struct pci_id_match match = {
		.vendor_id = RNIC_PCI_VENDOR_ID, .device_id = RNIC_PCI_DEVICE_ID,
		.subvendor_id = PCI_MATCH_ANY, .subdevice_id = PCI_MATCH_ANY,
	};
	struct pci_device_iterator *it = pci_id_match_iterator_create(&match);
	struct pci_device *d;
	int rc = 0;

	if (!it)
		return -ENOMEM;
	while ((d = pci_device_next(it)) && !(rc = fn(d, arg)))
		;
	pci_iterator_destroy(it);
	return rc < 0 ? rc : 0;
}

struct list_ctx {
	struct tool_pci_card *cards;
	int max, n;
};

static int list_one(struct pci_device *d, void *arg)
{
	struct list_ctx *l = arg;

	if (l->n < l->max)
		card_fill(&l->cards[l->n], d);
	l->n++;
	return 0;
}

int tool_pci_list(struct tool_pci_card *cards, int max)
{
	struct list_ctx l = { cards, max, 0 };
	int rc = pci_system_init();

	if (rc)
		return -rc;
	rc = for_each_card(list_one, &l);
	pci_system_cleanup();
	return rc < 0 ? rc : l.n;
}

static uint32_t pci_rd32(struct tool_bar *bar, uint32_t off)
{
	struct pci_bar *p = (struct pci_bar *)bar;

	bar->reads++;
	if ((off & 3) || (uint64_t)off + 4 > p->map_size) {
		bar->errors++;
		return 0xFFFFFFFFu;
	}
	return *(volatile uint32_t *)(p->base + off);
}

static void pci_wr32(struct tool_bar *bar, uint32_t off, uint32_t val)
{
	struct pci_bar *p = (struct pci_bar *)bar;

	bar->writes++;
	if ((off & 3) || (uint64_t)off + 4 > p->map_size) {
		bar->errors++;
		return;
	}
	*(volatile uint32_t *)(p->base + off) = val;
}

static void pci_close(struct tool_bar *bar)
{
	struct pci_bar *p = (struct pci_bar *)bar;

	pci_device_unmap_range(p->dev, (void *)p->base, p->map_size);
	free(p);
	pci_system_cleanup();
}

static const struct tool_bar_ops pci_ops = { pci_rd32, pci_wr32, pci_close };

struct pick_ctx {
	struct pci_device *dev;
	int n;
};

static int pick_one(struct pci_device *d, void *arg)
{
	struct pick_ctx *p = arg;

	if (!p->n++)
		p->dev = d;
	return 0;
}

static struct pci_device *find_card(const char *slot, const char **why)
{
	unsigned dom, bus, dev, fn;
	struct pci_device *d;
	struct pick_ctx pick = { NULL, 0 };

	if (slot) {
		if (slot_parse(slot, &dom, &bus, &dev, &fn)) {
			snprintf(why_buf, sizeof(why_buf), "bad slot '%s' (want DDDD:BB:DD.F or BB:DD.F)", slot);
			*why = why_buf;
			return NULL;
		}
		d = pci_device_find_by_slot(dom, bus, dev, fn);
		if (!d) {
			snprintf(why_buf, sizeof(why_buf), "no PCI device at %04x:%02x:%02x.%x", dom, bus, dev, fn);
			*why = why_buf;
			return NULL;
		}
		if (d->vendor_id != RNIC_PCI_VENDOR_ID || d->device_id != RNIC_PCI_DEVICE_ID) {
			snprintf(why_buf, sizeof(why_buf), "%04x:%02x:%02x.%x is %04x:%04x, not an rnic card (%04x:%04x)",
				 dom, bus, dev, fn, d->vendor_id, d->device_id, RNIC_PCI_VENDOR_ID, RNIC_PCI_DEVICE_ID);
			*why = why_buf;
			return NULL;
		}
		return d;
	}
	for_each_card(pick_one, &pick);
	if (pick.n == 1)
		return pick.dev;
	if (!pick.n)
		snprintf(why_buf, sizeof(why_buf), "no rnic card (%04x:%04x) found", RNIC_PCI_VENDOR_ID,
			 RNIC_PCI_DEVICE_ID);
	else
		snprintf(why_buf, sizeof(why_buf), "%d rnic cards found: choose one with -s SLOT (see 'rnic-tool list')",
			 pick.n);
	*why = why_buf;
	return NULL;
}

int tool_bar_open_pci(struct tool_bar **out, const char *slot, const char **why)
{
	struct pci_device *d;
	struct pci_bar *p;
	void *map = NULL;
	uint64_t size;
	int rc = pci_system_init();

	if (rc) {
		snprintf(why_buf, sizeof(why_buf), "cannot read the PCI bus: %s", strerror(rc));
		*why = why_buf;
		return -rc;
	}
	d = find_card(slot, why);
	if (!d) {
		pci_system_cleanup();
		return -ENODEV;
	}
	rc = pci_device_probe(d);
	size = d->regions[0].size;
	if (rc || !d->regions[0].base_addr || size < RNIC_SPEC_NUM_BLOCKS * RNIC_BAR0_BLOCK_STRIDE) {
		snprintf(why_buf, sizeof(why_buf), "%04x:%02x:%02x.%x: BAR0 missing or too small (%s)",
			 (unsigned)d->domain, d->bus, d->dev, d->func, rc ? strerror(rc) : "size");
		*why = why_buf;
		pci_system_cleanup();
		return -ENODEV;
	}
	if (size > RNIC_BAR0_SIZE)
		size = RNIC_BAR0_SIZE;
	rc = pci_device_map_range(d, d->regions[0].base_addr, size, PCI_DEV_MAP_FLAG_WRITABLE, &map);
	if (rc) {
		snprintf(why_buf, sizeof(why_buf), "%04x:%02x:%02x.%x: cannot map BAR0: %s%s", (unsigned)d->domain,
			 d->bus, d->dev, d->func, strerror(rc), rc == EACCES || rc == EPERM ? " (run as root)" : "");
		*why = why_buf;
		pci_system_cleanup();
		return -rc;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		pci_device_unmap_range(d, map, size);
		pci_system_cleanup();
		*why = "out of memory";
		return -ENOMEM;
	}
	p->bar.ops = &pci_ops;
	snprintf(p->bar.name, sizeof(p->bar.name), "%04x:%02x:%02x.%x", (unsigned)d->domain, d->bus, d->dev,
		 d->func);
	p->bar.size = (uint32_t)size;
	p->dev = d;
	p->base = map;
	p->map_size = size;
	*out = &p->bar;
	return 0;
}
