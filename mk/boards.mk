# Configurations of rnic_core (bitstream-scripts/configs/*.cfg) and the board tops
# (rtl/boards/, bitstream-scripts/vivado/): docs/boards.md.
CONFIGS := $(basename $(notdir $(wildcard bitstream-scripts/configs/*.cfg)))
CFG := bitstream-scripts/configs/cfg.py

# Lint of rnic_core with one configuration's parameters: `make lint-config-25g`.
lint-config-%: | $(BUILD)
	$(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) rtl/core/rnic_core.sv \
	  --top-module rnic_core $$($(CFG) $* verilator)
# Yosys synthesis of one configuration (reports build/synth/rnic_core-NAME.*), `make synth-config-25g`.
synth-config-%: | $(BUILD)
	SYNTH_CONFIG=$* bitstream-scripts/synth/synth.sh rnic_core $(RTL_SRCS)

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
