# tb/infra/block.mk: the test machinery itself (tb/infra/test_infra.sh): shards, JUnit XML, rerun
# lines, the parallel runner, the CI workflow and SLURM script, the budget table, and a moved
# simulator binary running the firmware image next to it, the synthesis cache (test_synth_cache.sh).
# (FW_DIR is defined by a fragment included after this one: literal paths in prerequisites.)
TEST_SUITES += infra
.PHONY: test-infra
test-infra: $(SIM_BIN) $(BUILD)/firmware/imem.hex $(BUILD)/firmware/trap/imem.hex
	@tb/infra/test_infra.sh $(SIM_BIN) $(BUILD)/firmware $(BUILD)/firmware/trap
