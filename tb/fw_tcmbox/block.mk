# tb/fw_tcmbox/block.mk: the descriptor mailboxes on the soft core's tightly coupled window
# (rnic_fw_tcmbox: tx_desc, rq_desc, rd_desc as rnic_fw_subsys wires them): block testbench, lint top.
TCMB_BUILD := $(BUILD)/fw_tcmbox
TCMB_SV    := tb/fw_tcmbox/fw_tcmbox_tb_top.sv
TCMB_CPP   := tb/fw_tcmbox/tb_fw_tcmbox.cpp
TCMB_DEPS  := $(TCMB_SV) $(TCMB_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
              rtl/core/rnic_fw_tcmbox.sv rtl/core/rnic_fw_mbox_out.sv rtl/common/rnic_spec_pkg.sv
TCMB_SEED  ?= 1

TEST_SUITES += fw_tcmbox
LINT_TOPS   += rnic_fw_tcmbox

$(TCMB_BUILD)/Vfw_tcmbox_tb_top: $(TCMB_DEPS)
	$(call verilate,$(TCMB_BUILD),fw_tcmbox_tb_top,$(TCMB_SV),$(TCMB_CPP))

.PHONY: test-fw_tcmbox
test-fw_tcmbox: $(TCMB_BUILD)/Vfw_tcmbox_tb_top
	@$(TCMB_BUILD)/Vfw_tcmbox_tb_top --seed $(TCMB_SEED)
