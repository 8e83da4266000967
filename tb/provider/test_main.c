/* Provider verbs-layer tests on a mock backend: what ibv_* calls turn into (WQE and CQE
 * bytes, doorbells, backend requests) and what they refuse. */
#include "tb_prov.h"

int main(void)
{
	test_reg();
	test_dev();
	test_qp();
	test_post();
	test_cq();
	test_mt();
	test_ex();
	printf("INFO %u checks, %s\n", tb_checks, tb_failed ? "some failed" : "all passed");
	return tb_failed;
}
