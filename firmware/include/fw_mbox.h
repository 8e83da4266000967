/* Firmware-to-hardware mailboxes: the memory-key and QP-table ones on MMIO (spec fw_mmio
 * *_data / *_commit / *_status), the descriptor ones on the tightly coupled window (spec fw_tc
 * mbox_regs: txd_*, rqd_*, rdd_*). */
#ifndef FW_MBOX_H
#define FW_MBOX_H

#include <stdint.h>

/* Waits (bounded) until the mailbox is free, writes words data words, commits with arg.
 * 0, or -1 when the block never took the previous commit. */
int fw_mbox_send(uint32_t data_off, uint32_t commit_off, uint32_t status_off, const uint8_t *data,
		 uint32_t words, uint32_t arg);
/* The same for a descriptor mailbox on the tightly coupled window (fw_tc offsets): one-cycle
 * stores, two-cycle status loads. */
int fw_tc_mbox_send(uint32_t data_off, uint32_t commit_off, uint32_t status_off, const uint8_t *data,
		    uint32_t words, uint32_t arg);
/* The memory-key table's mailbox: op is an mkey_wr_op, data an mpt_entry (or mtt_entry). */
int fw_mkey_write(uint32_t op, uint32_t index, const uint8_t *data);

#endif /* FW_MBOX_H */
