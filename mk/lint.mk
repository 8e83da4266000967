# RTL gates: Verilator -Wall lint of every top, a Yosys parse of every RTL file, synthesis.
LINT_TOPS += rnic_core rnic_pause_breaker rnic_event_merge rnic_counters rnic_irq_src rnic_bar0_decode
SYNTH_TOPS += rnic_core

lint: | $(BUILD)
	@fail=0; for t in $(LINT_TOPS); do \
	  if $(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) $$(ls rtl/*/$$t.sv) --top-module $$t > $(BUILD)/lint-$$t.log 2>&1; \
	  then echo "PASS lint-$$t"; else echo "FAIL lint-$$t"; echo "RERUN make lint-$$t"; head -30 $(BUILD)/lint-$$t.log; fail=1; fi; \
	done; exit $$fail
# One top: `make lint-TOP` (the rerun command a failing lint check prints).
lint-%: | $(BUILD)
	$(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) $$(ls rtl/*/$*.sv) --top-module $*
$(LINT_TOPS:%=$(BUILD)/lint-%.log): | $(BUILD)
$(BUILD):
	@mkdir -p $@

# (The Yosys parse of every RTL file, check yosys-parse-all-rtl, is the first step of suite
# synth-blocks, which reads them all anyway.)
TEST_SUITES += lint
test-lint: | $(BUILD)
	@$(MAKE) --no-print-directory lint

synth:
	@fail=0; for t in $(SYNTH_TOPS); do \
	  bitstream-scripts/synth/synth.sh $$t $(RTL_SRCS) || fail=1; done; exit $$fail
	@$(MAKE) --no-print-directory synth-extra
# One top: `make synth-TOP` (the rerun command a failing synthesis check prints).
synth-%: | $(BUILD)
	bitstream-scripts/synth/synth.sh $* $(RTL_SRCS)

# The test gate maps with synth_xilinx the configurations of rnic_core that boards use: suite
# `synth` the 100g configuration (the longest job of make test, which needs no build and so runs
# beside the C++ builds from the first second), suite `synth-25g` the small one (a suite of its
# own so the scheduler gives it the other core once the build is done). Each has its floors and
# LUT-level ceiling (floors.txt, levels.txt, named rnic_core-CONFIG). The default parameters of
# rnic_core, which no board uses, are mapped only by `make synth`. The other
# standalone tops are all inside rnic_core: suite `synth-blocks` elaborates each at its default
# parameters in one Yosys run (bitstream-scripts/synth/elab-check.sh: the same undriven/implicit
# checks as synth.sh, ~15 CPU s instead of ~220 s for mapping them again), and checks once that
# the check catches an undriven wire. Their mapped figures come from `make synth` and from
# `make test-long` (suite synth-blocks-long, synth.sh of each). docs/development.md, "RTL rules".
SYNTH_IN_CORE := roce_tx roce_rx xport_tx cqe_writer doorbell_bar wqe_fetch
SYNTH_BLOCKS = $(filter-out rnic_core $(SYNTH_IN_CORE),$(SYNTH_TOPS))
# $(call synth_check,TOP): one PASS/FAIL line, the report summary as INFO lines.
synth_check = if bitstream-scripts/synth/synth.sh $(1) $(RTL_SRCS) > $(BUILD)/synth/$(1).out 2>&1; \
  then echo "PASS synth-$(1)"; else echo "FAIL synth-$(1) see $(BUILD)/synth/$(1).log"; echo "RERUN make synth-$(1)"; rc=1; fi; \
  sed "s/^/INFO /" $(BUILD)/synth/$(1).out
# $(call synth_config_check,CONFIG): the same for rnic_core with a configuration's parameters.
synth_config_check = if SYNTH_CACHE=use SYNTH_CONFIG=$(1) bitstream-scripts/synth/synth.sh rnic_core $(RTL_SRCS) \
  > $(BUILD)/synth/rnic_core-$(1).out 2>&1; then echo "PASS synth-rnic_core-$(1)"; \
  else echo "FAIL synth-rnic_core-$(1) see $(BUILD)/synth/rnic_core-$(1).log"; echo "RERUN make synth-config-$(1)"; rc=1; fi; \
  sed "s/^/INFO /" $(BUILD)/synth/rnic_core-$(1).out

# Suites synth and synth-25g take the committed record's figures when its key (the hash of every
# input: RTL, scripts, parameters, Yosys version) is the current one, and gate them without
# running Yosys; otherwise they synthesize (bitstream-scripts/synth/synth_cache.py,
# docs/development.md "Synthesis cache"). `make synth-cache` refreshes the records of
# SYNTH_CACHED_CONFIGS (from the last run when its key is current) and docs/resources.md.
# and of the board tops of SYNTH_CACHED_BOARDS (suite boards; mk/boards.mk).
SYNTH_CACHED_CONFIGS := 100g 25g
SYNTH_CACHED_BOARDS = $(BOARDS)
.PHONY: synth-cache
synth-cache: | $(BUILD)
	@fail=0; for c in $(SYNTH_CACHED_CONFIGS); do SYNTH_CACHE=refresh SYNTH_CONFIG=$$c \
	  bitstream-scripts/synth/synth.sh rnic_core $(RTL_SRCS) || fail=1; done; \
	for b in $(SYNTH_CACHED_BOARDS); do $(MAKE) --no-print-directory -s synth-board-$$b SYNTH_CACHE=refresh || fail=1; done; \
	$(PYTHON) bitstream-scripts/synth/resources.py table $(BUILD)/synth docs/resources.md; exit $$fail
# The key of a configuration's synthesis, as synth.sh computes it: `make -s synth-key-100g`.
synth-key-%: | $(BUILD)
	@SYNTH_CACHE=key SYNTH_CONFIG=$* bitstream-scripts/synth/synth.sh rnic_core $(RTL_SRCS)

TEST_SUITES += synth synth-25g synth-blocks
TEST_LONG += synth-blocks-long
.PHONY: test-synth test-synth-25g test-synth-blocks test-synth-blocks-long
test-synth: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@rc=0; $(call synth_config_check,100g); exit $$rc
test-synth-25g: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@rc=0; $(call synth_config_check,25g); exit $$rc
test-synth-blocks: | $(BUILD)
	@mkdir -p $(BUILD)/synth/elab-neg
	@rc=0; bitstream-scripts/synth/elab-check.sh "$(SYNTH_BLOCKS)" $(RTL_SRCS) || rc=1; \
	printf 'module elab_neg (input logic clk_i, input logic a_i, output logic q_o);\n  logic w;\n  always_ff @(posedge clk_i) q_o <= a_i ^ w;\nendmodule\n' \
	  > $(BUILD)/synth/elab-neg/elab_neg.sv; \
	if (cd $(BUILD)/synth/elab-neg && $(CURDIR)/bitstream-scripts/synth/elab-check.sh elab_neg elab_neg.sv) | grep -q '^FAIL elab-elab_neg undriven'; \
	then echo "PASS elab-check-catches-undriven"; else echo "FAIL elab-check-catches-undriven an undriven wire passed"; \
	  echo "RERUN make test-synth-blocks"; rc=1; fi; \
	printf '{"lut_levels": 999}\n' > $(BUILD)/synth/elab-neg/levels.json; \
	if python3 bitstream-scripts/synth/resources.py floor rnic_core $(BUILD)/synth/elab-neg/levels.json | grep -q 'FAILED LUT levels'; \
	then echo "PASS levels-ceiling-catches-longer-path"; else echo "FAIL levels-ceiling-catches-longer-path a 999-level path passed rnic_core's ceiling"; \
	  echo "RERUN make test-synth-blocks"; rc=1; fi; exit $$rc
test-synth-blocks-long: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@rc=0; $(foreach t,$(SYNTH_BLOCKS),$(call synth_check,$(t));) exit $$rc
