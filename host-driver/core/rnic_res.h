/* Resource bookkeeping: bitmap ID allocators for PD, CQ, QP, AH numbers and user contexts. The
 * firmware hands out the numbers; the kernel side either allocates here and checks, or records
 * what the firmware returned (rnic_id_reserve). No allocation: the bitmaps are embedded. */
#ifndef RNIC_RES_H
#define RNIC_RES_H

#include "rnic_os.h"

#define RNIC_ID_MAX 65536u /* QP and CQ numbers are below 65536 on this device */
#define RNIC_ID_WORDS(n) (((n) + 31u) / 32u)

struct rnic_id_alloc {
	uint32_t min, max;	/* valid IDs: [min, max) */
	uint32_t next;		/* where the next search starts (round robin: fresh IDs first) */
	uint32_t used;
	uint32_t bits[RNIC_ID_WORDS(RNIC_ID_MAX)];
};

/* IDs [min, max) with max <= RNIC_ID_MAX and min < max: 0 or -EINVAL. */
int rnic_id_init(struct rnic_id_alloc *a, uint32_t min, uint32_t max);
/* 0 with *id set, or -ENOSPC when every ID is taken. */
int rnic_id_get(struct rnic_id_alloc *a, uint32_t *id);
/* Marks a given ID used: 0, -EINVAL out of range, -EEXIST already used. */
int rnic_id_reserve(struct rnic_id_alloc *a, uint32_t id);
/* 0, or -EINVAL for an ID out of range or not in use (double free). */
int rnic_id_put(struct rnic_id_alloc *a, uint32_t id);
int rnic_id_in_use(const struct rnic_id_alloc *a, uint32_t id);

enum rnic_res_kind { RNIC_RES_PD, RNIC_RES_CQ, RNIC_RES_QP, RNIC_RES_AH, RNIC_RES_UCTX, RNIC_RES_NUM };

/* The per-device tables; the limits come from QUERY_DEVICE (0 means the largest). QP numbers
 * start at 2 (0 and 1 are the IBTA special QPs), user contexts at 1 (0 is the kernel's), other
 * handles at 1 (0 reads as "none"). About 40 KiB: allocate it, do not put it on a stack. */
struct rnic_res {
	const struct rnic_os *os;	/* for RNIC_LOCK_RES; may be NULL */
	struct rnic_id_alloc ids[RNIC_RES_NUM];
};

struct rnic_res_limits {
	uint32_t max_pd, max_cq, max_qp, max_ah, num_uctx;
};

int rnic_res_init(struct rnic_res *r, const struct rnic_os *os, const struct rnic_res_limits *lim);
/* Locked versions of get/reserve/put on one table. */
int rnic_res_get(struct rnic_res *r, enum rnic_res_kind k, uint32_t *id);
int rnic_res_reserve(struct rnic_res *r, enum rnic_res_kind k, uint32_t id);
int rnic_res_put(struct rnic_res *r, enum rnic_res_kind k, uint32_t id);

#endif /* RNIC_RES_H */
