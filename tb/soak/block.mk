# tb/soak/block.mk: the long random soak (tb/soak/test_soak.cpp, linked into the simulator):
# random operations, sizes, SGE lists, QPs and MTUs over a faulty link against a reference model.
# `make test-soak` is the short run (seed 1, 300 operations on 4 QP pairs); `make test-soak-long`
# runs every seed of SEEDS=a..b (default 1..20) with 3000 operations on 16 QP pairs, and with
# SHARD=i/n only the seeds s with s % n == i - 1, so n machines split a range between them.
TEST_SUITES += soak
TEST_LONG += soak-long
SEEDS ?= 1..20
SOAK_LONG_OPS ?= 3000
SOAK_LONG_QPS ?= 16

.PHONY: test-soak test-soak-long
test-soak: $(BUILD)/sim/rnic_sim  # SIM_BIN is defined later (sim/block.mk)
	@$(SIM_BIN) test-soak --seed 1 --ops 300 --qps 4

test-soak-long: $(BUILD)/sim/rnic_sim
	@rc=0; lo=$(firstword $(subst .., ,$(SEEDS))); hi=$(lastword $(subst .., ,$(SEEDS))); \
	sh=$(if $(SHARD),$(firstword $(subst /, ,$(SHARD))),1); sn=$(if $(SHARD),$(lastword $(subst /, ,$(SHARD))),1); \
	for s in $$(seq $$lo $$hi); do [ $$(( s % sn )) -eq $$(( sh - 1 )) ] || continue; t0=$$(date +%s); \
	  $(SIM_BIN) test-soak --seed $$s --ops $(SOAK_LONG_OPS) --qps $(SOAK_LONG_QPS) || rc=1; \
	  echo "INFO test-soak seed $$s: $$(( $$(date +%s) - t0 )) s wall"; done; exit $$rc
