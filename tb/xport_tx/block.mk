# tb/xport_tx/block.mk: transmit transport engine (rtl/xport_tx) with the real mkey_table and
# dma_engine, a hostile AXI slave and the tb/roce/ref reference frame builder.
XPORT_TX_BUILD := $(BUILD)/xport_tx
XPORT_TX_SV    := tb/xport_tx/xport_tx_tb_top.sv
XPORT_TX_CPP   := tb/xport_tx/tb_xport_tx.cpp tb/roce/ref/roce_ref.cpp
XPORT_TX_DEPS  := $(RTL_SRCS) $(RTL_VLT) $(XPORT_TX_SV) $(XPORT_TX_CPP) tb/roce/ref/roce_ref.h \
                  tb/dma/axi_slave_model.h tb/dma/vl_bits.h spec/include/rnic_spec.h
XPORT_TX_SEED  ?= 1

TEST_SUITES += xport_tx
LINT_TOPS   += xport_tx
SYNTH_TOPS  += xport_tx
BENCHES     += xport_tx

# two models: the default 512-bit data path and a 64-bit one (packer and realignment corners)
$(XPORT_TX_BUILD)/w%/Vxport_tx_tb_top: $(XPORT_TX_DEPS)
	$(call verilate,$(XPORT_TX_BUILD)/w$*,xport_tx_tb_top,$(XPORT_TX_SV),$(XPORT_TX_CPP),-GDataWidth=$* -CFLAGS -I$(CURDIR)/tb/roce -CFLAGS -DTB_DW=$*)

.PHONY: test-xport_tx bench-xport_tx
test-xport_tx: $(XPORT_TX_BUILD)/w512/Vxport_tx_tb_top $(XPORT_TX_BUILD)/w64/Vxport_tx_tb_top
	@rc=0; for w in 512 64; do \
	  $(XPORT_TX_BUILD)/w$$w/Vxport_tx_tb_top --seed $(XPORT_TX_SEED) --out $(XPORT_TX_BUILD) \
	    | sed "s/^\(PASS\|FAIL\) /\1 w$$w-/"; test $${PIPESTATUS[0]} -eq 0 || rc=1; \
	done; exit $$rc

bench-xport_tx: $(XPORT_TX_BUILD)/w512/Vxport_tx_tb_top
	@mkdir -p $(BUILD)/bench
	$(XPORT_TX_BUILD)/w512/Vxport_tx_tb_top --bench --seed $(XPORT_TX_SEED) | tee $(BUILD)/bench/xport_tx.txt
