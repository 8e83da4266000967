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

#endif /* FW_WQF_H */
