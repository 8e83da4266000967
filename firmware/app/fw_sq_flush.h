/* Send queues, errors and flushes (fw_sq_flush.c): the move to ERR, WR_FLUSH_ERR completions of
 * sent and unsent WQEs, a WQE fetch that failed, forgetting a QP's send state (fw_qp_fatal,
 * fw_qp_to_err, fw_sq_release: fw_xport.h). */
#ifndef FW_SQ_FLUSH_H
#define FW_SQ_FLUSH_H

#include <stdint.h>

/* WQEs the host posted that were never sent complete with WR_FLUSH_ERR, in order. */
void flush_unsent(uint32_t qpn);
/* The WQE at idx could not be fetched: LOC_QP_OP_ERR, QP to ERR, the rest flushed. 0. */
uint32_t sq_fetch_failed(uint32_t qpn, uint32_t idx);

#endif /* FW_SQ_FLUSH_H */
