# tb/qpc_ram/block.mk: the QP-context RAM (rnic_qpc_ram) alone, driven as the soft core's tightly
# coupled port drives it: stores posted and written a cycle later, one-cycle loads.
QPCR_BUILD := $(BUILD)/qpc_ram
QPCR_CPP   := tb/qpc_ram/tb_qpc_ram.cpp
QPCR_DEPS  := $(QPCR_CPP) tb/common/tb_check.h rtl/core/rnic_qpc_ram.sv
QPCR_SEED  ?= 1

TEST_SUITES += qpc_ram

# 8 QPs x 64 bytes: 128 words, so random addresses hit the word just stored often
$(QPCR_BUILD)/Vrnic_qpc_ram: $(QPCR_DEPS)
	$(call verilate,$(QPCR_BUILD),rnic_qpc_ram,,$(QPCR_CPP),-GNumQps=8 -GEntryBytes=64)

.PHONY: test-qpc_ram
test-qpc_ram: $(QPCR_BUILD)/Vrnic_qpc_ram
	@$(QPCR_BUILD)/Vrnic_qpc_ram --seed $(QPCR_SEED)
