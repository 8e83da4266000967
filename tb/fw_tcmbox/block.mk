# tb/fw_tcmbox/block.mk: the descriptor mailboxes on the soft core's tightly coupled window
# (rnic_fw_desc_mbox: the tx_desc, rq_desc, rd_desc instances of rnic_fw_tcmbox, as in
# rnic_fw_subsys): block testbench, lint tops.
TCMB_BUILD := $(BUILD)/fw_tcmbox
TCMB_CPP   := tb/fw_tcmbox/tb_fw_tcmbox.cpp
TCMB_DEPS  := $(TCMB_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
              rtl/core/rnic_fw_desc_mbox.sv rtl/core/rnic_fw_tcmbox.sv rtl/core/rnic_fw_mbox_out.sv \
              rtl/common/rnic_spec_pkg.sv
TCMB_SEED  ?= 1

TEST_SUITES += fw_tcmbox
LINT_TOPS   += rnic_fw_tcmbox rnic_fw_desc_mbox

$(TCMB_BUILD)/Vrnic_fw_desc_mbox: $(TCMB_DEPS)
	$(call verilate,$(TCMB_BUILD),rnic_fw_desc_mbox,,$(TCMB_CPP))

.PHONY: test-fw_tcmbox
test-fw_tcmbox: $(TCMB_BUILD)/Vrnic_fw_desc_mbox
	@$(TCMB_BUILD)/Vrnic_fw_desc_mbox --seed $(TCMB_SEED)
