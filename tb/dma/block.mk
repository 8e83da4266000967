# tb/dma/block.mk: DMA engine (rtl/dma) testbench, coverage, lint/synth tops and benchmark.
DMA_TB_SRCS := tb/dma/tb_dma.cpp
DMA_TB_DEPS := $(DMA_TB_SRCS) tb/dma/axi_slave_model.h tb/dma/vl_bits.h $(wildcard rtl/dma/*.sv rtl/dma/*.vlt) rtl/common/rnic_fifo.sv
DMA_CLIENTS := -GNumRdClients=3 -GNumWrClients=2 -CFLAGS -DTB_NR=3 -CFLAGS -DTB_NW=2
DMA_SEED ?= 1

TEST_SUITES += dma
LINT_TOPS += dma_engine
SYNTH_TOPS += dma_engine
BENCHES += dma

# three models: 512-bit (default width), 64-bit, and a 128-bit line-coverage build
$(BUILD)/dma/w512/Vdma_engine: $(DMA_TB_DEPS)
	$(call verilate,$(BUILD)/dma/w512,dma_engine,,$(DMA_TB_SRCS),$(DMA_CLIENTS) -CFLAGS -DTB_DW=512)
$(BUILD)/dma/w64/Vdma_engine: $(DMA_TB_DEPS)
	$(call verilate,$(BUILD)/dma/w64,dma_engine,,$(DMA_TB_SRCS),$(DMA_CLIENTS) -GDataWidth=64 -CFLAGS -DTB_DW=64)
$(BUILD)/dma/cov128/Vdma_engine: $(DMA_TB_DEPS)
	$(call verilate,$(BUILD)/dma/cov128,dma_engine,,$(DMA_TB_SRCS),$(DMA_CLIENTS) -GDataWidth=128 -CFLAGS -DTB_DW=128 --coverage-line)

.PHONY: test-dma bench-dma cov-dma
test-dma: $(BUILD)/dma/w512/Vdma_engine $(BUILD)/dma/w64/Vdma_engine $(BUILD)/dma/cov128/Vdma_engine
	$(BUILD)/dma/w512/Vdma_engine --seed $(DMA_SEED) | sed 's/^\(PASS\|FAIL\) /\1 w512_/'; test $${PIPESTATUS[0]} -eq 0
	$(BUILD)/dma/w64/Vdma_engine --seed $(DMA_SEED) --quick | sed 's/^\(PASS\|FAIL\) /\1 w64_/'; test $${PIPESTATUS[0]} -eq 0
	@$(MAKE) --no-print-directory cov-dma

# line coverage of rtl/dma: annotated sources and summary under build/coverage/dma
cov-dma: $(BUILD)/dma/cov128/Vdma_engine
	@rm -rf $(BUILD)/coverage/dma; mkdir -p $(BUILD)/coverage/dma
	DMA_COV_FILE=$(BUILD)/coverage/dma/coverage.dat $(BUILD)/dma/cov128/Vdma_engine --seed $(DMA_SEED) --quick \
	  | sed 's/^\(PASS\|FAIL\) /\1 cov128_/'; test $${PIPESTATUS[0]} -eq 0
	@tb/dma/coverage.sh $(BUILD)/coverage/dma

bench-dma: $(BUILD)/dma/w512/Vdma_engine
	@mkdir -p $(BUILD)/bench
	$(BUILD)/dma/w512/Vdma_engine --bench --seed $(DMA_SEED) | tee $(BUILD)/bench/dma.txt
