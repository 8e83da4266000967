# tb/fw_cores/block.mk: the multi-core stream blocks (docs/decisions/multi-core.md): the QPN router
# rnic_qpn_route and the round-robin arbiter rnic_rr_arb at 1, 2 and 4 cores; block testbench and
# lint tops (the core tile rnic_fw_tile is linted here too).
FWC_BUILD := $(BUILD)/fw_cores
FWC_SV    := tb/fw_cores/fw_cores_tb_top.sv
FWC_CPP   := tb/fw_cores/tb_fw_cores.cpp
FWC_DEPS  := $(FWC_SV) $(FWC_CPP) tb/common/tb_check.h sim/main/sim_waves.h \
             rtl/core/rnic_qpn_route.sv rtl/core/rnic_rr_arb.sv
FWC_SEED  ?= 1

TEST_SUITES += fw_cores
LINT_TOPS   += rnic_qpn_route rnic_rr_arb rnic_fw_tile

$(FWC_BUILD)/Vfw_cores_tb_top: $(FWC_DEPS)
	$(call verilate,$(FWC_BUILD),fw_cores_tb_top,$(FWC_SV),$(FWC_CPP))

.PHONY: test-fw_cores
test-fw_cores: $(FWC_BUILD)/Vfw_cores_tb_top
	@$(FWC_BUILD)/Vfw_cores_tb_top --seed $(FWC_SEED)
