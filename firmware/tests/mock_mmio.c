#include "mock_mmio.h"
#include "mock_rqf.h"

#include <stdio.h>
#include <string.h>

#include "hal.h"
#include "../app/fw_sq_srt.h"
#include "../../tb/tx_build/txb_ref.h"

uint32_t regs[0x800];
uint32_t writes[64][2];
unsigned nwrites;
int mock_failed;
uint8_t mock_host[MOCK_HOST_BYTES];
uint8_t mock_buf[4096];
struct mock_mbox_rec mock_mbox[2048]; /* every commit of a test program (full: later ones are not recorded) */
unsigned mock_nmbox;

#define BUF_OFF (RNIC_FW_DMA_BUF_BASE - RNIC_FW_MMIO_BASE)

unsigned mock_bf_reads_left;
uint8_t mock_eth_tx[RNIC_FW_ETH_SLOT_BYTES];
uint32_t mock_eth_tx_len;
unsigned mock_eth_sent;
uint32_t mock_bf_status_after;
_Alignas(8) uint8_t mock_qpc[RNIC_MAX_NUM_QPS * RNIC_FW_TC_QPC_ENTRY_BYTES];
unsigned mock_qp_log2 = 7;

uint32_t mock_mmio_rd32(uint32_t off)
{
	if (off >= BUF_OFF && off < BUF_OFF + sizeof(mock_buf))
		return (uint32_t)rnic_ld_le(mock_buf + off - BUF_OFF, 4);
	/* the QP count is the configuration's, a constant of the hardware, not a test's register */
	if (off == RNIC_FW_REG_HW_CAPS)
		return (regs[off / 4] & ~RNIC_HW_CAPS_LOG2_QPS_MASK) | rnic_hw_caps_mk_log2_qps(mock_qp_log2);
	return regs[(off / 4) % 0x800];
}

/* The DMA block: copies at once, an address outside the mock host memory is a bus error. */
static void mock_dma(uint32_t ctrl)
{
	uint64_t host = (uint64_t)regs[RNIC_FW_REG_DMA_HOST_HI / 4] << 32 | regs[RNIC_FW_REG_DMA_HOST_LO / 4];
	uint32_t boff = regs[RNIC_FW_REG_DMA_BUF_OFF / 4], len = regs[RNIC_FW_REG_DMA_LEN / 4];
	int bad = len == 0 || (boff & 63) || boff + len > sizeof(mock_buf) || host < MOCK_HOST_BASE ||
		  host + len > MOCK_HOST_BASE + MOCK_HOST_BYTES;
	regs[RNIC_FW_REG_DMA_STATUS / 4] = bad ? 2u : 0u;
	if (bad)
		return;
	if (ctrl & 2) {
		memcpy(mock_host + (host - MOCK_HOST_BASE), mock_buf + boff, len);
	} else {
		memcpy(mock_buf + boff, mock_host + (host - MOCK_HOST_BASE), len);
		mock_dma_reads++;
	}
}

/* A commit of a mailbox whose data words are at data_off of src (the MMIO registers or the
 * tightly coupled window). */
static void mock_commit(uint32_t commit_off, const uint32_t *src, uint32_t data_off, uint32_t words, uint32_t arg)
{
	if (mock_nmbox == sizeof(mock_mbox) / sizeof(mock_mbox[0]))
		return;
	struct mock_mbox_rec *r = &mock_mbox[mock_nmbox++];
	r->commit_off = commit_off;
	r->arg = arg;
	for (uint32_t w = 0; w < words; w++)
		rnic_st_le(r->data + 4 * w, 4, src[data_off / 4 + w]);
}

/* The doorbell ring (rtl/core/rnic_fw_dbring) as the RTL fills it: each doorbell into slot
 * dbr_prod mod dbr_num of the window, then dbr_prod counts it; while the ring is full the
 * doorbells wait in the doorbell BAR's FIFO (mock_dbq) and go in as the firmware frees slots
 * (its dbr_cons store). */
static uint32_t mock_dbq[32][2];
static unsigned mock_dbq_rd, mock_dbq_n;
#define MOCK_DBR_MASK ((1u << RNIC_FW_TC_DBR_COUNT_BITS) - 1u)

static void mock_db_next(void)
{
	for (;;) {
		uint32_t prod = mock_tc[RNIC_FW_TC_DBR_PROD / 4], cons = mock_tc[RNIC_FW_TC_DBR_CONS / 4];
		if (!mock_dbq_n || ((prod - cons) & MOCK_DBR_MASK) == RNIC_FW_TC_DBR_NUM)
			return;
		uint32_t slot = RNIC_FW_TC_DBR_BASE / 4 + 2u * (prod % RNIC_FW_TC_DBR_NUM);
		mock_tc[slot] = mock_dbq[mock_dbq_rd][0];
		mock_tc[slot + 1] = mock_dbq[mock_dbq_rd][1];
		mock_tc[RNIC_FW_TC_DBR_PROD / 4] = (prod + 1) & MOCK_DBR_MASK;
		mock_dbq_rd = (mock_dbq_rd + 1) % 32;
		mock_dbq_n--;
	}
}

void mock_db_push(uint32_t ev, uint32_t value)
{
	if (mock_dbq_n == 32)
		return;
	mock_dbq[(mock_dbq_rd + mock_dbq_n++) % 32][0] = ev;
	mock_dbq[(mock_dbq_rd + mock_dbq_n - 1) % 32][1] = value;
	mock_db_next();
}

unsigned mock_db_pending(void)
{
	return ((mock_tc[RNIC_FW_TC_DBR_PROD / 4] - mock_tc[RNIC_FW_TC_DBR_CONS / 4]) & MOCK_DBR_MASK) + mock_dbq_n;
}

void mock_mmio_wr32(uint32_t off, uint32_t v)
{
	if (off >= BUF_OFF && off < BUF_OFF + sizeof(mock_buf)) {
		rnic_st_le(mock_buf + off - BUF_OFF, 4, v);
		return;
	}
	regs[(off / 4) % 0x800] = v;
	if (nwrites < 64)
		writes[nwrites][0] = off, writes[nwrites][1] = v;
	nwrites++;
	switch (off) {
	case RNIC_FW_REG_DMA_CTRL:
		if (v & 1)
			mock_dma(v);
		break;
	case RNIC_FW_REG_MKEY_COMMIT: mock_commit(off, regs, RNIC_FW_REG_MKEY_DATA, RNIC_MPT_ENTRY_SIZE / 4, v); break;
	case RNIC_FW_REG_QPT_COMMIT: mock_commit(off, regs, RNIC_FW_REG_QPT_DATA, RNIC_QPT_ENTRY_SIZE / 4, v); break;
	case RNIC_FW_REG_ETH_RX_POP: regs[RNIC_FW_REG_ETH_RX_STATUS / 4] = 0; break;
	case RNIC_FW_REG_ETH_TX_SEND: /* the frame leaves at once: keep what the firmware wrote */
		for (unsigned k = 0; k < sizeof(mock_eth_tx); k++)
			mock_eth_tx[k] = (uint8_t)(regs[RNIC_FW_REG_ETH_TX_DATA / 4 + k / 4] >> (8 * (k % 4)));
		mock_eth_tx_len = v;
		mock_eth_sent++;
		break;
	default: break;
	}
}

unsigned mock_mbox_count(uint32_t commit_off, unsigned from)
{
	unsigned n = 0;
	for (unsigned i = from; i < mock_nmbox; i++)
		n += mock_mbox[i].commit_off == commit_off;
	return n;
}

const struct mock_mbox_rec *mock_mbox_nth(uint32_t commit_off, unsigned from, unsigned n)
{
	for (unsigned i = from; i < mock_nmbox; i++)
		if (mock_mbox[i].commit_off == commit_off && n-- == 0)
			return &mock_mbox[i];
	return 0;
}

/* The CQE writer (rtl/cqe_write) as the firmware sees it: records are written out at once, by
 * the engine's rules (per-CQ producer, consumer, arming, error; a record whose CQ looks full is
 * held until a cqw_cmd answers; EQ entries of armed CQs and of the firmware's event records). */
uint32_t mock_tc[MOCK_TC_WORDS];
unsigned mock_cqw_records, mock_cqw_holds, mock_eq_notifies, mock_eq_failed;
static struct {
	uint64_t base;
	uint32_t log, pi, ci, armed, err;
} mock_cqw_cq[65536];
static uint32_t mock_cqw_taken, mock_cqw_held, mock_cqw_dropped, mock_evc, mock_ev_mark[RNIC_FW_TC_EV_REC_NUM];
unsigned mock_cqw_lag, mock_cqw_max_pending;
static unsigned mock_cqw_reads;
/* the writer's producer/consumer and free-running counter widths */
#define MOCK_PI_MASK ((1u << RNIC_CQW_INDEX_BITS) - 1u)
#define MOCK_CNT_MASK ((1u << RNIC_CQW_COUNT_BITS) - 1u)
/* the writer's error FIFO (cqw_err_cqn / cqw_err_pop), RNIC_FW_TC_CQ_REC_NUM entries */
static uint32_t mock_ef[RNIC_FW_TC_CQ_REC_NUM], mock_ef_rd, mock_ef_n;

static void mock_cqw_run(void);
static int srt_load(uint32_t off, uint32_t *v);
static void srt_store(uint32_t off, uint32_t v);
static uint32_t txb_load(void);
static uint32_t txb_run_load(void);
static void txb_cmd(uint32_t w3);

static uint32_t mock_dbr_load(uint32_t off);
static uint32_t mock_rqr_load(uint32_t off);
/* the receive feed (mock_rqf_cmd below): on or not, its last status */
unsigned mock_rqf_on, mock_rqf_cmds, mock_rqf_handed;
/* the QP table's port held (the receive engine waiting for the event ring): a command hands at
 * most mock_rqf_hold_after WQEs (0: no limit), then ends at wqf_rqf_yield with stop 0 and the
 * WQE at its position not handed, its record left in place; mock_rqf_yields counts those ends */
unsigned mock_rqf_hold_after, mock_rqf_yields;
static uint32_t mock_rqf_status;

/* The receive-event ring (rtl/core/rnic_fw_evring) as the RTL fills it: the event's 16 words
 * into slot evr_prod mod evr_num, then evr_prod counts it; refused (0) while the ring is full,
 * where the RTL holds the event back. */
int mock_evr_push(const uint8_t *ev)
{
	uint32_t mask = (1u << RNIC_FW_TC_EVR_COUNT_BITS) - 1u;
	uint32_t prod = mock_tc[RNIC_FW_TC_EVR_PROD / 4], cons = mock_tc[RNIC_FW_TC_EVR_CONS / 4];
	if (((prod - cons) & mask) == RNIC_FW_TC_EVR_NUM)
		return 0;
	uint32_t slot = (RNIC_FW_TC_EVR_BASE + (prod % RNIC_FW_TC_EVR_NUM) * RNIC_RX_EVENT_SIZE) / 4;
	for (unsigned w = 0; w < RNIC_RX_EVENT_SIZE / 4; w++)
		mock_tc[slot + w] = rnic_ld_le32(ev + 4 * w);
	mock_tc[RNIC_FW_TC_EVR_PROD / 4] = (prod + 1) & mask;
	return 1;
}

uint32_t mock_tc_rd32(uint32_t off)
{
	if (off < RNIC_FW_TC_CQ_REC_BASE + RNIC_FW_TC_CQ_REC_NUM * RNIC_CQ_REC_SIZE)
		return 0; /* the record ring is write-only */
	if (off >= RNIC_FW_TC_BF_DATA_BASE && off < RNIC_FW_TC_BF_DATA_BASE + RNIC_DB_BF_DATA_BYTES &&
	    mock_bf_reads_left && --mock_bf_reads_left == 0)
		mock_tc[RNIC_FW_TC_BF_STATUS / 4] = mock_bf_status_after;
	/* a slow writer: the records go out only after mock_cqw_lag reads of cqw_cons */
	if (off == RNIC_FW_TC_CQW_CONS && mock_cqw_lag && ++mock_cqw_reads >= mock_cqw_lag) {
		mock_cqw_reads = 0;
		mock_cqw_run();
	}
	uint32_t sv;
	if (srt_load(off, &sv))
		return sv;
	if (off == RNIC_FW_TC_CQW_ERR_CQN)
		return mock_ef_n ? rnic_cqw_err_cqn_mk_valid(1) | rnic_cqw_err_cqn_mk_cqn(mock_ef[mock_ef_rd]) : 0;
	if (off == RNIC_FW_TC_CQW_STATUS)
		return rnic_cqw_status_mk_errors(mock_tc[off / 4]) | rnic_cqw_status_mk_held(mock_cqw_held) |
		       rnic_cqw_status_mk_idle(!mock_cqw_held && mock_cqw_taken == mock_tc[RNIC_FW_TC_CQW_PROD / 4]);
	if (off == RNIC_FW_TC_CQW_FULL || off == RNIC_FW_TC_CQW_FULL_PI) {
		uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (mock_cqw_taken % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
		uint32_t cqn = mock_tc[(slot + 28) / 4] >> 16;
		if (off == RNIC_FW_TC_CQW_FULL)
			return mock_cqw_held ? rnic_cqw_full_mk_held(1) | rnic_cqw_full_mk_cqn(cqn) : 0;
		return mock_cqw_cq[cqn].pi & MOCK_PI_MASK;
	}
	if (off == RNIC_FW_TC_CQW_DROPPED)
		return mock_cqw_dropped & MOCK_CNT_MASK;
	if (off == RNIC_FW_TC_EQW_CONS)
		return mock_evc;
	if (off == RNIC_FW_TC_WQF_DBR_INFO || off == RNIC_FW_TC_WQF_DBR_QIDX)
		return mock_dbr_load(off);
	if (off == RNIC_FW_TC_WQF_RQR_INFO || off == RNIC_FW_TC_WQF_RQR_QIDX)
		return mock_rqr_load(off);
	if (off == RNIC_FW_TC_WQF_RQF_STATUS)
		return mock_rqf_on ? mock_rqf_status | rnic_wqf_rqf_status_mk_present(1) : 0;
	if (mock_rqg_load(off, &sv)) /* the grant mode (mock_rqf.c) */
		return sv;
	if (off == RNIC_FW_TC_TXB_STATUS)
		return txb_load();
	if (off == RNIC_FW_TC_TXB_RUN)
		return txb_run_load();
	if (off >= RNIC_FW_TC_DBR_BASE && off <= RNIC_FW_TC_DBR_CONS)
		return mock_tc[off / 4]; /* the doorbell ring's slots and counts */
	if (off >= RNIC_FW_TC_MBOX_PAGE && off != RNIC_FW_TC_TXD_STATUS && off != RNIC_FW_TC_RQD_STATUS &&
	    off != RNIC_FW_TC_RDD_STATUS)
		return 0; /* the mailboxes' data words and commits are write only */
	return mock_tc[(off / 4) % MOCK_TC_WORDS];
}

/* One EQ entry at the EQ producer (the host's eq registers as the firmware's mirror shows them),
 * then the notify; a refused write sets dev_err EQ_WRITE and keeps the slot. */
static void mock_eq_write(uint32_t type, uint32_t subtype, uint32_t handle, uint32_t data)
{
	uint32_t log = regs[RNIC_FW_REG_EQ_LOG_SIZE / 4], prod = regs[RNIC_FW_REG_EQ_PROD / 4];
	uint8_t ev[RNIC_EQ_ENTRY_SIZE] = { 0 };
	if (log == 0 || log > 16)
		return;
	uint64_t a = ((uint64_t)regs[RNIC_FW_REG_EQ_BASE_HI / 4] << 32 | regs[RNIC_FW_REG_EQ_BASE_LO / 4]) +
		     (uint64_t)(prod & ((1u << log) - 1)) * RNIC_EQ_ENTRY_SIZE;
	rnic_eq_entry_set_event_type(ev, type);
	rnic_eq_entry_set_subtype(ev, subtype);
	rnic_eq_entry_set_handle(ev, handle);
	rnic_eq_entry_set_data(ev, data);
	rnic_eq_entry_set_owner(ev, ((prod >> log) & 1u) ^ 1u);
	if (a < MOCK_HOST_BASE || a + RNIC_EQ_ENTRY_SIZE > MOCK_HOST_BASE + MOCK_HOST_BYTES) {
		regs[RNIC_FW_REG_DEV_ERR_SET / 4] |= 1u << RNIC_DEV_ERR_BIT_EQ_WRITE;
		mock_eq_failed++;
		return;
	}
	memcpy(mock_host + (a - MOCK_HOST_BASE), ev, RNIC_EQ_ENTRY_SIZE);
	regs[RNIC_FW_REG_EQ_PROD / 4] = prod + 1;
	mock_eq_notifies++;
}

/* The firmware's event record at mock_evc, once every CQE record before its mark is taken. */
static int mock_fw_event(void)
{
	if (mock_evc == (mock_tc[RNIC_FW_TC_EQW_PROD / 4] & MOCK_CNT_MASK) ||
	    ((mock_cqw_taken - mock_ev_mark[mock_evc % RNIC_FW_TC_EV_REC_NUM]) & 0x8000u))
		return 0;
	uint32_t slot = (RNIC_FW_TC_EV_REC_BASE + (mock_evc % RNIC_FW_TC_EV_REC_NUM) * RNIC_EQ_ENTRY_SIZE) / 4;
	mock_eq_write(mock_tc[slot] & 0xFFu, (mock_tc[slot] >> 8) & 0xFFu, mock_tc[slot + 1], mock_tc[slot + 2]);
	mock_evc = (mock_evc + 1) & MOCK_CNT_MASK;
	return 1;
}

/* One record c (cq_rec bytes) into its CQ as a CQE: 1 written (or dropped: the CQ in error), 0
 * held (the CQ looks full). */
static int mock_cqw_write(uint8_t *c)
{
	uint32_t cqn = rnic_cq_rec_get_cqn(c);
	if (mock_cqw_cq[cqn].err) { /* dropped */
		mock_cqw_dropped++;
		return 1;
	}
	if (((mock_cqw_cq[cqn].pi - mock_cqw_cq[cqn].ci) & MOCK_PI_MASK) >= (1u << mock_cqw_cq[cqn].log)) {
		mock_cqw_holds++;
		return 0;
	}
	int sol = (c[RNIC_CQE_FLAGS_OFF] >> RNIC_CQE_FLAG_SOLICITED) & 1, fail = c[RNIC_CQE_STATUS_OFF] != 0;
	c[30] = 0;
	c[31] = 0;
	rnic_cqe_set_owner(c, ((mock_cqw_cq[cqn].pi >> mock_cqw_cq[cqn].log) & 1u) ^ 1u);
	uint64_t a = mock_cqw_cq[cqn].base +
		     (uint64_t)(mock_cqw_cq[cqn].pi & ((1u << mock_cqw_cq[cqn].log) - 1)) * RNIC_CQE_SIZE;
	if (a >= MOCK_HOST_BASE && a + RNIC_CQE_SIZE <= MOCK_HOST_BASE + MOCK_HOST_BYTES)
		memcpy(mock_host + (a - MOCK_HOST_BASE), c, RNIC_CQE_SIZE);
	else {
		mock_tc[RNIC_FW_TC_CQW_STATUS / 4]++; /* a bus error, and its CQ (as cqe_writer) */
		if (mock_ef_n < RNIC_FW_TC_CQ_REC_NUM)
			mock_ef[(mock_ef_rd + mock_ef_n++) % RNIC_FW_TC_CQ_REC_NUM] = cqn;
	}
	mock_cqw_cq[cqn].pi = (mock_cqw_cq[cqn].pi + 1) & MOCK_PI_MASK;
	mock_cqw_records++;
	if (mock_cqw_cq[cqn].armed == RNIC_CQW_OP_ARM_ANY ||
	    (mock_cqw_cq[cqn].armed == RNIC_CQW_OP_ARM_SOLICITED && (sol || fail))) {
		mock_cqw_cq[cqn].armed = 0;
		mock_eq_write(RNIC_EQ_TYPE_COMPLETION, 0, cqn, 0);
	}
	return 1;
}

static void mock_cqw_run(void)
{
	for (;;) {
		if (mock_fw_event())
			continue;
		if (mock_cqw_held || mock_cqw_taken == mock_tc[RNIC_FW_TC_CQW_PROD / 4])
			break;
		uint8_t c[RNIC_CQE_SIZE];
		uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (mock_cqw_taken % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
		for (uint32_t i = 0; i < RNIC_CQ_REC_SIZE; i += 4)
			rnic_st_le(c + i, 4, mock_tc[(slot + i) / 4]);
		if (!mock_cqw_write(c)) {
			mock_cqw_held = 1; /* looks full: the firmware answers */
			break;
		}
		mock_cqw_taken = (mock_cqw_taken + 1) & MOCK_CNT_MASK;
	}
	mock_tc[RNIC_FW_TC_CQW_CONS / 4] = mock_cqw_taken;
}

/* cqw_cmd: the engine's rules (spec layout cqw_cmd). */
static void mock_cqw_cmd(uint32_t v)
{
	uint32_t n = rnic_cqw_cmd_v_cqn(v), op = rnic_cqw_cmd_v_op(v), arg = mock_tc[RNIC_FW_TC_CQW_CMD_ARG / 4] & MOCK_PI_MASK;
	uint32_t slot = RNIC_FW_TC_CQ_REC_BASE + (mock_cqw_taken % RNIC_FW_TC_CQ_REC_NUM) * RNIC_CQ_REC_SIZE;
	if (op == RNIC_CQW_OP_ERR) {
		mock_cqw_cq[n].err = 1;
	} else if (((arg - mock_cqw_cq[n].ci) & MOCK_PI_MASK) <= ((mock_cqw_cq[n].pi - mock_cqw_cq[n].ci) & MOCK_PI_MASK)) {
		mock_cqw_cq[n].ci = arg; /* a consumer between the known one and the producer */
	}
	if (op == RNIC_CQW_OP_ARM_ANY && mock_cqw_cq[n].pi != mock_cqw_cq[n].ci)
		mock_eq_write(RNIC_EQ_TYPE_COMPLETION, 0, n, 0); /* CQEs past the host's consumer: at once */
	else if (op == RNIC_CQW_OP_ARM_ANY || op == RNIC_CQW_OP_ARM_SOLICITED)
		mock_cqw_cq[n].armed = op;
	if (mock_cqw_held && (mock_tc[(slot + 28) / 4] >> 16) == n)
		mock_cqw_held = 0;
	if (!mock_cqw_lag)
		mock_cqw_run();
}

/* The WQE fetch engine (rtl/wqe_fetch): a command is done at once; WQEBBs outside the mock host
 * memory (or every fetch while mock_wqf_fail) are a bus error, counted and tagged as the engine
 * does. Each command counts as one DMA read. */
unsigned mock_wqf_cmds, mock_wqf_fail, mock_wqf_rq_cmds;

static void mock_wqf_cmd(uint32_t v)
{
	uint8_t c[4], st[4];
	rnic_st_le(c, 4, v);
	rnic_st_le(st, 4, mock_tc[RNIC_FW_TC_WQF_STATUS / 4]);
	uint64_t a = (uint64_t)mock_tc[RNIC_FW_TC_WQF_ADDR_HI / 4] << 32 | (mock_tc[RNIC_FW_TC_WQF_ADDR_LO / 4] & ~63u);
	uint32_t n = rnic_wqf_cmd_get_bbs(c), slot = rnic_wqf_cmd_get_slot(c);
	/* the receive region (rq) is a ring of its own, as the engine's */
	uint32_t rq = rnic_wqf_cmd_get_rq(c), nb = rq ? RNIC_FW_TC_WQF_RQ_BUF_BBS : RNIC_FW_TC_WQF_BUF_BBS;
	uint32_t base = rq ? RNIC_FW_TC_WQF_RQ_BUF_BASE : RNIC_FW_TC_WQF_BUF_BASE;
	n = n == 0 ? 1 : n > nb ? nb : n;
	int bad = mock_wqf_fail || a < MOCK_HOST_BASE || a + 64u * n > MOCK_HOST_BASE + MOCK_HOST_BYTES;
	for (uint32_t k = 0; !bad && k < n; k++)
		for (uint32_t i = 0; i < 64; i += 4)
			mock_tc[(base + ((slot + k) % nb) * 64 + i) / 4] =
				(uint32_t)rnic_ld_le(mock_host + (a - MOCK_HOST_BASE) + 64 * k + i, 4);
	mock_wqf_rq_cmds += rq;
	if (bad) {
		rnic_wqf_status_set_errors(st, rnic_wqf_status_get_errors(st) + 1);
		rnic_wqf_status_set_err_tag(st, rnic_wqf_cmd_get_tag(c));
	}
	rnic_wqf_status_set_done(st, rnic_wqf_status_get_done(st) + 1);
	mock_tc[RNIC_FW_TC_WQF_STATUS / 4] = (uint32_t)rnic_ld_le(st, 4);
	mock_wqf_cmds++;
	mock_dma_reads++;
}

/* Doorbell-started fetches (rtl/wqe_fetch, spec wqf_sq_*, wqf_dbr_*): the engine's ring state per
 * QP and its records, as the spec says; mock_wqf_db() is what the doorbell BAR hands the engine.
 * A fetch completes at once (a bus error outside the mock host memory or while mock_wqf_fail). */
#define MOCK_SQS 4096u
struct mock_sq mock_sq[MOCK_SQS];
/* a doorbell-started fetch's record, as the engine shows it (SQ and RQ records alike) */
struct mock_wqf_rec {
	uint32_t qpn, first, bbs, slot, err;
};
static struct mock_wqf_rec mock_rec[RNIC_FW_TC_WQF_DB_NUM];

/* The engine's record loads: qidx (at qidx_off) or info of the oldest of n records, r. */
static uint32_t mock_rec_load(const struct mock_wqf_rec *r, unsigned n, uint32_t off, uint32_t qidx_off)
{
	if (!n)
		return 0;
	if (off == qidx_off)
		return r->qpn | r->first << 16;
	uint8_t i[4] = { 0 };
	rnic_wqf_dbr_info_set_bbs(i, r->bbs);
	rnic_wqf_dbr_info_set_slot(i, r->slot);
	rnic_wqf_dbr_info_set_valid(i, 1);
	rnic_wqf_dbr_info_set_done(i, 1);
	rnic_wqf_dbr_info_set_err(i, r->err);
	rnic_wqf_dbr_info_set_more(i, n > 1);
	return (uint32_t)rnic_ld_le(i, 4);
}
static unsigned mock_rec_rd, mock_rec_n, mock_dslot, mock_dused;
static uint32_t mock_last_qpn, mock_last_end; /* the newest record's QP and the index after it */
unsigned mock_wqf_db_cmds, mock_wqf_db_on, mock_wqf_db_ext;

void mock_wqf_db(uint32_t page, uint32_t value, int bf)
{
	uint32_t qpn = value & 0xFFFFu, pi = value >> 16;
	if (!mock_wqf_db_on || qpn >= MOCK_SQS)
		return;
	struct mock_sq *q = &mock_sq[qpn];
	uint32_t size = 1u << q->log, n = (pi - q->fidx) & 0xFFFFu;
	if (!q->en || q->page != page || n == 0 || n > size)
		return;
	if (bf) {
		q->fidx = pi;
		return;
	}
	uint32_t left = size - (q->fidx & (size - 1)), free = RNIC_FW_TC_WQF_DB_BUF_BBS - mock_dused;
	uint32_t k = n < left ? n : left;
	k = k < free ? k : free;
	/* a doorbell of the newest record's QP fetching from where it ends extends it */
	int ext = mock_rec_n && mock_last_qpn == qpn && mock_last_end == q->fidx;
	if ((!ext && mock_rec_n == RNIC_FW_TC_WQF_DB_NUM) || k == 0)
		return;
	uint64_t a = q->base + (uint64_t)(q->fidx & (size - 1)) * 64u;
	int bad = mock_wqf_fail || a < MOCK_HOST_BASE || a + 64u * k > MOCK_HOST_BASE + MOCK_HOST_BYTES;
	for (uint32_t j = 0; !bad && j < k; j++)
		for (uint32_t i = 0; i < 64; i += 4)
			mock_tc[(RNIC_FW_TC_WQF_DB_BUF_BASE + ((mock_dslot + j) % RNIC_FW_TC_WQF_DB_BUF_BBS) * 64 + i) / 4] =
				(uint32_t)rnic_ld_le(mock_host + (a - MOCK_HOST_BASE) + 64 * j + i, 4);
	if (ext) {
		unsigned r = (mock_rec_rd + mock_rec_n - 1) % RNIC_FW_TC_WQF_DB_NUM;
		mock_rec[r].bbs += k;
		mock_rec[r].err |= (uint32_t)bad;
		mock_wqf_db_ext++;
	} else {
		unsigned r = (mock_rec_rd + mock_rec_n++) % RNIC_FW_TC_WQF_DB_NUM;
		mock_rec[r].qpn = qpn, mock_rec[r].first = q->fidx, mock_rec[r].bbs = k, mock_rec[r].slot = mock_dslot;
		mock_rec[r].err = (uint32_t)bad;
	}
	mock_last_qpn = qpn;
	mock_last_end = (q->fidx + k) & 0xFFFFu;
	mock_dslot = (mock_dslot + k) % RNIC_FW_TC_WQF_DB_BUF_BBS;
	mock_dused += k;
	q->fidx = (q->fidx + k) & 0xFFFFu;
	mock_wqf_db_cmds++;
	mock_dma_reads++;
}

/* The rq_desc the engine builds from an RQ WQE w with ns SGEs (ns <= RNIC_MAX_SGE), into the
 * mailbox model: the receive feed's and the grant mode's (mock_rqf.c) hand-over. */
void mock_rq_desc_post(uint32_t qpn, const uint8_t *w, uint32_t ns)
{
	if (mock_nmbox >= sizeof(mock_mbox) / sizeof(mock_mbox[0]))
		return;
	struct mock_mbox_rec *r = &mock_mbox[mock_nmbox++];
	memset(r->data, 0, RNIC_RQ_DESC_SIZE);
	r->commit_off = RNIC_FW_TC_RQD_COMMIT;
	r->arg = qpn;
	rnic_rq_desc_set_qpn(r->data, qpn);
	rnic_rq_desc_set_num_sge(r->data, ns);
	memcpy(r->data + RNIC_RQ_DESC_WR_ID_OFF, w + RNIC_RQ_WQE_WR_ID_OFF, 8);
	for (uint32_t j = 0; j < ns && j < RNIC_MAX_SGE; j++)
		memcpy(r->data + RNIC_RQ_DESC_SGE0_ADDR_OFF + RNIC_WQE_SGE_SIZE * j, w + RNIC_RQ_WQE_SIZE + RNIC_WQE_SGE_SIZE * j,
		       RNIC_WQE_SGE_SIZE);
}

struct mock_rq mock_rq[MOCK_SQS];
struct mock_wqf_rec mock_rrec[RNIC_FW_TC_WQF_RDB_NUM]; /* (the grant mode's model, mock_rqf.c, works on them too) */
unsigned mock_rrec_rd, mock_rslot, mock_rused;
unsigned mock_wqf_rdb_cmds, mock_wqf_rdb_on, mock_wqf_rrec_n;

void mock_wqf_rdb(uint32_t page, uint32_t value)
{
	uint32_t qpn = value & 0xFFFFu, pi = value >> 16;
	if (mock_rqg_rdb(page, value)) /* grant mode: mock_rqf.c */
		return;
	if (!mock_wqf_rdb_on || qpn >= MOCK_SQS)
		return;
	struct mock_rq *q = &mock_rq[qpn];
	uint32_t size = 1u << q->log, n = (pi - q->fidx) & 0xFFFFu;
	if (!q->en || q->page != page || n == 0 || n > size || mock_wqf_rrec_n == RNIC_FW_TC_WQF_RDB_NUM)
		return;
	uint32_t left = size - (q->fidx & (size - 1)), free = (RNIC_FW_TC_WQF_RDB_BUF_BBS - mock_rused) >> q->lb;
	uint32_t k = n < left ? n : left;
	k = k < free ? k : free;
	if (k == 0)
		return;
	mock_wqf_rq_fetch(qpn, k);
}

/* k WQEs of an RQ from its fetch index into the receive doorbell region, with their record (the
 * rq_db path above and the grant mode's evaluation, mock_rqf.c) */
void mock_wqf_rq_fetch(uint32_t qpn, uint32_t k)
{
	struct mock_rq *q = &mock_rq[qpn];
	uint32_t size = 1u << q->log;
	uint32_t bbs = k << q->lb;
	uint64_t a = q->base + ((uint64_t)(q->fidx & (size - 1)) << (6 + q->lb));
	int bad = mock_wqf_fail || a < MOCK_HOST_BASE || a + 64u * bbs > MOCK_HOST_BASE + MOCK_HOST_BYTES;
	for (uint32_t j = 0; !bad && j < bbs; j++)
		for (uint32_t i = 0; i < 64; i += 4)
			mock_tc[(RNIC_FW_TC_WQF_RDB_BUF_BASE + ((mock_rslot + j) % RNIC_FW_TC_WQF_RDB_BUF_BBS) * 64 + i) / 4] =
				(uint32_t)rnic_ld_le(mock_host + (a - MOCK_HOST_BASE) + 64 * j + i, 4);
	unsigned r = (mock_rrec_rd + mock_wqf_rrec_n++) % RNIC_FW_TC_WQF_RDB_NUM;
	mock_rrec[r].qpn = qpn, mock_rrec[r].first = q->fidx, mock_rrec[r].bbs = bbs, mock_rrec[r].slot = mock_rslot;
	mock_rrec[r].err = (uint32_t)bad;
	mock_rslot = (mock_rslot + bbs) % RNIC_FW_TC_WQF_RDB_BUF_BBS;
	mock_rused += bbs;
	q->fidx = (q->fidx + k) & 0xFFFFu;
	mock_wqf_rdb_cmds++;
	mock_dma_reads++;
}

static uint32_t mock_rqr_load(uint32_t off)
{
	return mock_rec_load(&mock_rrec[mock_rrec_rd], mock_wqf_rrec_n, off, RNIC_FW_TC_WQF_RQR_QIDX);
}

/* The receive feed (rtl/wqe_fetch wqf_rqf_*) when a test turns it on (mock_rqf_on): the record
 * rules of the RTL on the mock's RQ records, each WQE it hands recorded as an rq_desc commit (as
 * the RTL builds it: qpn, num_sge, the WQE's wr_id and SGEs, those beyond num_sge zero). */
static void mock_wqf_rq_store(uint32_t off, uint32_t v);

static void mock_rqf_cmd(uint32_t v)
{
	uint32_t qpn = v & 0xFFFFu, pos = v >> 16, arg = mock_tc[RNIC_FW_TC_WQF_RQF_ARG / 4];
	uint32_t want = rnic_wqf_rqf_arg_v_count(arg), lb = rnic_wqf_rqf_arg_v_log_bbs(arg);
	uint32_t smax = rnic_wqf_rqf_arg_v_sge_max(arg), hand = 0, stop = 0;
	mock_rqf_cmds++;
	while (hand < want) {
		if (!mock_wqf_rrec_n) {
			stop = 1;
			break;
		}
		const struct mock_wqf_rec *h = &mock_rrec[mock_rrec_rd];
		uint32_t n = h->bbs >> lb, d = (pos - h->first) & 0xFFFFu;
		if (h->qpn == qpn && d < n) {
			if (h->err) {
				stop = 2;
				break;
			}
			if (mock_rqf_hold_after && hand == mock_rqf_hold_after) {
				mock_rqf_yields++;
				break;
			}
			uint8_t w[RNIC_RQ_DESC_SIZE];
			for (uint32_t i = 0; i < RNIC_RQ_DESC_SIZE; i++) {
				uint32_t a = RNIC_FW_TC_WQF_RDB_BUF_BASE +
					     ((h->slot + (d << lb) + i / 64) % RNIC_FW_TC_WQF_RDB_BUF_BBS) * 64 + i % 64;
				w[i] = (uint8_t)(mock_tc[a / 4] >> (8 * (a % 4)));
			}
			uint32_t ns = w[8];
			if (ns > smax) {
				stop = 3;
				break;
			}
			mock_rq_desc_post(qpn, w, ns);
			pos = (pos + 1) & 0xFFFFu;
			hand++;
			if (d + 1 == n)
				mock_wqf_rq_store(RNIC_FW_TC_WQF_RQR_POP, 0);
		} else if (h->qpn == qpn && ((h->first - pos) & 0xFFFFu) < 0x8000u) {
			stop = 1;
			break;
		} else {
			mock_wqf_rq_store(RNIC_FW_TC_WQF_RQR_POP, 0);
		}
	}
	mock_rqf_handed += hand;
	mock_rqf_status = rnic_wqf_rqf_status_mk_handed(hand) | rnic_wqf_rqf_status_mk_stop(stop) |
			  rnic_wqf_rqf_status_mk_present(1);
}

static void mock_wqf_rq_store(uint32_t off, uint32_t v)
{
	uint32_t qpn = v & 0xFFFFu;
	if (off == RNIC_FW_TC_WQF_DB_CTL)
		mock_wqf_rdb_on = (v >> 1) & 1u;
	if (off == RNIC_FW_TC_WQF_RQR_POP && mock_wqf_rrec_n) {
		mock_rused -= mock_rrec[mock_rrec_rd].bbs;
		mock_rrec_rd = (mock_rrec_rd + 1) % RNIC_FW_TC_WQF_RDB_NUM;
		mock_wqf_rrec_n--;
	}
	if ((off == RNIC_FW_TC_WQF_RQ_CFG || off == RNIC_FW_TC_WQF_RQ_FIDX) && qpn < MOCK_SQS) {
		mock_rq[qpn].fidx = v >> 16;
		if (off == RNIC_FW_TC_WQF_RQ_CFG) {
			uint8_t g[4];
			rnic_st_le(g, 4, mock_tc[RNIC_FW_TC_WQF_RQ_RING / 4]);
			mock_rq[qpn].base = (uint64_t)mock_tc[RNIC_FW_TC_WQF_RQ_BASE_HI / 4] << 32 |
					    (mock_tc[RNIC_FW_TC_WQF_RQ_BASE_LO / 4] & ~63u);
			mock_rq[qpn].log = rnic_wqf_rq_ring_get_log_size(g);
			mock_rq[qpn].lb = rnic_wqf_rq_ring_get_log_bbs(g);
			mock_rq[qpn].page = rnic_wqf_rq_ring_get_page(g);
			mock_rq[qpn].en = rnic_wqf_rq_ring_get_en(g);
		}
	}
}

static uint32_t mock_dbr_load(uint32_t off)
{
	return mock_rec_load(&mock_rec[mock_rec_rd], mock_rec_n, off, RNIC_FW_TC_WQF_DBR_QIDX);
}

static void mock_wqf_sq_store(uint32_t off, uint32_t v)
{
	uint32_t qpn = v & 0xFFFFu;
	if (off == RNIC_FW_TC_WQF_DB_CTL)
		mock_wqf_db_on = v & 1u;
	if (off == RNIC_FW_TC_WQF_DBR_POP && mock_rec_n) {
		mock_dused -= mock_rec[mock_rec_rd].bbs;
		mock_rec_rd = (mock_rec_rd + 1) % RNIC_FW_TC_WQF_DB_NUM;
		mock_rec_n--;
	}
	if ((off == RNIC_FW_TC_WQF_SQ_CFG || off == RNIC_FW_TC_WQF_SQ_FIDX) && qpn < MOCK_SQS) {
		mock_sq[qpn].fidx = v >> 16;
		if (off == RNIC_FW_TC_WQF_SQ_CFG) {
			uint8_t g[4];
			rnic_st_le(g, 4, mock_tc[RNIC_FW_TC_WQF_SQ_RING / 4]);
			mock_sq[qpn].base = (uint64_t)mock_tc[RNIC_FW_TC_WQF_SQ_BASE_HI / 4] << 32 |
					    (mock_tc[RNIC_FW_TC_WQF_SQ_BASE_LO / 4] & ~63u);
			mock_sq[qpn].log = rnic_wqf_sq_ring_get_log_size(g);
			mock_sq[qpn].page = rnic_wqf_sq_ring_get_page(g);
			mock_sq[qpn].en = rnic_wqf_sq_ring_get_en(g);
		}
	}
}

void mock_tc_wr32(uint32_t off, uint32_t v)
{
	mock_rqg_store(off, v); /* the grant mode (mock_rqf.c) */
	mock_wqf_sq_store(off, v);
	mock_wqf_rq_store(off, v);
	if (off == RNIC_FW_TC_WQF_STATUS)
		return; /* read only */
	/* the descriptor mailboxes (rnic_fw_tcmbox): every commit recorded with its data words; the
	 * status is what the test put there (0: free) */
	if (off == RNIC_FW_TC_TXD_STATUS || off == RNIC_FW_TC_RQD_STATUS || off == RNIC_FW_TC_RDD_STATUS)
		return; /* read only */
	if (off == RNIC_FW_TC_TXB_CMD3) {
		txb_cmd(v);
		return;
	}
	if (off >= RNIC_FW_TC_DBR_BASE && off <= RNIC_FW_TC_DBR_PROD)
		return; /* the doorbell ring's slots and dbr_prod: read only */
	if (off == RNIC_FW_TC_DBR_CONS) {
		/* frees slots: takes the mock's time forward, so the firmware's cycle counts see it */
		mock_tc[off / 4] = v & MOCK_DBR_MASK;
		mock_now += MOCK_DB_POP_CYCLES;
		mock_db_next();
		return;
	}
	mock_tc[(off / 4) % MOCK_TC_WORDS] = v;
	srt_store(off, v);
	if (off == RNIC_FW_TC_TXD_COMMIT)
		mock_commit(off, mock_tc, RNIC_FW_TC_TXD_DATA, RNIC_TX_DESC_SIZE / 4, v);
	if (off == RNIC_FW_TC_RQD_COMMIT)
		mock_commit(off, mock_tc, RNIC_FW_TC_RQD_DATA, RNIC_RQ_DESC_SIZE / 4, v);
	if (off == RNIC_FW_TC_RDD_COMMIT)
		mock_commit(off, mock_tc, RNIC_FW_TC_RDD_DATA, RNIC_RD_DESC_SIZE / 4, v);
	if (off == RNIC_FW_TC_CQW_ERR_POP && mock_ef_n)
		mock_ef_rd = (mock_ef_rd + 1) % RNIC_FW_TC_CQ_REC_NUM, mock_ef_n--;
	if (off == RNIC_FW_TC_WQF_CMD)
		mock_wqf_cmd(v);
	if (off == RNIC_FW_TC_WQF_RQF_CMD && mock_rqf_on)
		mock_rqf_cmd(v);
	if (off == RNIC_FW_TC_CQW_PROD) {
		unsigned pending = (v - mock_cqw_taken) & MOCK_CNT_MASK;
		if (pending > mock_cqw_max_pending)
			mock_cqw_max_pending = pending;
		if (!mock_cqw_lag)
			mock_cqw_run();
	}
	if (off == RNIC_FW_TC_CQW_CMD)
		mock_cqw_cmd(v);
	if (off == RNIC_FW_TC_EQW_PROD) {
		for (uint32_t i = mock_evc; i != (v & MOCK_CNT_MASK); i = (i + 1) & MOCK_CNT_MASK)
			mock_ev_mark[i % RNIC_FW_TC_EV_REC_NUM] = mock_tc[RNIC_FW_TC_CQW_PROD / 4];
		if (!mock_cqw_lag)
			mock_cqw_run();
	}
	if (off == RNIC_FW_TC_CQW_CQ_CFG) {
		uint32_t n = rnic_cqw_cq_cfg_v_cqn(v);
		mock_cqw_cq[n].base = (uint64_t)mock_tc[RNIC_FW_TC_CQW_CQ_BASE_HI / 4] << 32 |
				      (mock_tc[RNIC_FW_TC_CQW_CQ_BASE_LO / 4] & ~31u);
		mock_cqw_cq[n].log = rnic_cqw_cq_cfg_v_log_size(v);
		mock_cqw_cq[n].pi = mock_cqw_cq[n].ci = mock_cqw_cq[n].armed = mock_cqw_cq[n].err = 0;
	}
}

uint64_t mock_now;
uint64_t mock_cycles(void) { return mock_now; }
uint32_t mock_hart_id;
unsigned mock_dma_reads;

void check(int ok, const char *name)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	mock_failed |= !ok;
}

/* ---- The send-retirement engine (rtl/sq_retire behind fw_tc srt_*), written from the spec's
 * sr_op rules: records in per-QP lists (one array, oldest first), operations done at once
 * (fw_done counts the firmware's), the completion records written into their CQs as the CQE
 * writer's second source does and kept in mock_srt_cqr for byte-exact checks, the events queued
 * for the test to deliver (mock_srt_ev). The fork in front of it is mock_srt_fork. */
struct mock_srt_rec { uint32_t w[6], qpn; };
static struct mock_srt_rec srt_recs[RNIC_SQ_RETIRE_RECS];
static unsigned srt_n;
static struct { uint32_t una, ci; uint8_t halted, told, en; } srt_qp[1024];
static uint32_t srt_w[6], srt_fw_done, srt_dropped, srt_fork_on, srt_qry[4], srt_cmd_lo;
uint8_t mock_srt_cqr[256][RNIC_CQ_REC_SIZE];
unsigned mock_srt_ncqr, mock_srt_nev, mock_srt_ops[16], mock_srt_rec_busy;
uint8_t mock_srt_ev[64][RNIC_SR_EVENT_SIZE];

static int srt_psn_le(uint32_t a, uint32_t b) { return ((b - a) & 0xFFFFFFu) < 0x800000u; }

/* the QP's oldest record (index into srt_recs), -1 none */
static int srt_head(uint32_t qpn)
{
	for (unsigned i = 0; i < srt_n; i++)
		if (srt_recs[i].qpn == qpn)
			return (int)i;
	return -1;
}

static void srt_event(uint32_t qpn, uint32_t kind, uint32_t psn, uint32_t status)
{
	if (mock_srt_nev < 64) {
		uint8_t *e = mock_srt_ev[mock_srt_nev++];
		memset(e, 0, RNIC_SR_EVENT_SIZE);
		rnic_sr_event_set_qpn(e, qpn);
		rnic_sr_event_set_kind(e, kind);
		rnic_sr_event_set_psn(e, psn);
		rnic_sr_event_set_status(e, status);
	}
}

/* Record i retires with status: its completion record when signaled or failed, ci. */
static void srt_retire(int i, uint32_t status)
{
	const uint32_t *w = srt_recs[i].w;
	uint32_t qpn = srt_recs[i].qpn, q = qpn % 1024;
	if (status || ((w[3] >> 24) >> RNIC_SR_FLAG_SIGNALED & 1u)) {
		uint8_t c[RNIC_CQE_SIZE] = { 0 };
		rnic_cq_rec_set_wr_id(c, (uint64_t)w[1] << 32 | w[0]);
		rnic_cq_rec_set_byte_len(c, w[2]);
		rnic_cq_rec_set_qpn(c, qpn);
		rnic_cq_rec_set_status(c, status);
		rnic_cq_rec_set_opcode(c, w[4] >> 24);
		rnic_cq_rec_set_wqe_index(c, w[5] & 0xFFFFu);
		rnic_cq_rec_set_cqn(c, w[5] >> 16);
		if (mock_srt_ncqr < 256)
			memcpy(mock_srt_cqr[mock_srt_ncqr++], c, RNIC_CQ_REC_SIZE);
		mock_cqw_write(c);
	}
	srt_qp[q].ci = (w[5] + 1) & 0xFFFFu;
	srt_qp[q].told = 0;
	if (status)
		srt_qp[q].halted = 1;
	memmove(&srt_recs[i], &srt_recs[i + 1], (srt_n - (unsigned)i - 1) * sizeof(srt_recs[0]));
	srt_n--;
}

/* The walk: records ending before una retire; a barrier only with its own response (resp). */
static void srt_walk(uint32_t qpn, int resp, uint32_t rpsn, uint32_t rst)
{
	uint32_t q = qpn % 1024;
	int i;
	while (!srt_qp[q].halted && (i = srt_head(qpn)) >= 0 &&
	       srt_psn_le(srt_recs[i].w[4] & 0xFFFFFFu, (srt_qp[q].una - 1) & 0xFFFFFFu)) {
		if ((srt_recs[i].w[3] >> 24) >> RNIC_SR_FLAG_BARRIER & 1u) {
			if (resp && rpsn == (srt_recs[i].w[4] & 0xFFFFFFu)) {
				uint32_t first = srt_recs[i].w[3] & 0xFFFFFFu;
				resp = 0;
				srt_retire(i, rst);
				if (rst)
					srt_event(qpn, RNIC_SR_EVENT_KIND_RESP_ERR, first, rst);
				continue;
			}
			if (!srt_qp[q].told) {
				srt_qp[q].told = 1;
				srt_event(qpn, RNIC_SR_EVENT_KIND_BARRIER, srt_recs[i].w[3] & 0xFFFFFFu, 0);
			}
			break;
		}
		srt_retire(i, 0);
	}
}

/* ACK / RESP: una moves to psn + 1 when psn is newer than una - 1, then the walk. */
static void srt_ack(uint32_t qpn, uint32_t op, uint32_t psn, uint32_t st)
{
	uint32_t q = qpn % 1024;
	if (srt_psn_le(srt_qp[q].una, psn))
		srt_qp[q].una = (psn + 1) & 0xFFFFFFu;
	srt_walk(qpn, op == RNIC_SR_OP_RESP, psn, st);
}

static void srt_op(uint32_t lo, uint32_t hi)
{
	uint32_t qpn = lo & 0xFFFFFFu, op = lo >> 24, psn = hi & 0xFFFFFFu, st = hi >> 24, q = qpn % 1024;
	int i = srt_head(qpn);
	if (op < 16)
		mock_srt_ops[op]++;
	switch (op) {
	case RNIC_SR_OP_ACK:
	case RNIC_SR_OP_RESP: srt_ack(qpn, op, psn, st); break;
	case RNIC_SR_OP_POP:
		if (i >= 0)
			srt_retire(i, st);
		srt_walk(qpn, 0, 0, 0);
		break;
	case RNIC_SR_OP_FLUSH:
	case RNIC_SR_OP_DROP:
		while ((i = srt_head(qpn)) >= 0) {
			if (op == RNIC_SR_OP_FLUSH)
				srt_retire(i, st);
			else {
				memmove(&srt_recs[i], &srt_recs[i + 1], (srt_n - (unsigned)i - 1) * sizeof(srt_recs[0]));
				srt_n--;
			}
		}
		srt_qp[q].halted = 1;
		break;
	case RNIC_SR_OP_HALT: srt_qp[q].halted = 1; break;
	case RNIC_SR_OP_RESUME:
		srt_qp[q].halted = 0;
		srt_qp[q].told = 0;
		srt_walk(qpn, 0, 0, 0);
		break;
	case RNIC_SR_OP_INIT:
		if (i < 0) {
			srt_qp[q].una = psn;
			srt_qp[q].ci = 0;
			srt_qp[q].halted = srt_qp[q].told = 0;
		}
		break;
	case RNIC_SR_OP_QUERY:
	case RNIC_SR_OP_FIND: {
		if (op == RNIC_SR_OP_FIND)
			for (i = -1; i < 0;) {
				for (unsigned k = 0; k < srt_n; k++)
					if (srt_recs[k].qpn == qpn && srt_psn_le(srt_recs[k].w[3] & 0xFFFFFFu, psn) &&
					    srt_psn_le(psn, srt_recs[k].w[4] & 0xFFFFFFu)) {
						i = (int)k;
						break;
					}
				break;
			}
		uint8_t a[RNIC_SR_QUERY_SIZE] = { 0 };
		rnic_sr_query_set_una(a, srt_qp[q].una);
		rnic_sr_query_set_nonempty(a, srt_head(qpn) >= 0);
		rnic_sr_query_set_halted(a, srt_qp[q].halted);
		rnic_sr_query_set_told(a, srt_qp[q].told);
		rnic_sr_query_set_ci(a, srt_qp[q].ci);
		if (i >= 0) {
			rnic_sr_query_set_found(a, 1);
			rnic_sr_query_set_head_barrier(a, (srt_recs[i].w[3] >> 24) >> RNIC_SR_FLAG_BARRIER & 1u);
			rnic_sr_query_set_head_first_psn(a, srt_recs[i].w[3] & 0xFFFFFFu);
			rnic_sr_query_set_head_last_psn(a, srt_recs[i].w[4] & 0xFFFFFFu);
			rnic_sr_query_set_head_wqe_index(a, srt_recs[i].w[5] & 0xFFFFu);
		}
		for (unsigned k = 0; k < 4; k++)
			srt_qry[k] = rnic_ld_le32(a + 4 * k);
		break;
	}
	default: break;
	}
}

static int srt_load(uint32_t off, uint32_t *v)
{
	if (off == RNIC_FW_TC_SRT_STATUS) {
		*v = rnic_srt_status_mk_fw_done(srt_fw_done & 0xFFFFu) |
		     rnic_srt_status_mk_free(mock_srt_rec_busy ? 0 : RNIC_SQ_RETIRE_RECS - srt_n) |
		     rnic_srt_status_mk_rec_busy(mock_srt_rec_busy != 0) | rnic_srt_status_mk_dropped(srt_dropped) |
		     rnic_srt_status_mk_fork_on(srt_fork_on);
		return 1;
	}
	if (off >= RNIC_FW_TC_SRT_QRY0 && off <= RNIC_FW_TC_SRT_QRY3) {
		*v = srt_qry[(off - RNIC_FW_TC_SRT_QRY0) / 4];
		return 1;
	}
	return 0;
}

static void srt_store(uint32_t off, uint32_t v)
{
	if (off >= RNIC_FW_TC_SRT_REC0 && off <= RNIC_FW_TC_SRT_REC5)
		srt_w[(off - RNIC_FW_TC_SRT_REC0) / 4] = v;
	else if (off == RNIC_FW_TC_SRT_REC_QPN) {
		if (mock_srt_rec_busy || srt_n == RNIC_SQ_RETIRE_RECS) {
			srt_dropped = 1;
			return;
		}
		uint32_t qpn = v & 0xFFFFFFu;
		if (srt_head(qpn) < 0)
			srt_qp[qpn % 1024].una = srt_w[3] & 0xFFFFFFu;
		memcpy(srt_recs[srt_n].w, srt_w, sizeof(srt_w));
		srt_recs[srt_n++].qpn = qpn;
	} else if (off == RNIC_FW_TC_SRT_CMD_LO)
		srt_cmd_lo = v;
	else if (off == RNIC_FW_TC_SRT_CMD_HI) {
		srt_op(srt_cmd_lo, v);
		srt_fw_done++;
	} else if (off == RNIC_FW_TC_SRT_QP_EN) {
		srt_qp[(v & 0xFFFFFFu) % 1024].en = (uint8_t)rnic_srt_qp_en_v_enable(v);
		srt_fork_on |= rnic_srt_qp_en_v_enable(v);
	}
}

unsigned mock_srt_records(uint32_t qpn)
{
	unsigned n = 0;
	for (unsigned i = 0; i < srt_n; i++)
		n += srt_recs[i].qpn == qpn;
	return n;
}

int mock_srt_dropped(void) { return (int)srt_dropped; }

void mock_srt_reset(void)
{
	srt_n = 0;
	memset(srt_qp, 0, sizeof(srt_qp));
	srt_dropped = srt_fork_on = 0;
	mock_srt_ncqr = mock_srt_nev = mock_srt_rec_busy = 0;
}

int mock_srt_fork(const uint8_t *ev)
{
	uint32_t qpn = rnic_rx_event_get_qpn(ev), kind = rnic_rx_event_get_kind(ev), psn = rnic_rx_event_get_psn(ev);
	if (!srt_qp[qpn % 1024].en)
		return 1;
	switch (kind) {
	case RNIC_RX_EVENT_KIND_ACK: srt_ack(qpn, RNIC_SR_OP_ACK, psn, 0); return 0;
	case RNIC_RX_EVENT_KIND_NAK:
	case RNIC_RX_EVENT_KIND_RNR_NAK: srt_ack(qpn, RNIC_SR_OP_ACK, (psn - 1) & 0xFFFFFFu, 0); return 1;
	case RNIC_RX_EVENT_KIND_READ_RESP_DONE:
	case RNIC_RX_EVENT_KIND_ATOMIC_ACK: srt_ack(qpn, RNIC_SR_OP_RESP, psn, rnic_rx_event_get_status(ev)); return 1;
	default: return 1;
	}
}

/* The firmware's old send path (its own ACK handling) unless a test turns the engine on. */
__attribute__((constructor)) static void mock_srt_default(void) { fw_srt_off = 1; }

const uint32_t *mock_srt_rec_words(unsigned i, uint32_t *qpn)
{
	if (i >= srt_n)
		return 0;
	*qpn = srt_recs[i].qpn;
	return srt_recs[i].w;
}

/* ---- The transmit builder (rtl/tx_build; fw_tc txb_*) as the firmware sees it: a txb_cmd3 store
 * runs the engine's rule (tb/tx_build/txb_ref.h, the block testbench's reference) on the command
 * and the WQEBB it names in the window (read as the engine reads it: a capture may be overtaken
 * meanwhile, mock_bf_reads_left), then, when SENT, records the tx_desc as a transmit commit (arg
 * MOCK_TXB_ARG) and appends the sr_rec to the send-retirement model, WQE by WQE of a run
 * (txb_cmd.more; mock_txb_run_counts[n]: commands of n WQEs); txb_status answers busy for
 * mock_txb_busy_reads loads after each command. Only with hw_caps.tx_build: a command without it
 * is counted in mock_txb_unexpected. */
unsigned mock_txb_cmds, mock_txb_busy_reads, mock_txb_unexpected, mock_txb_results[16];
uint32_t mock_txb_cmd_words[4];
int mock_txb_free = -1;
unsigned mock_txb_run_counts[16];
static uint32_t txb_status, txb_dropped, txb_sent;
static unsigned txb_busy_left;

static uint32_t txb_load(void)
{
	if (txb_busy_left) {
		txb_busy_left--;
		return rnic_txb_status_mk_busy(1);
	}
	return txb_status | rnic_txb_status_mk_dropped(txb_dropped);
}

static uint32_t txb_run_load(void)
{
	return txb_busy_left ? 0 : rnic_txb_run_mk_sent(txb_sent);
}

static void txb_cmd(uint32_t w3)
{
	if (!(mock_mmio_rd32(RNIC_FW_REG_HW_CAPS) & RNIC_HW_CAPS_TX_BUILD_MASK)) {
		mock_txb_unexpected++;
		return;
	}
	if (txb_busy_left) { /* stored while busy: dropped (tx_build_tc) */
		txb_dropped = 1;
		return;
	}
	txb_dropped = 0;
	mock_txb_cmds++;
	uint32_t cmd[4] __attribute__((aligned(8))) = { mock_tc[RNIC_FW_TC_TXB_CMD0 / 4], mock_tc[RNIC_FW_TC_TXB_CMD1 / 4],
							  mock_tc[RNIC_FW_TC_TXB_CMD2 / 4], w3 };
	memcpy(mock_txb_cmd_words, cmd, sizeof(cmd));
	/* the run, WQE by WQE as the engine walks it: each WQEBB read from its slot, the rule
	 * applied with the previous WQE's next PSN; it stops at the first not sent */
	uint32_t count = txb_ref_count((const uint8_t *)cmd), psn = rnic_txb_cmd_get_psn(cmd), result = RNIC_TXB_RESULT_SENT;
	int forced = mock_txb_free;
	mock_txb_run_counts[count & 15]++;
	txb_sent = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint8_t ci[RNIC_TXB_CMD_SIZE] __attribute__((aligned(8)));
		txb_ref_wqe_cmd((const uint8_t *)cmd, i, psn, ci);
		uint8_t w[RNIC_WQEBB_BYTES] __attribute__((aligned(8)));
		uint32_t src = rnic_txb_cmd_get_src_bb(ci) * RNIC_WQEBB_BYTES;
		for (uint32_t k = 0; k < RNIC_WQEBB_BYTES / 4; k++)
			rnic_st_le32(w + 4 * k, mock_tc_rd32(src + 4 * k));
		int held = 1;
		if (rnic_txb_cmd_get_bf(cmd)) {
			uint32_t b = mock_tc_rd32(RNIC_FW_TC_BF_STATUS);
			held = rnic_bf_status_v_valid(b) && rnic_bf_status_v_seq(b) == rnic_txb_cmd_get_bf_seq(cmd) &&
			       rnic_bf_status_v_page(b) == rnic_txb_cmd_get_page(cmd);
		}
		struct txb_ref_out o;
		uint32_t free = RNIC_SQ_RETIRE_RECS - srt_n;
		txb_ref(ci, w, held, forced >= 0 ? (uint32_t)forced : free, &o);
		/* the record port busy all along (mock_srt_rec_busy): the engine gives up after
		 * device.txb_wait cycles (WAIT), nothing sent */
		if (o.result == RNIC_TXB_RESULT_SENT && o.has_rec && mock_srt_rec_busy)
			o.result = RNIC_TXB_RESULT_WAIT;
		mock_txb_results[o.result & 15]++;
		if (o.result != RNIC_TXB_RESULT_SENT) {
			result = o.result;
			break;
		}
		uint32_t t[RNIC_TX_DESC_SIZE / 4];
		for (uint32_t k = 0; k < RNIC_TX_DESC_SIZE / 4; k++)
			t[k] = rnic_ld_le32(o.txd + 4 * k);
		mock_commit(RNIC_FW_TC_TXD_COMMIT, t, 0, RNIC_TX_DESC_SIZE / 4, MOCK_TXB_ARG);
		if (o.has_rec) { /* the engine's own record register: the firmware's words are kept */
			uint32_t keep[6];
			memcpy(keep, srt_w, sizeof(keep));
			for (uint32_t k = 0; k < 6; k++)
				srt_w[k] = rnic_ld_le32(o.rec + 4 * k);
			srt_store(RNIC_FW_TC_SRT_REC_QPN, rnic_sr_rec_get_qpn(o.rec));
			memcpy(srt_w, keep, sizeof(keep));
			if (forced > 0)
				forced--; /* the forced pool: this run's records come out of it */
		}
		psn = o.next_psn;
		txb_sent++;
	}
	txb_status = rnic_txb_status_mk_result(result) | rnic_txb_status_mk_next_psn(psn);
	txb_busy_left = mock_txb_busy_reads;
}
