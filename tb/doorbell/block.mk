# tb/doorbell/block.mk: the doorbell BAR (rtl/doorbell): block testbench at 512 and 64 bits (a
# small FIFO and hold so back-pressure and drops come quickly), lint/synth top.
DBB_BUILD   := $(BUILD)/doorbell
DBB_TB_CPP  := tb/doorbell/tb_doorbell_bar.cpp
DBB_TB_DEPS := $(DBB_TB_CPP) tb/common/tb_check.h spec/include/rnic_spec.h \
               $(wildcard rtl/doorbell/*.sv) rtl/common/rnic_spec_pkg.sv
DBB_SEED    ?= 1
DBB_OPS     ?= 1500
DBB_PARAMS  := -GDepth=16 -GHoldCycles=64 -CFLAGS -DTB_DEPTH=16 -CFLAGS -DTB_HOLD=64

TEST_SUITES += doorbell
TEST_LONG   += doorbell-long
LINT_TOPS   += doorbell_bar
SYNTH_TOPS  += doorbell_bar

$(DBB_BUILD)/w512/Vdoorbell_bar: $(DBB_TB_DEPS)
	$(call verilate,$(DBB_BUILD)/w512,doorbell_bar,,$(DBB_TB_CPP),-GDataWidth=512 -CFLAGS -DTB_DATA_WIDTH=512 $(DBB_PARAMS))
$(DBB_BUILD)/w64/Vdoorbell_bar: $(DBB_TB_DEPS)
	$(call verilate,$(DBB_BUILD)/w64,doorbell_bar,,$(DBB_TB_CPP),-GDataWidth=64 -CFLAGS -DTB_DATA_WIDTH=64 $(DBB_PARAMS))

.PHONY: test-doorbell test-doorbell-long
test-doorbell: $(DBB_BUILD)/w512/Vdoorbell_bar $(DBB_BUILD)/w64/Vdoorbell_bar
	@rc=0; for w in w512 w64; do \
	  $(DBB_BUILD)/$$w/Vdoorbell_bar --seed $(DBB_SEED) --ops $(DBB_OPS) | sed "s/^\(PASS\|FAIL\) /\1 $$w-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
test-doorbell-long:
	@$(MAKE) --no-print-directory test-doorbell DBB_OPS=50000 DBB_SEED=$(or $(SEED),7)
