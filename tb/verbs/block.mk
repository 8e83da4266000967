# Suite verbs: unmodified ibverbs-utils and perftest binaries against two simulated NICs
# (sim/rnic-sim: the simulator service and the rdma-core provider). Figures in build/verbs/.
TEST_SUITES += verbs
test-verbs: $(SIM_BIN) provider
	@tb/verbs/test_verbs.sh

# Our own libibverbs program for bad input and isolation (tb/verbs/verbs_check.c).
VERBS_CHECK := $(BUILD)/verbs-bin/verbs_check
$(VERBS_CHECK): tb/verbs/verbs_check.c host-driver/provider/rnicp_sim_proto.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=c11 -O2 -g -Wall -Wextra -Werror -Ispec/include -Ihost-driver/core -Ihost-driver/provider $< -o $@ -libverbs
test-verbs: $(VERBS_CHECK)
