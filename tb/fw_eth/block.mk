# tb/fw_eth/block.mk: the firmware's Ethernet path (rtl/core/rnic_fw_eth: ARP receive queue,
# firmware frames merged into the MAC transmit stream) at 512 and 64 bits.
FW_ETH_BUILD := $(BUILD)/fw_eth
FW_ETH_CPP   := tb/fw_eth/tb_fw_eth.cpp
FW_ETH_DEPS  := $(RTL_SRCS) $(RTL_VLT) $(FW_ETH_CPP) tb/dma/vl_bits.h tb/common/tb_check.h spec/include/rnic_spec.h
FW_ETH_SEED  ?= 1

TEST_SUITES += fw_eth
LINT_TOPS   += rnic_fw_eth

$(FW_ETH_BUILD)/w%/Vrnic_fw_eth: $(FW_ETH_DEPS)
	$(call verilate,$(FW_ETH_BUILD)/w$*,rnic_fw_eth,,$(FW_ETH_CPP),-GDataWidth=$* -CFLAGS -DTB_DW=$*)

.PHONY: test-fw_eth
test-fw_eth: $(FW_ETH_BUILD)/w512/Vrnic_fw_eth $(FW_ETH_BUILD)/w64/Vrnic_fw_eth
	@rc=0; for w in 512 64; do $(FW_ETH_BUILD)/w$$w/Vrnic_fw_eth --seed $(FW_ETH_SEED) || rc=1; done; exit $$rc
