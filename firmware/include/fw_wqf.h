/* The WQE fetch engine (rtl/wqe_fetch, spec fw_tc wqf_*): the firmware names host WQEBBs and a
 * buffer slot, the engine DMA-reads them into its buffer on the tightly coupled window, where
 * the firmware reads them with one-cycle loads. Commands complete in order. */
#ifndef FW_WQF_H
#define FW_WQF_H

#include <stdint.h>

#include "rnic_spec.h"

#define FW_WQF_BBS RNIC_FW_TC_WQF_BUF_BBS /* WQEBB slots in the buffer */
/* tightly coupled address of buffer slot s (mod FW_WQF_BBS) */
#define FW_WQF_SLOT(s) (RNIC_FW_TC_WQF_BUF_BASE + ((s) % FW_WQF_BBS) * RNIC_WQEBB_BYTES)

/* Queues a fetch of bbs (1..FW_WQF_BBS) WQEBBs from host address addr into the buffer from slot
 * on (waiting while the engine's command queue is full); returns the command's number. */
uint32_t fw_wqf_issue(uint64_t addr, uint32_t bbs, uint32_t slot);
/* The receive region (wqf_cmd.rq, spec fw_tc wqf_rq_buf_*): the receive queues' WQEs, so that
 * they never overwrite the WQEBBs the send side keeps staged. Slot s at FW_WQF_RQ_SLOT(s). */
#define FW_WQF_RQ_BBS RNIC_FW_TC_WQF_RQ_BUF_BBS
#define FW_WQF_RQ_SLOT(s) (RNIC_FW_TC_WQF_RQ_BUF_BASE + ((s) % FW_WQF_RQ_BBS) * RNIC_WQEBB_BYTES)
/* As fw_wqf_issue, into the receive region (bbs 1..FW_WQF_RQ_BBS); the same command numbers. */
uint32_t fw_wqf_issue_rq(uint64_t addr, uint32_t bbs, uint32_t slot);
/* Waits until command last has completed: 0 if none of the commands first..last met a bus
 * error, -1 if one did or the engine never completed it (the slots then hold no WQEBBs). */
int fw_wqf_wait(uint32_t first, uint32_t last);

/* Doorbell-started fetches (spec fw_tc wqf_sq_*, wqf_dbr_*, wqf_db_ctl): given an SQ's ring state,
 * the engine starts the fetch of the WQEBBs an sq_db announces as the doorbell arrives, into its
 * doorbell region, and leaves a record (QP, first SQ index, count, slot, done, error); the
 * firmware takes the records in order. */
#define FW_WQF_DB_BBS RNIC_FW_TC_WQF_DB_BUF_BBS
#define FW_WQF_DB_SLOT(s) (RNIC_FW_TC_WQF_DB_BUF_BASE + ((s) % FW_WQF_DB_BBS) * 64u)
/* Every ring-state entry (nqps) disabled, the records dropped, then the engine's doorbell port on:
 * at boot (the RAM holds no defined value after power-up; a reloaded image starts over). */
void fw_wqf_db_init(uint32_t nqps);
/* The engine's ring state of SQ qpn: ring at base (64-byte aligned), 2^log_size WQEBBs, its
 * doorbell page, enabled or not, fetch index fidx (the next WQEBB it may fetch). */
void fw_wqf_sq_program(uint32_t qpn, uint64_t base, uint32_t log_size, uint32_t page, int en, uint32_t fidx);
/* Only the fetch index: the firmware fetched up to fidx (excluded) itself. */
void fw_wqf_sq_fidx(uint32_t qpn, uint32_t fidx);
/* The oldest record: 0 when there is none, else its info word (layout wqf_dbr_info) with *qidx
 * (layout wqf_sq_qidx) set. */
uint32_t fw_wqf_dbr_head(uint32_t *qidx);
/* Removes the oldest record (its doorbell-region slots are free again). */
void fw_wqf_dbr_pop(void);
/* Waits until the oldest record's fetch completed: 0, or -1 (a bus error, or never completed). */
int fw_wqf_dbr_wait(void);
/* Drops every record (a QP's ring state stopped being valid: its records may be stale). */
void fw_wqf_dbr_drop_all(void);

/* RQ doorbells the same way (spec fw_tc wqf_rq_*, wqf_rqr_*, wqf_db_ctl bit 1): given an RQ's ring
 * state, an rq_db starts the fetch of the whole WQEs it announced into the receive doorbell region,
 * with a record in a FIFO of its own (QP, first RQ index, WQEBBs, slot, done, error). */
#define FW_WQF_RDB_BBS RNIC_FW_TC_WQF_RDB_BUF_BBS
#define FW_WQF_RDB_SLOT(s) (RNIC_FW_TC_WQF_RDB_BUF_BASE + ((s) % FW_WQF_RDB_BBS) * RNIC_WQEBB_BYTES)
/* The engine's ring state of RQ qpn: ring at base (64-byte aligned), 2^log_size WQEs of 2^log_bbs
 * WQEBBs each, its doorbell page, enabled or not, fetch index fidx (the next WQE it may fetch). */
void fw_wqf_rq_program(uint32_t qpn, uint64_t base, uint32_t log_size, uint32_t log_bbs, uint32_t page, int en,
		       uint32_t fidx);
/* Only the fetch index: the firmware fetched up to fidx (excluded) itself. */
void fw_wqf_rq_fidx(uint32_t qpn, uint32_t fidx);
/* The oldest RQ record: 0 when there is none, else its info word (layout wqf_dbr_info) with *qidx
 * (layout wqf_sq_qidx) set. */
uint32_t fw_wqf_rqr_head(uint32_t *qidx);
/* Removes the oldest RQ record (its slots are free again). */
void fw_wqf_rqr_pop(void);
/* Waits until the oldest RQ record's fetch completed: 0, or -1 (a bus error, or never completed). */
int fw_wqf_rqr_wait(void);
/* Drops every RQ record. */
void fw_wqf_rqr_drop_all(void);
/* The engine has the receive feed (fw_tc wqf_rqf_status.present; found by fw_wqf_db_init). */
extern uint8_t fw_wqf_rqf;
/* The receive feed: hands RQ qpn's WQEs from ring position pos on, at most count (2^log_bbs WQEBBs
 * each, at most sge_max SGEs), from the engine's RQ records to the receive engine as rq_descs, in
 * order, with the record rules of fw_rq.c's rq_rec_take; waits for it and returns its status word
 * (layout wqf_rqf_status: handed, stop). No RQ record pop and no rq_desc commit meanwhile. */
uint32_t fw_wqf_rq_feed(uint32_t qpn, uint32_t pos, uint32_t count, uint32_t log_bbs, uint32_t sge_max);
/* The engine has the grant mode (fw_tc rqf_status.present; found and turned on by fw_wqf_db_init):
 * it hands RQ WQEs from its records to the receive engine by itself, below a limit per QP the
 * firmware grants (fw_rq_grant.c). It owns the RQ records then: no wqf_rqr_pop, no wqf_rqf_cmd. */
extern uint8_t fw_wqf_rqg;
/* wqf_db_ctl as fw_wqf_db_init leaves it (a store of it also clears rqf_status.lost) */
#define FW_WQF_DB_CTL_ON (fw_wqf_rqg ? 7u : 3u)

#endif /* FW_WQF_H */
