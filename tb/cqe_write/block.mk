# tb/cqe_write/block.mk: the CQE writer (rtl/cqe_write): block testbench at 512 and 64 bits,
# lint/synth top.
CQW_BUILD   := $(BUILD)/cqe_write
CQW_TB_CPP  := tb/cqe_write/tb_cqe_writer.cpp
CQW_TB_DEPS := $(CQW_TB_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
               $(wildcard rtl/cqe_write/*.sv) rtl/common/rnic_spec_pkg.sv
CQW_SEED    ?= 1
CQW_RECORDS ?= 3000

TEST_SUITES += cqe_write
TEST_LONG   += cqe_write-long
LINT_TOPS   += cqe_writer
SYNTH_TOPS  += cqe_writer

$(CQW_BUILD)/w512/Vcqe_writer: $(CQW_TB_DEPS)
	$(call verilate,$(CQW_BUILD)/w512,cqe_writer,,$(CQW_TB_CPP),-GDataWidth=512 -CFLAGS -DTB_DATA_WIDTH=512)
$(CQW_BUILD)/w64/Vcqe_writer: $(CQW_TB_DEPS)
	$(call verilate,$(CQW_BUILD)/w64,cqe_writer,,$(CQW_TB_CPP),-GDataWidth=64 -CFLAGS -DTB_DATA_WIDTH=64)

.PHONY: test-cqe_write test-cqe_write-long
test-cqe_write: $(CQW_BUILD)/w512/Vcqe_writer $(CQW_BUILD)/w64/Vcqe_writer
	@rc=0; for w in w512 w64; do \
	  $(CQW_BUILD)/$$w/Vcqe_writer --seed $(CQW_SEED) --records $(CQW_RECORDS) | sed "s/^\(PASS\|FAIL\) /\1 $$w-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
test-cqe_write-long:
	@$(MAKE) --no-print-directory test-cqe_write CQW_RECORDS=100000 CQW_SEED=$(or $(SEED),7)
