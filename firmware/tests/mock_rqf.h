/* The mock WQE fetch engine's grant mode (rtl/wqe_fetch "Grant mode", spec fw_tc rqf_*,
 * wqf_db_ctl bit 2), hooked into mock_mmio.c: per QP a limit and enable, a feed position and
 * stopped flag, the producer index of its last rq_db; the head-record rule (hand, remove,
 * remove and rewind the fetch index, stop; at the limit the record kept until a grant or another
 * QP needs the head), the re-evaluation queue, the fetch of an rq_db cut to the grant plus
 * fw_tc.rqf_ahead_bbs while the QP is alone in the region, the stop register, the read-back, the
 * lost rq_db, the firmware's producer index (rqf_pi). */
#ifndef MOCK_RQF_H
#define MOCK_RQF_H

#include <stdint.h>

/* rqf_status.present (0: an engine without the grant mode; a test sets it before fw_xport_init) */
extern unsigned mock_rqg_on;
/* the engine's work (record passes, re-evaluations) waits while this is set: it runs at the
 * firmware's next load otherwise (the RTL's engine runs a few cycles after a store) */
extern unsigned mock_rqg_hold;
/* the next N grant-mode rq_dbs find the doorbell FIFO full (lost, rqf_status.lost) */
extern unsigned mock_rqg_fifo_full;
/* loads of rqf_pos after a select that read not valid, then busy (the engine still on the QP) */
extern unsigned mock_rqg_pos_lag, mock_rqg_pos_busy;
/* what the engine did: WQEs handed, records removed (passed, of a QP not fed), removed with the
 * fetch index moved back (ahead of the feed or at the limit), stops, re-evaluations served, rq_dbs
 * lost, rq_dbs taken, rqf_pos loads */
extern unsigned mock_rqg_handed, mock_rqg_removed, mock_rqg_rewound, mock_rqg_stops, mock_rqg_reevals,
	mock_rqg_lost, mock_rqg_dbs, mock_rqg_pos_loads;
/* passes that found the head record's QP at its limit and kept the record (fetched ahead) */
extern unsigned mock_rqg_holds;
/* rqf_pi stores (the firmware's checked producer index) */
extern unsigned mock_rqg_pi_stores;
/* rqf_grant stores (en or not) since mock_rqg_reset, the first MOCK_RQG_GRANT_LOG of them as stored */
#define MOCK_RQG_GRANT_LOG 256u
extern unsigned mock_rqg_grants;
extern uint32_t mock_rqg_grant_log[MOCK_RQG_GRANT_LOG];
/* protocol violations by the firmware (each also named on stderr): a record popped or a feed
 * command in grant mode, an rq_desc committed for a QP whose grant is enabled, rqf_feed while the
 * grant is enabled, the mode turned on before every QP's grant was written, a WQE handed past the
 * limit, the engine spinning */
extern unsigned mock_rqg_violations;
/* the engine's per-QP state as the RTL keeps it */
struct mock_rqg_qp {
	uint32_t en, limit, feed, stopped, pi, written;
};
extern struct mock_rqg_qp mock_rqg_qp[];
extern unsigned mock_rqg_mode; /* wqf_db_ctl bit 2 */

/* Runs the engine until it can do no more (a test's point of synchronisation). */
void mock_rqg_run(void);
/* Everything back to power-up (the per-QP RAMs keep garbage there: a test may set some first). */
void mock_rqg_reset(void);

/* mock_mmio.c's hooks: a load of the window (1: it was the engine's register, *v its value),
 * a store, an rq_db of the doorbell BAR (1: taken in grant mode, else the plain model's). */
int mock_rqg_load(uint32_t off, uint32_t *v);
void mock_rqg_store(uint32_t off, uint32_t v);
int mock_rqg_rdb(uint32_t page, uint32_t value);
/* mock_mmio.c's fetch of k WQEs of an RQ into the receive doorbell region, with their record */
void mock_wqf_rq_fetch(uint32_t qpn, uint32_t k);
/* mock_mmio.c's rq_desc built from an RQ WQE into the mailbox model */
void mock_rq_desc_post(uint32_t qpn, const uint8_t *w, uint32_t ns);

#endif
