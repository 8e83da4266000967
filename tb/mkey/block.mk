# tb/mkey/block.mk: memory-key (MPT) and translation (MTT) table (rtl/mkey): tests, lint/synth tops.
# Two models: the default configuration (1 port, 4096 keys, 65536 MTT entries) and a 2-port one
# with small, non-power-of-two tables (range checks, MTT wrap-around, both ports at once).
MKEY_BUILD   := $(BUILD)/mkey
MKEY_TB_CPP  := tb/mkey/tb_mkey.cpp
MKEY_TB_DEPS := $(MKEY_TB_CPP) tb/common/tb_check.h spec/include/rnic_spec.h \
                $(wildcard rtl/mkey/*.sv rtl/mkey/*.vlt) rtl/common/rnic_spec_pkg.sv
MKEY_SEED    ?= 1
MKEY_LOOKUPS ?= 400000

TEST_SUITES += mkey
LINT_TOPS   += mkey_table
SYNTH_TOPS  += mkey_table

$(MKEY_BUILD)/p1/Vmkey_table: $(MKEY_TB_DEPS)
	$(call verilate,$(MKEY_BUILD)/p1,mkey_table,,$(MKEY_TB_CPP),)
$(MKEY_BUILD)/p2/Vmkey_table: $(MKEY_TB_DEPS)
	$(call verilate,$(MKEY_BUILD)/p2,mkey_table,,$(MKEY_TB_CPP),-GNumPorts=2 -GNumKeys=300 -GNumMtt=1000 \
	  -CFLAGS -DTB_NUM_PORTS=2 -CFLAGS -DTB_NUM_KEYS=300 -CFLAGS -DTB_NUM_MTT=1000)

.PHONY: test-mkey
test-mkey: $(MKEY_BUILD)/p1/Vmkey_table $(MKEY_BUILD)/p2/Vmkey_table
	@rc=0; \
	$(MKEY_BUILD)/p1/Vmkey_table --seed $(MKEY_SEED) --lookups $(MKEY_LOOKUPS) | sed 's/^\(PASS\|FAIL\) /\1 p1-/'; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; \
	$(MKEY_BUILD)/p2/Vmkey_table --seed $(MKEY_SEED) --lookups $(MKEY_LOOKUPS) | sed 's/^\(PASS\|FAIL\) /\1 p2-/'; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; \
	exit $$rc
