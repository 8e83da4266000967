# tb/pfc/block.mk: priority flow control at the MAC edge (rtl/roce/roce_pfc_gate.sv): block
# testbench at 512 and 64 bits (at 64 the priority byte is in the second beat), lint top. The
# system test (test-rdma-pfc) is suite pfc in sim/block.mk.
PFC_BUILD   := $(BUILD)/pfc
PFC_TB_CPP  := tb/pfc/tb_pfc_gate.cpp
PFC_TB_DEPS := $(PFC_TB_CPP) tb/common/tb_check.h rtl/roce/roce_pfc_gate.sv rtl/roce/roce_pkg.sv
PFC_SEED    ?= 1
PFC_FRAMES  ?= 400

LINT_TOPS   += roce_pfc_gate

$(PFC_BUILD)/w512/Vroce_pfc_gate: $(PFC_TB_DEPS)
	$(call verilate,$(PFC_BUILD)/w512,roce_pfc_gate,,$(PFC_TB_CPP),-GDataWidth=512 -CFLAGS -DTB_DATA_WIDTH=512)
$(PFC_BUILD)/w64/Vroce_pfc_gate: $(PFC_TB_DEPS)
	$(call verilate,$(PFC_BUILD)/w64,roce_pfc_gate,,$(PFC_TB_CPP),-GDataWidth=64 -CFLAGS -DTB_DATA_WIDTH=64)

# suite pfc (sim/block.mk) runs these first
PFC_GATE_BINS := $(PFC_BUILD)/w512/Vroce_pfc_gate $(PFC_BUILD)/w64/Vroce_pfc_gate
.PHONY: test-pfc-gate
test-pfc-gate: $(PFC_GATE_BINS)
	@rc=0; for w in w512 w64; do \
	  $(PFC_BUILD)/$$w/Vroce_pfc_gate --seed $(PFC_SEED) --frames $(PFC_FRAMES) | sed "s/^\(PASS\|FAIL\) /\1 $$w-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
