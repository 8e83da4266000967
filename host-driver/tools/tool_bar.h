/* BAR0 access for rnic-tool: one small interface, two implementations (a card's BAR0 mapped
 * through libpciaccess, a simulated NIC reached over the simulator service's socket). The
 * commands see only this, through the driver core's struct rnic_os. */
#ifndef TOOL_BAR_H
#define TOOL_BAR_H

#include <stddef.h>
#include <stdint.h>

struct tool_bar;

struct tool_bar_ops {
	uint32_t (*rd32)(struct tool_bar *bar, uint32_t off);
	void (*wr32)(struct tool_bar *bar, uint32_t off, uint32_t val);
	void (*close)(struct tool_bar *bar);
};

struct tool_bar {
	const struct tool_bar_ops *ops;
	char name[96];		/* "0000:03:00.0" or "rnic0 (sim /path)", for messages */
	uint32_t size;		/* bytes of BAR0 that can be reached */
	unsigned errors;	/* accesses the device answered with an error (SLVERR) */
	unsigned writes;	/* accesses of each kind, for tests and messages */
	unsigned reads;
};

/* One card found on the PCI bus. */
struct tool_pci_card {
	char slot[16];		/* DDDD:BB:DD.F */
	uint16_t vendor_id, device_id, subvendor_id, subdevice_id;
	uint64_t bar0_addr, bar0_size;
};

/* Every card with the spec's vendor and device ID, in bus order: the count (at most max
 * stored), or a negative errno when the PCI system cannot be read. */
int tool_pci_list(struct tool_pci_card *cards, int max);

/* Maps BAR0 of the card at slot (NULL: the only card). 0 or a negative errno; *why says what
 * went wrong in words. */
int tool_bar_open_pci(struct tool_bar **bar, const char *slot, const char **why);

/* Connects to the simulator service at path and asks for raw BAR0 access to NIC ibdev
 * ("rnic0"). On success *num_nics (may be NULL) is how many NICs the simulator runs. */
int tool_bar_open_sim(struct tool_bar **bar, const char *path, const char *ibdev, unsigned *num_nics,
		      const char **why);

void tool_bar_close(struct tool_bar *bar);

/* Called when the transport itself fails (the simulator went away): prints and exits, since no
 * command can go on without its device. */
void tool_bar_fatal(const struct tool_bar *bar, const char *what, int err);

#endif /* TOOL_BAR_H */
