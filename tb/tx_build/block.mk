# tb/tx_build/block.mk: the transmit builder (rtl/tx_build; docs/decisions/tx-build.md): block
# testbench against txb_ref.h (the firmware's send_fast/rec_srt rule from the spec's layouts) at
# the 100g configuration's 512-bit rows (one per WQEBB) and at 64 bits (eight), lint/synth top.
TXB_BUILD   := $(BUILD)/tx_build
TXB_TB_CPP  := tb/tx_build/tb_tx_build.cpp
TXB_TB_DEPS := $(TXB_TB_CPP) tb/tx_build/txb_ref.h tb/common/tb_check.h spec/include/rnic_spec.h \
               $(wildcard rtl/tx_build/*.sv) rtl/common/rnic_spec_pkg.sv
TXB_SEEDS   ?= 1 2 3
TXB_OPS     ?= 4000

TEST_SUITES += tx_build
TEST_LONG   += tx_build-long
LINT_TOPS   += tx_build
SYNTH_TOPS  += tx_build

$(TXB_BUILD)/w512/Vtx_build: $(TXB_TB_DEPS)
	$(call verilate,$(TXB_BUILD)/w512,tx_build,,$(TXB_TB_CPP),-GDataWidth=512 -CFLAGS -DTB_DW=512 -CFLAGS -I$(abspath tb/tx_build))
$(TXB_BUILD)/w64/Vtx_build: $(TXB_TB_DEPS)
	$(call verilate,$(TXB_BUILD)/w64,tx_build,,$(TXB_TB_CPP),-GDataWidth=64 -CFLAGS -DTB_DW=64 -CFLAGS -I$(abspath tb/tx_build))

.PHONY: test-tx_build test-tx_build-long
test-tx_build: $(TXB_BUILD)/w512/Vtx_build $(TXB_BUILD)/w64/Vtx_build
	@rc=0; for w in w512 w64; do for s in $(TXB_SEEDS); do \
	  $(TXB_BUILD)/$$w/Vtx_build --seed $$s --ops $(TXB_OPS) | sed "s/^\(PASS\|FAIL\) /\1 $$w-seed$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; done; exit $$rc
test-tx_build-long:
	@$(MAKE) --no-print-directory test-tx_build TXB_OPS=50000 TXB_SEEDS="$(or $(SEED),11 12 13 14)"

# The mutation check: each mutant of mutants.sh built from a copy of the RTL with one line changed
# must fail the testbench (make test-long).
TEST_LONG += tx_build-mutants
# (the verilate macro would add rtl/tx_build/tx_build.sv itself: the mutant replaces it here;
# -Wno-fatal: a mutant may leave a signal unused)
$(TXB_BUILD)/mut-%/Vtx_build: $(TXB_TB_DEPS) $(TXB_BUILD)/mut-%/rtl/tx_build.sv
	$(VERILATOR) $(VERILATOR_FLAGS) -Mdir $(@D) --top-module tx_build $(RTL_VLT) $(RTL_PKGS) $(@D)/rtl/tx_build.sv \
	  $(RTL_INCS) $(abspath $(TXB_TB_CPP)) -Wno-fatal -GDataWidth=512 -CFLAGS -DTB_DW=512 -CFLAGS -I$(abspath tb/tx_build) \
	  -o Vtx_build > $(@D)/verilator.log 2>&1 || { tail -40 $(@D)/verilator.log; exit 1; }
.PHONY: test-tx_build-mutants
test-tx_build-mutants:
	@tb/tx_build/mutants.sh $(TXB_BUILD)
