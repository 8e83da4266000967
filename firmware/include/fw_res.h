/* Firmware resource tables: protection domains, user contexts, GIDs, CQs, QPs, address
 * handles. Handles index the tables; 0 (and QPNs 0 and 1) are never handed out. */
#ifndef FW_RES_H
#define FW_RES_H

#include <stdint.h>

#include "hal.h"
#include "rnic_spec.h"

#define FW_MAX_PD 256u
#define FW_MAX_UCTX 512u
#define FW_NUM_GIDS 16u
#define FW_MAX_CQ 128u
/* The QP count is the configuration's (rnic_core NumQps, hw_caps.log2_qps), learnt at boot, so
 * one image serves every configuration. QPNs FW_FIRST_QPN .. FW_MAX_QP-1 exist; their state
 * (context, requester bookkeeping, atomic history, in-use flag) lives in the QP-context RAM
 * (fw_tc), carved by fw_res_init, not in DMEM: 1024 QPs x 256 bytes would not fit its 64 KiB. */
extern uint32_t fw_num_qp;
#define FW_MAX_QP fw_num_qp
/* Whole-table walks stop at the highest QPN handed out since boot, not at FW_MAX_QP: at 1024
 * QPs a walk of every entry costs ~5000 cycles, and the walks run per destroy command and when
 * timers expire or engines stall. */
#define FW_QP_SCAN_END fw_res.qp_hi
#define FW_QPC_ATOMIC_BYTES 64u /* per-QP atomic responder history (fw_atomic.c) */
#define FW_MAX_AH 64u
#define FW_FIRST_QPN 2u
#define FW_MAX_MR 512u   /* keys index 1..511 of the memory-key table */
#define FW_NUM_MTT 65536u /* translation entries of the memory-key table */

struct fw_gid {
	uint32_t ipv4;
	uint64_t mac;
	uint8_t valid;
};

struct fw_cq {
	uint64_t buf_addr;
	uint64_t dbrec_addr; /* the consumer's doorbell record (its consumer index) */
	uint32_t ci; /* consumer index as last read (doorbell record or cq_db); the CQE writer keeps
		      * the producer, its own consumer, arming and error */
	uint32_t uctx;
	uint8_t log_size;
	uint8_t eqn;
	uint8_t used;
	uint8_t overflow; /* the CQ is in error (overrun or a failed CQE write): CQ_ERROR was posted */
};


struct fw_ah {
	uint64_t dmac;
	uint32_t pdn;
	uint32_t dest_ipv4;
	uint8_t sgid_index, hop_limit, traffic_class, used;
};

struct fw_mr {
	uint32_t mtt_base, num_pages, pdn;
	uint8_t variant, used;
};

/* A send WQE handed to the transmit engine and not yet completed. */
struct fw_swqe {
	uint64_t wr_id;
	uint32_t first_psn, last_psn, len;
	uint16_t wqe_index;
	uint8_t opcode, signaled;
	uint8_t resp; /* READ / atomic: 1 + the status of its own response (DONE / ATOMIC_ACK), 0: none yet */
	int16_t next; /* next record of the same QP, -1 at the tail */
};

#define FW_MAX_SWQE 256u

/* inak_psn holds a PSN (24 bits) */
#define FW_INAK 0x80000000u

struct fw_qp_run {
	uint64_t deadline;  /* cycle at which the ACK timer (or the RNR wait) expires; 0: none */
	uint32_t rnr_psn;   /* with rnr_wait: where to resume */
	uint32_t rd_resume; /* PSN the last resumed READ restarted at (progress resets the retries) */
	int16_t head, tail; /* outstanding send WQEs, oldest first (-1: none) */
	uint8_t rq_posted;  /* receive buffers with the receive engine */
	uint8_t rd_n;       /* outstanding READs and atomics (max_rd_atomic limit) */
	uint8_t rnr_wait;   /* the deadline is an RNR wait, not an ACK timeout */
	uint8_t sq_stalled; /* WQEs wait for a busy engine mailbox or a free record: retried */
	uint8_t rq_stalled; /* a receive buffer waits for the busy receive-buffer mailbox: retried */
	uint8_t sq_skip;    /* an SQ WQE fetch failed: the flush skips WQEBBs that start no WQE */
	int16_t part1;      /* 1 + the record of the WQE at sq_next sent in part (segments, or a resend
			     * from its middle), 0: none; part_psn is the next of its PSNs to send */
	uint8_t hi_ok;      /* hi_psn is valid: PSNs before it were sent before (RETRANSMIT) */
	uint8_t part_nbb;   /* WQEBBs of the part-sent WQE */
	uint8_t wqf_en;     /* the WQE fetch engine has this SQ's ring state enabled (doorbell-started fetch) */
	uint8_t rqf_en : 1; /* ... and this RQ's (rq_db-started fetch) */
	/* the receive feed's grant mode (fw_rq_grant.c; bits of rqf_en's byte: the struct has no
	 * byte to spare in the QP-context RAM's entry) */
	uint8_t rqg : 1;      /* the engine feeds this RQ (its grant enabled); rq_posted is then its own */
	uint8_t rqg_hold : 1; /* the firmware feeds the QP until it handed or completed the WQE the
			       * engine stopped at (the first its refill meets) */
	union {
		uint32_t ack_at;  /* low mcycle word | 1 of the last progress (an ACK, or a WQE sent with none
				   * outstanding) since the ACK timer was armed, 0: none; the timer's expiry
				   * moves the deadline to it + the timeout (fw_sq_timer.c) */
		uint32_t tmr_una; /* a QP of the send-retirement engine (its ACKs do not reach the
				   * firmware): una when the timer was armed; moved at expiry is progress */
	};
	uint32_t rd_seen;   /* next response PSN of the oldest READ at the last ACK timeout */
	uint32_t part_psn;
	uint32_t una;       /* oldest PSN not acknowledged (valid while head >= 0) */
	uint32_t hi_psn;
	uint32_t inak_psn;  /* FW_INAK | first PSN of the READ/atomic a plain ACK's implicit NAK
			     * re-issued, 0: none */
};

struct fw_res {
	uint8_t pd_used[FW_MAX_PD];
	uint8_t uctx_used[FW_MAX_UCTX];
	struct fw_gid gids[FW_NUM_GIDS];
	struct fw_cq cqs[FW_MAX_CQ];
	struct fw_ah ahs[FW_MAX_AH];
	/* per QP, in the QP-context RAM: arrays of FW_MAX_QP entries */
	uint8_t *qp_used;
	uint8_t (*qp_ctx)[RNIC_QP_CTX_SIZE]; /* spec layout qp_ctx, 8-byte aligned */
	struct fw_qp_run *qp_run;
	void *qp_atomic; /* FW_QPC_ATOMIC_BYTES each */
	uint32_t qp_free_hint; /* no QPN below it is free */
	uint32_t qp_hi; /* one past the highest QPN handed out since boot: none in use at or above */
	struct fw_mr mrs[FW_MAX_MR];
	struct fw_swqe swqe[FW_MAX_SWQE];
	int16_t swqe_free; /* free list through next */
};

extern struct fw_res fw_res;
/* A QP this core serves: in use, and so its own (docs/decisions/multi-core.md). Each core's
 * in-use flags live in its own QP-context RAM and are set by the owner alone at CREATE_QP, so the
 * data path's scans over QPs (stalled engines, timers, waiting READs) need no other ownership
 * test (fw_owns_qp, fw_core.h, is the rule the command path applies). */
static inline int fw_qp_mine(uint32_t qpn) { return fw_res.qp_used[qpn]; }

/* Once at boot, on the zeroed tables: learns the QP count, carves and zeroes the QP-context
 * RAM. */
void fw_res_init(void);
/* Command handlers: each validates its arguments, updates the tables, writes its outputs into
 * the entry and returns a cmd_status. */
uint32_t fw_cmd_create_cq(uint8_t *e);
uint32_t fw_cmd_destroy_cq(uint8_t *e);
uint32_t fw_cmd_create_qp(uint8_t *e);
uint32_t fw_cmd_modify_qp(uint8_t *e);
uint32_t fw_cmd_query_qp(uint8_t *e);
uint32_t fw_cmd_destroy_qp(uint8_t *e);
uint32_t fw_cmd_create_ah(uint8_t *e);
uint32_t fw_cmd_destroy_ah(uint8_t *e);
uint32_t fw_cmd_reg_mr(uint8_t *e);
uint32_t fw_cmd_dereg_mr(uint8_t *e);
int fw_pd_has_mr(uint32_t pdn);
int fw_pd_has_ah(uint32_t pdn);
/* Whether a CQ or QP still belongs to user context u (it cannot be freed then). */
int fw_uctx_in_use(uint32_t u);
uint32_t fw_cmd_query_resources(uint8_t *e);
/* Whether a PD / CQ is referenced by a live QP (it cannot be destroyed then). */
int fw_pd_in_use(uint32_t pdn);
/* The QP-state transition rules of IBTA (verbs modify_qp): 1 when moving from cur to next with
 * exactly the attributes in mask (bits of enum qp_attr) is allowed for this QP type. */
int fw_qp_transition_ok(uint32_t qp_type, uint32_t cur, uint32_t next, uint32_t mask);
/* The RTL's fast-path entry for qpn, from its context (spec layout qpt_entry). */
void fw_qpt_build(uint32_t qpn, uint8_t *entry);

#endif /* FW_RES_H */
