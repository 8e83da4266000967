# Configurations of rnic_core (bitstream-scripts/configs/*.cfg) and the board tops
# (rtl/boards/, bitstream-scripts/vivado/): docs/boards.md.
CONFIGS := $(basename $(notdir $(wildcard bitstream-scripts/configs/*.cfg)))
CFG := bitstream-scripts/configs/cfg.py

# Lint of rnic_core with one configuration's parameters: `make lint-config-25g`.
lint-config-%: | $(BUILD)
	$(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) rtl/core/rnic_core.sv \
	  --top-module rnic_core $$($(CFG) $* verilator)
# Yosys synthesis of one configuration (reports build/synth/rnic_core-NAME.*), `make synth-config-25g`;
# it writes the configuration's cache record (bitstream-scripts/synth/cache/, synth_cache.py).
synth-config-%: | $(BUILD)
	SYNTH_CACHE=write SYNTH_CONFIG=$* bitstream-scripts/synth/synth.sh rnic_core $(RTL_SRCS)

# Suite configs: each configuration's rules (cfg.py check) and a lint of rnic_core with it.
TEST_SUITES += configs
.PHONY: test-configs
test-configs: | $(BUILD)
	@rc=0; for c in $(CONFIGS); do \
	  $(CFG) $$c check || rc=1; \
	  if $(MAKE) --no-print-directory -s lint-config-$$c > $(BUILD)/lint-config-$$c.log 2>&1; \
	  then echo "PASS lint-config-$$c"; else echo "FAIL lint-config-$$c see $(BUILD)/lint-config-$$c.log"; \
	    echo "RERUN make lint-config-$$c"; head -20 $(BUILD)/lint-config-$$c.log; rc=1; fi; \
	done; exit $$rc

# ---- board RTL (rtl/boards/): CDC and bridge blocks, board tops, vendor IP black boxes ---------
BOARDS := vcu118 u250
BOARD_COMMON := $(sort $(wildcard rtl/boards/common/*.sv))
BOARD_IP_BB := $(sort $(wildcard rtl/boards/ip/*.sv))
# Verilator only: declarations of the UltraScale+ primitives the tops use (Yosys has its own).
BOARD_LINT_PRIMS := $(sort $(wildcard rtl/boards/lint/*.sv))
BOARD_VLT := rtl/boards/common/boards.vlt

# The frame FIFO testbench, verilated with and without backpressure.
BOARDS_BUILD := $(BUILD)/boards
CDC_TB_SV := rtl/boards/common/rnic_cdc_sync.sv rtl/boards/common/rnic_cdc_frame_fifo.sv
$(BOARDS_BUILD)/cdc_bp%/Vrnic_cdc_frame_fifo: $(CDC_TB_SV) tb/boards/cdc_fifo_tb.cpp tb/common/tb_check.h
	$(call verilate,$(BOARDS_BUILD)/cdc_bp$*,rnic_cdc_frame_fifo,$(CDC_TB_SV),tb/boards/cdc_fifo_tb.cpp,\
	  -GDataWidth=64 -GAddrWidth=4 -GBackpressure=$* -CFLAGS -DTB_BP=$*)

# Lint of a board top with the 100g configuration: `make lint-board-vcu118`.
BOARD_CONFIG := 100g
lint-board-%: | $(BUILD)
	$(VERILATOR) --lint-only -Wall $(RTL_VLT) $(BOARD_VLT) $(RTL_PKGS) $(RTL_INCS) $(BOARD_COMMON) \
	  $(BOARD_IP_BB) $(BOARD_LINT_PRIMS) rtl/boards/$*/rnic_$*_top.sv --top-module rnic_$*_top \
	  $$($(CFG) $(BOARD_CONFIG) verilator)
# Yosys synthesis of a board top around rnic_core and the vendor IP as black boxes (the core's
# own figures come from suite synth): `make synth-board-vcu118`, reports build/synth/rnic_vcu118_top-100g.*
# Suite boards runs it with SYNTH_CACHE=use: the committed record cache/rnic_BOARD_top-100g.json
# when its key (every input, rnic_core.sv's ports included) is current, Yosys otherwise.
synth-board-%: | $(BUILD)
	SYNTH_CACHE=$(SYNTH_CACHE) SYNTH_CONFIG=$(BOARD_CONFIG) SYNTH_LIBS="rtl/core/rnic_core.sv" bitstream-scripts/synth/synth.sh \
	  rnic_$*_top $(RTL_PKGS) $(BOARD_IP_BB) $(BOARD_COMMON) rtl/boards/$*/rnic_$*_top.sv

# Suite boards: the frame FIFO testbench (with and without backpressure) and the BAR path
# testbench (AXI4 split by address: BAR2 -> AXI-Lite -> MSI-X table, BAR4 -> doorbell BAR), two seeds each, the Vivado
# flow and flashing scripts without Vivado (tb/boards/test_flow.sh), then per board the lint and
# the synthesis of its top.
CDC_TBS := $(BOARDS_BUILD)/cdc_bp1/Vrnic_cdc_frame_fifo $(BOARDS_BUILD)/cdc_bp0/Vrnic_cdc_frame_fifo \
  $(BOARDS_BUILD)/bar/Vbar_tb_top
TEST_SUITES += boards
.PHONY: test-boards
test-boards: $(CDC_TBS) | $(BUILD)
	@rc=0; for t in $(CDC_TBS); do for s in 1 2; do $$t $$s || rc=1; done; done; \
	tb/boards/test_flow.sh $(BOARDS_BUILD)/flow || rc=1; \
	for b in $(BOARDS); do \
	  if $(MAKE) --no-print-directory -s lint-board-$$b > $(BUILD)/lint-board-$$b.log 2>&1; \
	  then echo "PASS lint-board-$$b"; else echo "FAIL lint-board-$$b see $(BUILD)/lint-board-$$b.log"; \
	    echo "RERUN make lint-board-$$b"; head -20 $(BUILD)/lint-board-$$b.log; rc=1; fi; \
	  if $(MAKE) --no-print-directory -s synth-board-$$b SYNTH_CACHE=use > $(BUILD)/synth-board-$$b.log 2>&1; \
	  then echo "PASS synth-board-$$b"; else echo "FAIL synth-board-$$b see $(BUILD)/synth-board-$$b.log"; \
	    echo "RERUN make synth-board-$$b"; rc=1; fi; sed "s/^/INFO /" $(BUILD)/synth-board-$$b.log; \
	done; exit $$rc

# The vendor flow for one board: `make bitstream BOARD=vcu118` (bitstream-scripts/vivado/,
# docs/boards.md). Without Vivado it says what is missing and fails; with it, the firmware image
# is built first (baked into the soft core's memories).
BOARD ?=
.PHONY: bitstream
bitstream: | $(BUILD)
	@test -n "$(BOARD)" || { echo "usage: make bitstream BOARD=<$(BOARDS)>"; exit 2; }
	@if command -v vivado > /dev/null; then $(MAKE) --no-print-directory $(FW_IMAGE); fi
	bitstream-scripts/vivado/bitstream.sh $(BOARD) $(BOARD_CONFIG)

# The BAR path testbench: rnic_axi_split in front of rnic_axi_to_axil + rnic_msix_table (BAR2)
# and doorbell_bar (BAR4).
BAR_TB_SV := rtl/boards/common/rnic_axi_to_axil.sv rtl/boards/common/rnic_msix_table.sv \
  rtl/boards/common/rnic_axi_split.sv rtl/doorbell/doorbell_bar.sv tb/boards/bar_tb_top.sv
$(BOARDS_BUILD)/bar/Vbar_tb_top: $(BAR_TB_SV) tb/boards/bar_tb.cpp tb/common/tb_check.h
	$(call verilate,$(BOARDS_BUILD)/bar,bar_tb_top,$(BAR_TB_SV),tb/boards/bar_tb.cpp,)

# The rest of `make synth` (mk/lint.mk): each configuration of rnic_core and each board top, then
# docs/resources.md from every report in build/synth (`make resources` alone regenerates it).
.PHONY: synth-extra resources
synth-extra: | $(BUILD)
	@fail=0; for c in $(CONFIGS); do $(MAKE) --no-print-directory -s synth-config-$$c || fail=1; done; \
	for b in $(BOARDS); do $(MAKE) --no-print-directory -s synth-board-$$b SYNTH_CACHE=write || fail=1; done; \
	$(PYTHON) bitstream-scripts/synth/resources.py table $(BUILD)/synth docs/resources.md; exit $$fail
resources:
	$(PYTHON) bitstream-scripts/synth/resources.py table $(BUILD)/synth docs/resources.md
