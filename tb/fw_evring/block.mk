# tb/fw_evring/block.mk: the receive-event path to the firmware (rnic_event_merge in front of
# rnic_fw_evring, the ring on the soft core's tightly coupled window): block testbench, lint/synth top.
EVR_BUILD := $(BUILD)/fw_evring
EVR_SV    := tb/fw_evring/fw_evring_tb_top.sv
EVR_CPP   := tb/fw_evring/tb_fw_evring.cpp
EVR_DEPS  := $(EVR_SV) $(EVR_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
             rtl/core/rnic_fw_evring.sv rtl/core/rnic_event_merge.sv rtl/common/rnic_fifo.sv rtl/common/rnic_spec_pkg.sv
EVR_SEED  ?= 1

TEST_SUITES += fw_evring
LINT_TOPS   += rnic_fw_evring

$(EVR_BUILD)/Vfw_evring_tb_top: $(EVR_DEPS)
	$(call verilate,$(EVR_BUILD),fw_evring_tb_top,$(EVR_SV),$(EVR_CPP))

.PHONY: test-fw_evring
test-fw_evring: $(EVR_BUILD)/Vfw_evring_tb_top
	@$(EVR_BUILD)/Vfw_evring_tb_top --seed $(EVR_SEED)
