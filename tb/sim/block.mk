# tb/sim/block.mk: tests of the system-harness models (host memory, PCIe timing model, Ethernet
# link, MSI-X delivery, two linked NICs) and the idle simulation speed. All run in rnic_sim.
# (SIM_BIN and FW_TRAP_DIR are defined by fragments included after this one: recipes only.)
TEST_SUITES += simmodels
SIMMODELS_SEED ?= 1

.PHONY: test-simmodels
test-simmodels:
	@$(MAKE) -s --no-print-directory $(SIM_BIN) $(FW_TRAP_DIR)/imem.hex
	@$(SIM_BIN) test-hostmem
	@$(SIM_BIN) test-pcie $(SIMMODELS_SEED) | tee $(BUILD)/sim/simmodels-run1.txt; test $${PIPESTATUS[0]} -eq 0
	@$(SIM_BIN) test-eth --seed $(SIMMODELS_SEED) --out $(BUILD)/sim | tee -a $(BUILD)/sim/simmodels-run1.txt; \
	  test $${PIPESTATUS[0]} -eq 0
	@# a second process with the same seed must reproduce the traces exactly
	@{ $(SIM_BIN) test-pcie $(SIMMODELS_SEED); $(SIM_BIN) test-eth --seed $(SIMMODELS_SEED) --out $(BUILD)/sim; } \
	  > $(BUILD)/sim/simmodels-run2.txt 2>&1; \
	if [ -n "$$(grep hash $(BUILD)/sim/simmodels-run1.txt)" ] && \
	   [ "$$(grep hash $(BUILD)/sim/simmodels-run1.txt)" = "$$(grep hash $(BUILD)/sim/simmodels-run2.txt)" ]; \
	then echo "PASS simmodels-reproducible-across-runs"; \
	else echo "FAIL simmodels-reproducible-across-runs trace hashes differ"; exit 1; fi
	@$(SIM_BIN) test-nodes $(FW_TRAP_DIR)/fw.img
	@$(SIM_BIN) sim-speed --nics 2 --us 4000

# Waveforms on demand (sim/main/sim_waves.h, docs/development.md "Waveforms"): the trace build
# of the simulator (make WAVES=1, its own tree build/waves/) against the normal one. The trace
# build is made only here and when someone asks for waves, never for the other suites.
TEST_SUITES += waves
TEST_LONG += waves-long
WAVES_SIM_BIN := build/waves/sim/rnic_sim
ifeq ($(filter-out 0,$(WAVES)),)
.PHONY: $(WAVES_SIM_BIN)
# after the normal simulator: the trace build's harness objects are then its ccache hits
$(WAVES_SIM_BIN): $(SIM_BIN)
	@$(MAKE) -s --no-print-directory WAVES=1 $@
endif
.PHONY: test-waves test-waves-long
test-waves: $(BUILD)/sim/rnic_sim $(WAVES_SIM_BIN)
	@tb/sim/test_waves.sh $(BUILD)/sim/rnic_sim $(WAVES_SIM_BIN) sim/waves/rnic_core.gtkw $(BUILD)/waves-test
test-waves-long: $(BUILD)/sim/rnic_sim $(WAVES_SIM_BIN)
	@tb/sim/test_waves.sh $(BUILD)/sim/rnic_sim $(WAVES_SIM_BIN) sim/waves/rnic_core.gtkw $(BUILD)/waves-test long
