# RTL gates: Verilator -Wall lint of every top, a Yosys parse of every RTL file, synthesis.
LINT_TOPS += rnic_core
SYNTH_TOPS += rnic_core

lint:
	@fail=0; for t in $(LINT_TOPS); do \
	  if $(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) $$(ls rtl/*/$$t.sv) --top-module $$t > $(BUILD)/lint-$$t.log 2>&1; \
	  then echo "PASS lint-$$t"; else echo "FAIL lint-$$t"; head -30 $(BUILD)/lint-$$t.log; fail=1; fi; \
	done; exit $$fail
$(LINT_TOPS:%=$(BUILD)/lint-%.log): | $(BUILD)
$(BUILD):
	@mkdir -p $@

TEST_SUITES += lint
test-lint: | $(BUILD)
	@$(MAKE) --no-print-directory lint
	@if yosys -q -p "$(foreach f,$(RTL_SRCS),read_verilog -sv $(f);)" > $(BUILD)/yosys-parse.log 2>&1; \
	then echo "PASS yosys-parse-all-rtl"; else echo "FAIL yosys-parse-all-rtl"; tail -5 $(BUILD)/yosys-parse.log; exit 1; fi

synth:
	@fail=0; for t in $(SYNTH_TOPS); do \
	  bitstream-scripts/synth/synth.sh $$t $(RTL_SRCS) || fail=1; done; exit $$fail

TEST_SUITES += synth
PARALLEL_SUITES += synth   # Yosys only: runs beside the simulation suites (see the Makefile)
# The test gate synthesizes every top except those rnic_core already contains whole (their own
# figures come from `make synth`), two at a time (the machine has two cores).
SYNTH_IN_CORE := roce_tx roce_rx xport_tx
test-synth: | $(BUILD)
	@mkdir -p $(BUILD)/synth
	@printf '%s\n' $(filter-out $(SYNTH_IN_CORE),$(SYNTH_TOPS)) | xargs -P 2 -I{} sh -c \
	  'if bitstream-scripts/synth/synth.sh {} $(RTL_SRCS) > $(BUILD)/synth/{}.out 2>&1; \
	   then echo "PASS synth-{}"; else echo "FAIL synth-{}"; fi; sed "s/^/INFO /" $(BUILD)/synth/{}.out'
