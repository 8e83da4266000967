/* The guest transport between the kernel module (rnic_ivshmem.c) and the simulator's front-end
 * (sim/ivshmem/): written once, included by both. QEMU's ivshmem-doorbell device gives the guest
 * a shared-memory BAR (BAR2), a doorbell register that signals an eventfd of another peer, and
 * MSI-X vectors that other peers raise through eventfds. Plain shared memory does not trap, so
 * BAR0 register accesses of the simulated NIC travel as requests in a mailbox at the start of
 * BAR2: the guest fills op/addr/data, then req_seq, then rings the simulator's peer (vector 0);
 * the simulator performs the access on the NIC's AXI-Lite port in simulated time, writes
 * rsp_data/rsp_status, then rsp_seq = req_seq. One request is outstanding at a time.
 * Writes and kernel doorbells are posted, as on PCIe: they go into a ring (struct rnic_ivs_pw)
 * and the guest does not wait for them; the simulator performs every posted entry before the
 * next request of the mailbox, so a read after writes sees them done (PCIe's ordering).
 * DMA needs nothing here: guest RAM is a shared memory-backend-file the simulator maps, so a DMA
 * address is a guest-physical address. MSI-X vector v of the NIC raises ivshmem vector v. */
#ifndef RNIC_IVSHMEM_PROTO_H
#define RNIC_IVSHMEM_PROTO_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#define RNIC_IVS_PCI_VENDOR 0x1AF4u	/* QEMU's ivshmem (Red Hat, Inc.) */
#define RNIC_IVS_PCI_DEVICE 0x1110u
#define RNIC_IVS_MAGIC 0x5649524Eu	/* "NRIV" little-endian: the simulator answers here */
#define RNIC_IVS_VERSION 2u

/* ivshmem-doorbell BAR0 registers (QEMU docs/specs/ivshmem-spec.txt) */
#define RNIC_IVS_REG_IVPOSITION 0x08u	/* this guest's peer ID */
#define RNIC_IVS_REG_DOORBELL 0x0Cu	/* write (peer << 16) | vector */

enum rnic_ivs_op {
	RNIC_IVS_OP_READ = 1,	/* 32-bit BAR0 read at addr */
	RNIC_IVS_OP_WRITE = 2,	/* 32-bit BAR0 write of data at addr */
	RNIC_IVS_OP_DB = 3,	/* doorbell write: addr is the offset in the doorbell space */
};

/* rsp_status: the AXI response (0 OKAY, 2 SLVERR, 3 DECERR). */

/* At offset 0 of the shared memory; 64 bytes, every field little-endian. */
struct rnic_ivs_mbox {
	uint32_t magic;		/* simulator: RNIC_IVS_MAGIC once it serves requests */
	uint32_t version;	/* simulator: RNIC_IVS_VERSION */
	uint32_t sim_peer;	/* simulator: the peer ID the guest's doorbell writes name */
	uint32_t vectors;	/* simulator: MSI-X vectors it forwards */
	uint64_t ram_bytes;	/* simulator: guest-physical bytes its DMA can reach from 0 */
	uint32_t req_seq;	/* guest: bumped after req_op/addr/data are written */
	uint32_t req_op;	/* enum rnic_ivs_op */
	uint32_t req_addr;
	uint32_t req_data;
	uint32_t rsp_seq;	/* simulator: set to req_seq after rsp_data/rsp_status */
	uint32_t rsp_data;
	uint32_t rsp_status;
	uint32_t reserved[3];
};

#define RNIC_IVS_MBOX_OFF 0u
#define RNIC_IVS_MBOX_BYTES 64u

/* Posted writes: op is RNIC_IVS_OP_WRITE or RNIC_IVS_OP_DB, as in the mailbox. The guest
 * writes entry prod % RNIC_IVS_PW_ENTRIES, then bumps prod (free-running); the simulator
 * performs entries up to the prod it read, then sets cons. The guest waits only when the ring
 * is full, and rings the simulator's doorbell when it posts into an empty ring (it may sleep).
 * AXI errors of posted writes are counted by the simulator, not returned (a posted write has
 * no completion). */
struct rnic_ivs_pw_entry {
	uint32_t op;
	uint32_t addr;
	uint32_t data;
	uint32_t reserved;
};

#define RNIC_IVS_PW_ENTRIES 1024u

struct rnic_ivs_pw {
	uint32_t prod;		/* guest */
	uint32_t cons;		/* simulator */
	uint32_t reserved[14];
	struct rnic_ivs_pw_entry e[RNIC_IVS_PW_ENTRIES];
};

#define RNIC_IVS_PW_OFF 0x1000u	/* below RNIC_IVS_DB_OFF */

/* User context u's doorbell page (the layout of the spec's doorbell_page) is the 4 KiB at
 * RNIC_IVS_DB_OFF + u * 4096 of the shared memory, mmapped into the process that owns u.
 * Stores to it do not trap: the simulator compares the doorbell words of every page with what
 * it last delivered and delivers a changed one. A doorbell value carries the queue number and
 * the new producer index, so the last value written is enough for one queue; two queues of a
 * context ringing the same word between two looks of the simulator lose the first (a QP's next
 * doorbell recovers it). */
#define RNIC_IVS_DB_OFF 0x10000u

#endif /* RNIC_IVSHMEM_PROTO_H */
