/* Which soft core this is and which QPs are its own (docs/decisions/multi-core.md). One image runs
 * on every core: the owner of QP qpn is core qpn mod the core count (a power of two up to spec
 * device.max_cores, told in hw_caps.log2_cores); what has no QP (commands, CQs, the EQ, ARP) is
 * core 0's. fw_core_init reads mhartid and hw_caps once at boot. */
#ifndef FW_CORE_H
#define FW_CORE_H

#include <stdint.h>

extern uint32_t fw_core_id;   /* this core's mhartid */
extern uint32_t fw_core_mask; /* the core count - 1 (0 with one core: every QP is owned) */

void fw_core_init(void);

/* The owner rule. The data path's scans over QPs do not call it: each core's in-use flags
 * (fw_res.qp_used, in its own QP-context RAM) are set only for the QPs it owns, by the owner
 * itself at CREATE_QP, so `fw_res.qp_used[q]` is the ownership test there at no cost
 * (fw_qp_mine, fw_res.h). The command path on core 0 uses it to send a QP's commands to its
 * owner. */
static inline int fw_owns_qp(uint32_t qpn) { return (qpn & fw_core_mask) == fw_core_id; }

#endif /* FW_CORE_H */
