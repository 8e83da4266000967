# tb/fw_dbring/block.mk: the doorbell ring on the soft core's tightly coupled window
# (rnic_fw_dbring, spec fw_tc dbr_*): block testbench, lint top.
DBR_BUILD := $(BUILD)/fw_dbring
DBR_CPP   := tb/fw_dbring/tb_fw_dbring.cpp
DBR_DEPS  := $(DBR_CPP) tb/common/tb_check.h spec/include/rnic_spec.h rtl/core/rnic_fw_dbring.sv \
             rtl/common/rnic_spec_pkg.sv
DBR_SEED  ?= 1

TEST_SUITES += fw_dbring
LINT_TOPS   += rnic_fw_dbring

$(DBR_BUILD)/Vrnic_fw_dbring: $(DBR_DEPS)
	$(call verilate,$(DBR_BUILD),rnic_fw_dbring,,$(DBR_CPP))

.PHONY: test-fw_dbring
test-fw_dbring: $(DBR_BUILD)/Vrnic_fw_dbring
	@$(DBR_BUILD)/Vrnic_fw_dbring --seed $(DBR_SEED)
