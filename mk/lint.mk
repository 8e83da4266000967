# RTL gates: Verilator -Wall lint of every top, a Yosys parse of every RTL file, synthesis.
LINT_TOPS += rnic_core
SYNTH_TOPS += rnic_core

lint:
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

TEST_SUITES += lint
test-lint: | $(BUILD)
	@$(MAKE) --no-print-directory lint
	@if yosys -q -p "$(foreach f,$(RTL_SRCS),read_verilog -sv $(f);)" > $(BUILD)/yosys-parse.log 2>&1; \
	then echo "PASS yosys-parse-all-rtl"; else echo "FAIL yosys-parse-all-rtl"; echo "RERUN make test-lint"; tail -5 $(BUILD)/yosys-parse.log; exit 1; fi

synth:
	@fail=0; for t in $(SYNTH_TOPS); do \
	  bitstream-scripts/synth/synth.sh $$t $(RTL_SRCS) || fail=1; done; exit $$fail
	@$(MAKE) --no-print-directory synth-extra
# One top: `make synth-TOP` (the rerun command a failing synthesis check prints).
synth-%: | $(BUILD)
	bitstream-scripts/synth/synth.sh $* $(RTL_SRCS)

# The test gate synthesizes every top except those rnic_core already contains whole (their own
# figures come from `make synth`), in two suites: `synth` is rnic_core alone, the longest job of
# make test, which needs no build and so runs beside the C++ builds from the first second;
# `synth-blocks` the other tops, one after another (the suite runner keeps both cores busy).
SYNTH_IN_CORE := roce_tx roce_rx xport_tx cqe_writer doorbell_bar
SYNTH_BLOCKS = $(filter-out rnic_core $(SYNTH_IN_CORE),$(SYNTH_TOPS))
# $(call synth_check,TOP): one PASS/FAIL line, the report summary as INFO lines.
synth_check = if bitstream-scripts/synth/synth.sh $(1) $(RTL_SRCS) > $(BUILD)/synth/$(1).out 2>&1; \
  then echo "PASS synth-$(1)"; else echo "FAIL synth-$(1) see $(BUILD)/synth/$(1).log"; echo "RERUN make synth-$(1)"; rc=1; fi; \
  sed "s/^/INFO /" $(BUILD)/synth/$(1).out

TEST_SUITES += synth synth-blocks
.PHONY: test-synth test-synth-blocks
test-synth: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@rc=0; $(call synth_check,rnic_core); exit $$rc
test-synth-blocks: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@rc=0; $(foreach t,$(SYNTH_BLOCKS),$(call synth_check,$(t));) exit $$rc
