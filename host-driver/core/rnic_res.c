/* Bitmap ID allocators with range and double-free checks. */
#include "rnic_res.h"
#include "rnic_compat.h"

int rnic_id_init(struct rnic_id_alloc *a, uint32_t min, uint32_t max)
{
	memset(a, 0, sizeof(*a));
	if (min >= max || max > RNIC_ID_MAX)
		return -EINVAL;
	a->min = min;
	a->max = max;
	a->next = min;
	return 0;
}

static int bit_test(const struct rnic_id_alloc *a, uint32_t id)
{
	return (a->bits[id / 32] >> (id % 32)) & 1u;
}

int rnic_id_in_use(const struct rnic_id_alloc *a, uint32_t id)
{
	return id >= a->min && id < a->max && bit_test(a, id);
}

int rnic_id_get(struct rnic_id_alloc *a, uint32_t *id)
{
	uint32_t span = a->max - a->min, i = a->next;

	if (a->used >= span)
		return -ENOSPC;
	/* Word-at-a-time scan from next, wrapping once. */
	for (uint32_t seen = 0; seen < span;) {
		uint32_t w = a->bits[i / 32], b = i % 32;

		if (w == 0xFFFFFFFFu && b == 0 && i + 32 <= a->max) {
			seen += 32;
			i += 32;
		} else {
			if (!((w >> b) & 1u)) {
				a->bits[i / 32] |= 1u << b;
				a->used++;
				a->next = i + 1 == a->max ? a->min : i + 1;
				*id = i;
				return 0;
			}
			seen++;
			i++;
		}
		if (i >= a->max)
			i = a->min;
	}
	return -ENOSPC; /* not reached while used is exact */
}

int rnic_id_reserve(struct rnic_id_alloc *a, uint32_t id)
{
	if (id < a->min || id >= a->max)
		return -EINVAL;
	if (bit_test(a, id))
		return -EEXIST;
	a->bits[id / 32] |= 1u << (id % 32);
	a->used++;
	return 0;
}

int rnic_id_put(struct rnic_id_alloc *a, uint32_t id)
{
	if (id < a->min || id >= a->max || !bit_test(a, id))
		return -EINVAL;
	a->bits[id / 32] &= ~(1u << (id % 32));
	a->used--;
	return 0;
}

static uint32_t limit(uint32_t first, uint32_t n, uint32_t cap)
{
	/* n objects numbered from first, within [first, cap). */
	return n == 0 || n > cap - first ? cap : first + n;
}

int rnic_res_init(struct rnic_res *r, const struct rnic_os *os, const struct rnic_res_limits *lim)
{
	static const struct rnic_res_limits none;
	int rc = 0;

	if (!lim)
		lim = &none;
	r->os = os;
	rc |= rnic_id_init(&r->ids[RNIC_RES_PD], 1, limit(1, lim->max_pd, RNIC_ID_MAX));
	rc |= rnic_id_init(&r->ids[RNIC_RES_CQ], 1, limit(1, lim->max_cq, RNIC_ID_MAX));
	rc |= rnic_id_init(&r->ids[RNIC_RES_QP], 2, limit(2, lim->max_qp, RNIC_ID_MAX));
	rc |= rnic_id_init(&r->ids[RNIC_RES_AH], 1, limit(1, lim->max_ah, RNIC_ID_MAX));
	/* User contexts are doorbell pages: 512 of them, page 0 the kernel's. */
	rc |= rnic_id_init(&r->ids[RNIC_RES_UCTX], 1,
			   lim->num_uctx && lim->num_uctx < 512 ? lim->num_uctx : 512);
	return rc ? -EINVAL : 0;
}

static int res_op(struct rnic_res *r, enum rnic_res_kind k, uint32_t *id, int op)
{
	int rc;

	if ((unsigned)k >= RNIC_RES_NUM)
		return -EINVAL;
	if (r->os && r->os->lock)
		r->os->lock(r->os->ctx, RNIC_LOCK_RES);
	rc = op == 0 ? rnic_id_get(&r->ids[k], id)
	     : op == 1 ? rnic_id_reserve(&r->ids[k], *id) : rnic_id_put(&r->ids[k], *id);
	if (r->os && r->os->unlock)
		r->os->unlock(r->os->ctx, RNIC_LOCK_RES);
	return rc;
}

int rnic_res_get(struct rnic_res *r, enum rnic_res_kind k, uint32_t *id)
{
	return res_op(r, k, id, 0);
}

int rnic_res_reserve(struct rnic_res *r, enum rnic_res_kind k, uint32_t id)
{
	return res_op(r, k, &id, 1);
}

int rnic_res_put(struct rnic_res *r, enum rnic_res_kind k, uint32_t id)
{
	return res_op(r, k, &id, 2);
}
