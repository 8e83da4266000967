# tb/fuzz/block.mk: frame fuzzing into a live two-NIC system (tb/fuzz/test_fuzz.cpp) and the
# zero-length operations end to end (tb/fuzz/test_zero_length.cpp), linked into the simulator like
# every system program; see tb/fuzz/README.md.
# `make test-fuzz` is the short run (10 000 hostile frames, seed 1); `make test-fuzz-long` injects
# FUZZ_LONG_FRAMES (100 000) frames for every seed of FUZZ_SEEDS (a cluster spreads a range:
# make test-fuzz-long FUZZ_SEEDS="$(seq 100 149)").
TEST_SUITES += fuzz
TEST_LONG += fuzz-long
FUZZ_SEEDS ?= 1
FUZZ_LONG_FRAMES ?= 100000

.PHONY: test-fuzz test-fuzz-long
test-fuzz: $(BUILD)/sim/rnic_sim  # SIM_BIN is defined later (sim/block.mk)
	@rc=0; $(SIM_BIN) test-fuzz --seed 1 --frames 10000 || rc=1; $(SIM_BIN) test-zero-length || rc=1; exit $$rc

test-fuzz-long: $(BUILD)/sim/rnic_sim
	@rc=0; for s in $(FUZZ_SEEDS); do t0=$$(date +%s); \
	  $(SIM_BIN) test-fuzz --seed $$s --frames $(FUZZ_LONG_FRAMES) || rc=1; \
	  echo "INFO test-fuzz seed $$s: $$(( $$(date +%s) - t0 )) s wall"; done; exit $$rc
