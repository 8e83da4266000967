/* ID allocators: ranges, exhaustion, double free, reserve, a seeded random walk against a model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rnic_res.h"
#include "tb_host.h"

void test_res(void)
{
	static struct rnic_id_alloc a;
	static struct rnic_res r;
	static uint8_t model[RNIC_ID_MAX];
	uint32_t id = 0;
	int ok;

	CHECK(rnic_id_init(&a, 5, 5) == -EINVAL && rnic_id_init(&a, 0, RNIC_ID_MAX + 1) == -EINVAL, "id-init-bad-range");
	CHECK(rnic_id_init(&a, 1, 4) == 0, "id-init");
	ok = rnic_id_get(&a, &id) == 0 && id == 1;
	ok = ok && rnic_id_get(&a, &id) == 0 && id == 2;
	ok = ok && rnic_id_get(&a, &id) == 0 && id == 3;
	CHECK(ok, "id-get-from-min");
	CHECK(rnic_id_get(&a, &id) == -ENOSPC, "id-full-enospc");
	CHECK(rnic_id_put(&a, 2) == 0 && rnic_id_put(&a, 2) == -EINVAL, "id-double-free-einval");
	CHECK(rnic_id_put(&a, 0) == -EINVAL && rnic_id_put(&a, 4) == -EINVAL, "id-free-out-of-range-einval");
	CHECK(rnic_id_get(&a, &id) == 0 && id == 2 && rnic_id_get(&a, &id) == -ENOSPC, "id-reuse-after-free");
	CHECK(rnic_id_reserve(&a, 3) == -EEXIST && rnic_id_reserve(&a, 9) == -EINVAL, "id-reserve-checks");
	rnic_id_put(&a, 3);
	CHECK(rnic_id_reserve(&a, 3) == 0 && rnic_id_in_use(&a, 3), "id-reserve");

	/* Round robin: a freed ID is not handed out again before fresh ones. */
	rnic_id_init(&a, 0, 100);
	rnic_id_get(&a, &id);
	rnic_id_get(&a, &id);
	rnic_id_put(&a, 0);
	CHECK(rnic_id_get(&a, &id) == 0 && id == 2, "id-round-robin-fresh-first");

	/* The whole QP space (2..65535): fill it, then one freed number comes back. */
	rnic_id_init(&a, 2, RNIC_ID_MAX);
	ok = 1;
	for (uint32_t i = 2; i < RNIC_ID_MAX; i++)
		ok &= rnic_id_get(&a, &id) == 0 && id == i;
	CHECK(ok && rnic_id_get(&a, &id) == -ENOSPC && a.used == RNIC_ID_MAX - 2, "id-fill-65534-qpns");
	CHECK(rnic_id_put(&a, 40000) == 0 && rnic_id_get(&a, &id) == 0 && id == 40000, "id-full-space-finds-hole");

	/* Random walk against a byte model. */
	rnic_id_init(&a, 1, 3000);
	memset(model, 0, sizeof(model));
	unsigned used = 0;
	ok = 1;
	for (int step = 0; step < 200000 && ok; step++) {
		uint32_t x = 1 + tb_rand_below(2999);
		switch (tb_rand_below(3)) {
		case 0:
			if (rnic_id_get(&a, &id) == 0) {
				ok &= id >= 1 && id < 3000 && !model[id];
				model[id] = 1;
				used++;
			} else {
				ok &= used == 2999;
			}
			break;
		case 1:
			ok &= rnic_id_put(&a, x) == (model[x] ? 0 : -EINVAL);
			used -= model[x];
			model[x] = 0;
			break;
		default:
			ok &= rnic_id_reserve(&a, x) == (model[x] ? -EEXIST : 0);
			used += !model[x];
			model[x] = 1;
			break;
		}
		ok &= a.used == used;
	}
	CHECK(ok, "id-random-walk-matches-model");

	struct mock_dev dev;
	struct rnic_os os;
	mock_init(&dev, &os, 0);
	struct rnic_res_limits lim = { .max_pd = 4, .max_cq = 0, .max_qp = 100, .max_ah = 2, .num_uctx = 512 };
	CHECK(rnic_res_init(&r, &os, &lim) == 0, "res-init");
	ok = 1;
	for (int i = 0; i < 4; i++)
		ok &= rnic_res_get(&r, RNIC_RES_PD, &id) == 0;
	CHECK(ok && rnic_res_get(&r, RNIC_RES_PD, &id) == -ENOSPC, "res-pd-limit");
	CHECK(rnic_res_get(&r, RNIC_RES_QP, &id) == 0 && id == 2, "res-qpn-starts-at-2");
	CHECK(rnic_res_reserve(&r, RNIC_RES_QP, 101) == 0 && rnic_res_reserve(&r, RNIC_RES_QP, 102) == -EINVAL,
	      "res-qp-limit-range");
	CHECK(rnic_res_get(&r, RNIC_RES_UCTX, &id) == 0 && id == 1 && rnic_res_reserve(&r, RNIC_RES_UCTX, 511) == 0 &&
		      rnic_res_reserve(&r, RNIC_RES_UCTX, 512) == -EINVAL,
	      "res-uctx-pages-1-to-511");
	CHECK(rnic_res_reserve(&r, RNIC_RES_CQ, 65535) == 0, "res-cq-unlimited-to-65535");
	CHECK(rnic_res_put(&r, RNIC_RES_AH, 1) == -EINVAL && rnic_res_put(&r, RNIC_RES_NUM, 1) == -EINVAL,
	      "res-put-unused-einval");
	CHECK(dev.lock_errors == 0 && dev.lock_depth[RNIC_LOCK_RES] == 0, "res-lock-balanced");
}
