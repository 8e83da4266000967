/* MOCK_MMIO host build: the firmware's registers as an array, the writes it made, and checks. */
#ifndef MOCK_MMIO_H
#define MOCK_MMIO_H

#include <stdint.h>

#include "rnic_spec.h"

extern uint32_t regs[0x800];
extern uint32_t writes[64][2];
extern unsigned nwrites;
extern int mock_failed;
extern uint64_t mock_now; /* what hal_cycles() returns */
/* A doorbell (db_event word, value) into the doorbell ring on the window, or queued behind it
 * (the doorbell BAR's FIFO) while the ring is full. */
void mock_db_push(uint32_t ev, uint32_t value);
/* doorbells in the ring the firmware has not freed, and those queued behind it */
unsigned mock_db_pending(void);
#define MOCK_DB_POP_CYCLES 7u /* a store to dbr_cons advances mock_now by this */

void check(int ok, const char *name);

/* Host memory behind the mock DMA: bus addresses MOCK_HOST_BASE .. + MOCK_HOST_BYTES. */
#define MOCK_HOST_BASE 0x100000000ull
#define MOCK_HOST_BYTES (1u << 20)
extern uint8_t mock_host[MOCK_HOST_BYTES];
extern uint8_t mock_buf[4096];
extern unsigned mock_dma_reads; /* host-to-buffer transfers done */
/* BlueFlame capture (tightly coupled window): after this many more reads of its bf_data (0:
 * never), bf_status becomes
 * mock_bf_status_after, as if the host overtook the capture while the firmware read it. */
extern unsigned mock_bf_reads_left;
extern uint32_t mock_bf_status_after;
/* The firmware's Ethernet transmit buffer as it stood at each eth_tx_send (the last one). */
extern uint8_t mock_eth_tx[64];
extern uint32_t mock_eth_tx_len;
extern unsigned mock_eth_sent;

/* Every mailbox commit the firmware made: which mailbox (commit register), argument, data. */
struct mock_mbox_rec {
	uint32_t commit_off, arg;
	uint8_t data[128];
};
extern struct mock_mbox_rec mock_mbox[2048];
extern unsigned mock_nmbox;
/* Commits to this mailbox (commit register offset) since index from; returns the count. */
unsigned mock_mbox_count(uint32_t commit_off, unsigned from);
const struct mock_mbox_rec *mock_mbox_nth(uint32_t commit_off, unsigned from, unsigned n);

/* The tightly coupled window (the engines' page, then the descriptor mailboxes' page) and the
 * CQE writer behind it (records written out at once). */
#define MOCK_TC_WORDS (2u * RNIC_FW_TC_MBOX_PAGE / 4u)
extern uint32_t mock_tc[MOCK_TC_WORDS];
/* Puts one rx_event into the receive-event ring as the RTL does; 0 when the ring is full. */
int mock_evr_push(const uint8_t *ev);
extern unsigned mock_cqw_records; /* records turned into CQEs */
extern unsigned mock_cqw_holds;   /* records held because their CQ looked full */
extern unsigned mock_eq_notifies; /* EQ entries written (each notifies) */
extern unsigned mock_eq_failed;   /* EQ entry writes the bus refused */
/* 0: records go out at once; N: only at every Nth read of cqw_cons (a writer that lags) */
extern unsigned mock_cqw_lag;
extern unsigned mock_cqw_max_pending; /* most records ever handed over and not yet written */
/* The WQE fetch engine behind the window: commands done at once (each also counts in
 * mock_dma_reads); while mock_wqf_fail every fetch meets a bus error. */
extern unsigned mock_wqf_cmds, mock_wqf_fail, mock_wqf_rq_cmds; /* rq: into the receive region */
/* Doorbell-started fetches: the engine's ring state of each SQ as the firmware programmed it,
 * and the doorbell port (an sq_db or bf_db word of page as the doorbell BAR accepts it): records
 * made as the spec says, complete at once; mock_wqf_db_cmds counts the engine's own fetches. */
struct mock_sq { uint64_t base; uint32_t log, page, en, fidx; };
extern struct mock_sq mock_sq[];
extern unsigned mock_wqf_db_cmds, mock_wqf_db_on, mock_wqf_db_ext; /* ext: doorbells that extended the newest record */
void mock_wqf_db(uint32_t page, uint32_t value, int bf);
/* rq_db-started fetches likewise: each RQ's ring state (log: WQEs, lb: log2 WQEBBs per WQE),
 * mock_wqf_rdb() the rq_db word the doorbell BAR hands the engine; whole WQEs into the receive
 * doorbell region with a record (never extended); mock_wqf_rdb_cmds counts its fetches,
 * mock_wqf_rrec_n the records held. */
struct mock_rq { uint64_t base; uint32_t log, lb, page, en, fidx; };
extern struct mock_rq mock_rq[];
extern unsigned mock_wqf_rdb_cmds, mock_wqf_rdb_on, mock_wqf_rrec_n;
/* the engine's receive feed (wqf_rqf_*): off unless a test turns it on (before fw_xport_init) */
extern unsigned mock_rqf_on, mock_rqf_cmds, mock_rqf_handed;
/* the QP table's port held: a feed command hands at most this many, then yields (0: off) */
extern unsigned mock_rqf_hold_after, mock_rqf_yields;
void mock_wqf_rdb(uint32_t page, uint32_t value);
/* hw_caps.log2_qps, the configuration's QP count (default 128); read at fw_res_init */
extern unsigned mock_qp_log2;

/* The send-retirement engine (fw_tc srt_*; off for the firmware unless a test clears fw_srt_off
 * before fw_xport_init): the completion records it handed the CQE writer (also written into their
 * CQs), the events it raised (for the test to deliver as SR_BARRIER / SR_RESP_ERR), operations
 * done per sr_op; mock_srt_rec_busy: its record port busy (no free record). */
extern uint8_t mock_srt_cqr[256][RNIC_CQ_REC_SIZE];
extern uint8_t mock_srt_ev[64][RNIC_SR_EVENT_SIZE];
extern unsigned mock_srt_ncqr, mock_srt_nev, mock_srt_ops[16], mock_srt_rec_busy;
unsigned mock_srt_records(uint32_t qpn); /* records the engine holds for qpn */
int mock_srt_dropped(void);             /* a record or operation store was dropped */
void mock_srt_reset(void);
/* The receive-event fork: an enabled QP's ACK / NAK / RNR_NAK / READ_RESP_DONE / ATOMIC_ACK
 * into the engine as the RTL does; 1 when the event still goes to the firmware. */
int mock_srt_fork(const uint8_t *ev);
/* Record i the engine holds (its sr_rec words 0-5; *qpn its QP), 0 past the last. */
const uint32_t *mock_srt_rec_words(unsigned i, uint32_t *qpn);

/* The transmit builder (fw_tc txb_*, rtl/tx_build), on only with hw_caps.tx_build: commands
 * taken, their results (by txb_result), the last command's words, loads of txb_status answered
 * busy after each command, commands stored without hw_caps.tx_build. Its descriptors are transmit
 * commits with arg MOCK_TXB_ARG. */
#define MOCK_TXB_ARG 0x7B0u
extern unsigned mock_txb_cmds, mock_txb_busy_reads, mock_txb_unexpected, mock_txb_results[16];
extern unsigned mock_txb_run_counts[16]; /* commands by the WQEs their run covers (txb_cmd.more + 1) */
extern uint32_t mock_txb_cmd_words[4];
extern int mock_txb_free; /* >= 0: the engine's free records (sq_retire free_o) are this many */

#endif
