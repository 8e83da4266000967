/* Host-software unit tests: driver core (command queue, MTT, IDs, EQ) and provider data path
 * (WQEs, doorbells, CQ polling). Seed: argv[1] or 1. */
#include <stdlib.h>

#include "tb_host.h"

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;

	printf("INFO seed %llu\n", (unsigned long long)seed);
	tb_seed(seed);
	test_cmdq();
	test_cmdq_mt();
	test_mr();
	test_res();
	test_eq();
	test_wqe();
	test_db();
	test_cq();
	printf("INFO %u checks, %s\n", tb_checks, tb_failed ? "some failed" : "all passed");
	return tb_failed;
}
