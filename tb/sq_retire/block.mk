# tb/sq_retire/block.mk: the send-retirement engine (rtl/sq_retire): block testbench against a
# model of the firmware's retirement rules, lint/synth top; the receive-event fork that feeds its
# ACK port (rtl/core/rnic_event_merge_fork, tb_evt_fork.cpp) and its tightly coupled registers
# (rtl/sq_retire/sq_retire_tc, tb_sr_tc.cpp).
SQR_BUILD   := $(BUILD)/sq_retire
SQR_TB_CPP  := tb/sq_retire/tb_sq_retire.cpp
SQR_TB_DEPS := $(SQR_TB_CPP) tb/common/tb_check.h spec/include/rnic_spec.h \
               $(wildcard rtl/sq_retire/*.sv) rtl/common/rnic_spec_pkg.sv
SQR_SEEDS   ?= 1 2 3 4 5 6 7 8
SQR_OPS     ?= 20000

TEST_SUITES += sq_retire
TEST_LONG   += sq_retire-long
LINT_TOPS   += sq_retire
SYNTH_TOPS  += sq_retire

# NumQps 16 so that the random streams share QPs and pool; the 100g's 1024 is the synthesis figure
$(SQR_BUILD)/Vsq_retire: $(SQR_TB_DEPS)
	$(call verilate,$(SQR_BUILD),sq_retire,,$(SQR_TB_CPP),-GNumQps=16 -GNumRecs=64 -CFLAGS -DTB_NUM_QPS=16 -CFLAGS -DTB_NUM_RECS=64)

SQR_FORK_DEPS := tb/sq_retire/tb_evt_fork.cpp tb/common/tb_check.h spec/include/rnic_spec.h \
                 rtl/core/rnic_event_merge_fork.sv rtl/common/rnic_spec_pkg.sv
$(SQR_BUILD)/fork/Vrnic_event_merge_fork: $(SQR_FORK_DEPS)
	$(call verilate,$(SQR_BUILD)/fork,rnic_event_merge_fork,,tb/sq_retire/tb_evt_fork.cpp,-GNumQps=16)
SQR_TC_DEPS := tb/sq_retire/tb_sr_tc.cpp tb/common/tb_check.h spec/include/rnic_spec.h \
               rtl/sq_retire/sq_retire_tc.sv rtl/common/rnic_spec_pkg.sv
$(SQR_BUILD)/tc/Vsq_retire_tc: $(SQR_TC_DEPS)
	$(call verilate,$(SQR_BUILD)/tc,sq_retire_tc,,tb/sq_retire/tb_sr_tc.cpp,)

.PHONY: test-sq_retire test-sq_retire-long
test-sq_retire: $(SQR_BUILD)/Vsq_retire $(SQR_BUILD)/fork/Vrnic_event_merge_fork $(SQR_BUILD)/tc/Vsq_retire_tc
	@rc=0; for s in $(SQR_SEEDS); do \
	  $(SQR_BUILD)/Vsq_retire --seed $$s --ops $(SQR_OPS) | sed "s/^\(PASS\|FAIL\) /\1 seed$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; \
	for s in 1 2; do $(SQR_BUILD)/fork/Vrnic_event_merge_fork --seed $$s | sed "s/^\(PASS\|FAIL\) /\1 seed$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; \
	  $(SQR_BUILD)/tc/Vsq_retire_tc --seed $$s | sed "s/^\(PASS\|FAIL\) /\1 seed$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
test-sq_retire-long:
	@$(MAKE) --no-print-directory test-sq_retire SQR_OPS=200000 SQR_SEEDS="$(or $(SEED),11 12 13 14)"

# The mutation check: each mutant of mutants.sh built from a copy of the RTL with one line changed
# must fail the testbench (make test-long).
TEST_LONG += sq_retire-mutants
# (the verilate macro would add rtl/sq_retire/sq_retire.sv itself: the mutant replaces it here;
# -Wno-fatal: a mutant may leave a signal unused)
$(SQR_BUILD)/mut-%/Vsq_retire: $(SQR_TB_DEPS) $(SQR_BUILD)/mut-%/rtl/sq_retire.sv
	$(VERILATOR) $(VERILATOR_FLAGS) -Mdir $(@D) --top-module sq_retire $(RTL_VLT) $(RTL_PKGS) $(@D)/rtl/sq_retire.sv \
	  $(RTL_INCS) $(abspath $(SQR_TB_CPP)) -Wno-fatal -GNumQps=16 -GNumRecs=64 -CFLAGS -DTB_NUM_QPS=16 -CFLAGS -DTB_NUM_RECS=64 \
	  -o Vsq_retire > $(@D)/verilator.log 2>&1 || { tail -40 $(@D)/verilator.log; exit 1; }
.PHONY: test-sq_retire-mutants
test-sq_retire-mutants:
	@tb/sq_retire/mutants.sh $(SQR_BUILD)
