# tb/xport_rx/block.mk: receive-side transport engine (rtl/xport_rx): tests, lint/synth tops.
# Models at 512 and 64 bits plus a 128-bit line-coverage model of tb/xport_rx/xport_rx_tb_top.sv:
# xport_rx with its QP table (rtl/qp_table) + mkey_table + dma_engine, and a real roce_rx in front that the test switches in for
# its frame-level section (frames built by tb/roce/ref). Host memory = the AXI slave model of tb/dma.
XRX_BUILD   := $(BUILD)/xport_rx
XRX_TB_SV   := tb/xport_rx/xport_rx_tb_top.sv
XRX_TB_CPP  := tb/xport_rx/tb_xport_rx.cpp tb/roce/ref/roce_ref.cpp
XRX_TB_DEPS := $(XRX_TB_SV) $(XRX_TB_CPP) spec/include/rnic_spec.h tb/dma/axi_slave_model.h tb/dma/vl_bits.h tb/common/tb_check.h tb/roce/ref/roce_ref.h \
               $(wildcard rtl/xport_rx/*.sv rtl/xport_rx/*.vlt rtl/qp_table/*.sv rtl/mkey/*.sv rtl/dma/*.sv rtl/roce/*.sv) \
               rtl/common/rnic_spec_pkg.sv rtl/common/rnic_fifo.sv
XRX_SEED    ?= 1

TEST_SUITES += xport_rx
LINT_TOPS   += xport_rx qp_table
SYNTH_TOPS  += xport_rx qp_table

XRX_WIDTHS  := 512 64

$(XRX_BUILD)/w%/Vxport_rx_tb_top: $(XRX_TB_DEPS)
	$(call verilate,$(XRX_BUILD)/w$*,xport_rx_tb_top,$(XRX_TB_SV),$(XRX_TB_CPP),-GDataWidth=$* \
	  -CFLAGS -I$(CURDIR)/tb/dma -CFLAGS -I$(CURDIR)/tb/common -CFLAGS -I$(CURDIR)/tb/roce -CFLAGS -DTB_DW=$*)

.PHONY: test-xport_rx
test-xport_rx: $(foreach w,$(XRX_WIDTHS),$(XRX_BUILD)/w$(w)/Vxport_rx_tb_top)
	@rc=0; for w in $(XRX_WIDTHS); do \
	  $(XRX_BUILD)/w$$w/Vxport_rx_tb_top --seed $(XRX_SEED) | sed "s/^\(PASS\|FAIL\) /\1 w$$w-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; \
	done; $(MAKE) --no-print-directory cov-xport_rx || rc=1; exit $$rc

# line coverage of rtl/xport_rx (128-bit model): build/coverage/xport_rx/{summary.txt,annotated/}
$(XRX_BUILD)/cov128/Vxport_rx_tb_top: $(XRX_TB_DEPS)
	$(call verilate,$(XRX_BUILD)/cov128,xport_rx_tb_top,$(XRX_TB_SV),$(XRX_TB_CPP),-GDataWidth=128 --coverage-line \
	  -CFLAGS -I$(CURDIR)/tb/dma -CFLAGS -I$(CURDIR)/tb/common -CFLAGS -I$(CURDIR)/tb/roce -CFLAGS -DTB_DW=128)

.PHONY: cov-xport_rx
cov-xport_rx: $(XRX_BUILD)/cov128/Vxport_rx_tb_top
	@rm -rf $(BUILD)/coverage/xport_rx; mkdir -p $(BUILD)/coverage/xport_rx
	@XRX_COV_FILE=$(BUILD)/coverage/xport_rx/coverage.dat $< --seed $(XRX_SEED) | sed 's/^\(PASS\|FAIL\) /\1 cov128-/'; \
	  test $${PIPESTATUS[0]} -eq 0
	@tb/xport_rx/coverage.sh $(BUILD)/coverage/xport_rx
