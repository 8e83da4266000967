/* Test firmware of suite fw_subsys (tb/fw_subsys): one image that every core of rnic_fw_subsys
 * runs. Each core reads its mhartid and hw_caps, asks the READ progress query 16 times (both
 * cores at once: their reads of the result meet at the query's arbiter) and hands all of it in a
 * hello descriptor to the transmit mailbox; then it forwards every receive event of its ring (events are routed to it by QPN) as
 * one descriptor on each of the transmit, receive-buffer and READ mailboxes, and every doorbell of
 * its doorbell mailbox as one QP-table entry (with one READ query's answer), each stamped with its hart id and a sequence number,
 * so the testbench sees on the engine ports which core handled what, and in which order.
 * Marker words at DMEM 0x8000 (per core: each core has its own DMEM) for the window's reads.
 * Reset entry: the product's firmware/runtime/crt0.S. */
#include <stdint.h>

#include "rnic_spec.h"

__attribute__((section(".fw_header"), used)) static const uint32_t fw_header[RNIC_FW_IMAGE_HDR_SIZE / 4] = {
	RNIC_FW_IMAGE_MAGIC,
	0x00000001u,
};

#define MMIO(off) (*(volatile uint32_t *)(uintptr_t)(RNIC_FW_MMIO_BASE + (off)))
#define TC(off) (*(volatile uint32_t *)(uintptr_t)(RNIC_FW_TC_BASE + (off)))
#define MARK ((volatile uint32_t *)(uintptr_t)(RNIC_FW_DMEM_BASE + 0x8000u))

int main(void);
/* firmware/runtime/crt0.S (the product's reset entry: gp, stack, .bss, trap vector) calls it on
 * any trap: the core parks with the cause in its first marker word */
void fw_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval) __attribute__((noreturn));

void fw_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	(void)mepc;
	(void)mtval;
	MARK[0] = 0xDEAD0000u | (mcause & 0xFFFFu);
	for (;;)
		;
}

static uint32_t hart_id(void)
{
	uint32_t h;
	__asm__ volatile("csrr %0, mhartid" : "=r"(h));
	return h;
}

/* one descriptor: data words, then the commit once the previous one was taken (a commit while
 * one is offered would be dropped) */
static uint32_t rdq(uint32_t qpn, uint32_t psn)
{
	MMIO(RNIC_FW_REG_RDQ_QPN) = qpn;
	MMIO(RNIC_FW_REG_RDQ_PSN) = psn;
	return MMIO(RNIC_FW_REG_RDQ_RESULT);
}

static void put_desc(uint32_t data, uint32_t commit, uint32_t status, const uint32_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		TC(data + 4 * i) = w[i];
	while (TC(status) & RNIC_MBOX_STATUS_BUSY_MASK)
		;
	TC(commit) = 0;
}

int main(void)
{
	uint32_t h = hart_id(), d[32], cons = 0, seq = 0, dbseq = 0, dcons = 0;
	d[0] = 0x48454C4Fu; /* 'HELO' */
	d[1] = h;
	d[2] = MMIO(RNIC_FW_REG_HW_CAPS);
	for (unsigned i = 0; i < 16; i++)
		d[3 + i] = rdq(h << 20 | i * 7u, i * 13u + h);
	for (unsigned i = 19; i < 32; i++)
		d[i] = h << 24 | i;
	MARK[0] = 0xC0DE0000u | h;
	put_desc(RNIC_FW_TC_TXD_DATA, RNIC_FW_TC_TXD_COMMIT, RNIC_FW_TC_TXD_STATUS, d, 32);
	for (;;) {
		uint32_t prod = TC(RNIC_FW_TC_EVR_PROD) & ((1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u);
		if (prod != cons) {
			const volatile uint32_t *ev = (const volatile uint32_t *)(uintptr_t)(
				RNIC_FW_TC_BASE + RNIC_FW_TC_EVR_BASE + (cons % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE);
			for (unsigned i = 0; i < RNIC_RX_EVENT_SIZE / 4; i++)
				d[i] = ev[i];
			cons = (cons + 1) & ((1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u);
			TC(RNIC_FW_TC_EVR_CONS) = cons;
			d[16] = h;
			d[17] = seq++;
			for (unsigned i = 18; i < 32; i++)
				d[i] = ~d[i - 18];
			put_desc(RNIC_FW_TC_TXD_DATA, RNIC_FW_TC_TXD_COMMIT, RNIC_FW_TC_TXD_STATUS, d, 32);
			put_desc(RNIC_FW_TC_RQD_DATA, RNIC_FW_TC_RQD_COMMIT, RNIC_FW_TC_RQD_STATUS, d, 20);
			put_desc(RNIC_FW_TC_RDD_DATA, RNIC_FW_TC_RDD_COMMIT, RNIC_FW_TC_RDD_STATUS, d, 20);
			MARK[1] = seq;
		}
		if (TC(RNIC_FW_TC_DBR_PROD) != dcons) { /* this core's doorbell ring */
			uint32_t slot = RNIC_FW_TC_DBR_BASE + (dcons % RNIC_FW_TC_DBR_NUM) * 8u;
			uint32_t e = TC(slot), v = TC(slot + 4);
			dcons = (dcons + 1) & ((1u << RNIC_FW_TC_DBR_COUNT_BITS) - 1u);
			TC(RNIC_FW_TC_DBR_CONS) = dcons;
			for (unsigned i = 0; i < 16; i++)
				MMIO(RNIC_FW_REG_QPT_DATA + 4 * i) = i == 0 ? e : i == 1 ? v : i == 2 ? h : e ^ v ^ i;
			MMIO(RNIC_FW_REG_QPT_DATA + 12) = rdq(v & 0xFFFFFFu, e & 0xFFFFFFu);
			while (MMIO(RNIC_FW_REG_QPT_STATUS) & RNIC_MBOX_STATUS_BUSY_MASK)
				;
			MMIO(RNIC_FW_REG_QPT_COMMIT) = h << 24 | dbseq++;
			MARK[2] = dbseq;
		}
	}
}
