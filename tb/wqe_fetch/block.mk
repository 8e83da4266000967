# tb/wqe_fetch/block.mk: the WQE fetch engine (rtl/wqe_fetch): block testbench at 512 and 64
# bits, lint/synth top.
WQF_BUILD   := $(BUILD)/wqe_fetch
WQF_TB_CPP  := tb/wqe_fetch/tb_wqe_fetch.cpp
WQF_TB_DEPS := $(WQF_TB_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
               $(wildcard rtl/wqe_fetch/*.sv) rtl/common/rnic_spec_pkg.sv
# Several seeds at each width: a check's outcome that depends on where the random stream leaves
# a ring (rtl/wqe_fetch/README.md, "Seeds") shows up here, not only under another seed by hand
# (WQF_SEED=N, as before, runs that one seed).
WQF_SEEDS      ?= $(or $(WQF_SEED),1 2 3 4 5 6 7 8 9 10 11 12)
WQF_DOORBELLS  ?= 1500
WQF_LONG_SEEDS ?= 13 14 15 16 17 18 19 20

TEST_SUITES += wqe_fetch
TEST_LONG   += wqe_fetch-long
LINT_TOPS   += wqe_fetch
SYNTH_TOPS  += wqe_fetch

$(WQF_BUILD)/w512/Vwqe_fetch: $(WQF_TB_DEPS)
	$(call verilate,$(WQF_BUILD)/w512,wqe_fetch,,$(WQF_TB_CPP),-GDataWidth=512 -CFLAGS -DTB_DATA_WIDTH=512)
$(WQF_BUILD)/w64/Vwqe_fetch: $(WQF_TB_DEPS)
	$(call verilate,$(WQF_BUILD)/w64,wqe_fetch,,$(WQF_TB_CPP),-GDataWidth=64 -CFLAGS -DTB_DATA_WIDTH=64)

.PHONY: test-wqe_fetch test-wqe_fetch-long
test-wqe_fetch: $(WQF_BUILD)/w512/Vwqe_fetch $(WQF_BUILD)/w64/Vwqe_fetch
	@rc=0; for s in $(WQF_SEEDS); do for w in w512 w64; do \
	  $(WQF_BUILD)/$$w/Vwqe_fetch --seed $$s --doorbells $(WQF_DOORBELLS) | sed "s/^\(PASS\|FAIL\) /\1 $$w-s$$s-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; done; exit $$rc
test-wqe_fetch-long:
	@$(MAKE) --no-print-directory test-wqe_fetch WQF_DOORBELLS=50000 WQF_SEEDS="$(or $(SEED),$(WQF_LONG_SEEDS))"
