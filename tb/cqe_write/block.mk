# tb/cqe_write/block.mk: the CQE writer (rtl/cqe_write): block testbench at 512 and 64 bits and at
# two cores (512 bits), lint and Yosys elaboration at 2 and 4 cores, lint/synth top.
CQW_BUILD   := $(BUILD)/cqe_write
CQW_TB_CPP  := tb/cqe_write/tb_cqe_writer.cpp
CQW_TB_DEPS := $(CQW_TB_CPP) tb/common/tb_check.h tb/common/tb_tc_port.h spec/include/rnic_spec.h \
               $(wildcard rtl/cqe_write/*.sv) rtl/common/rnic_spec_pkg.sv rtl/core/rnic_rr_arb.sv
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
# two soft cores (docs/decisions/multi-core.md phase 3): each core's rings on its own port
$(CQW_BUILD)/c2/Vcqe_writer: $(CQW_TB_DEPS)
	$(call verilate,$(CQW_BUILD)/c2,cqe_writer,,$(CQW_TB_CPP),-GDataWidth=512 -GNumCores=2 -CFLAGS -DTB_DATA_WIDTH=512 -CFLAGS -DTB_CORES=2)

# $(call cqw_lint,N) / $(call cqw_elab,N): the writer at N cores, one PASS/FAIL line each (suite lint
# covers one core): Verilator -Wall, and the Yosys 0.23 elaboration of synth-blocks (undriven,
# implicit or resized signals fail)
CQW_RTL := rtl/common/rnic_spec_pkg.sv rtl/core/rnic_rr_arb.sv rtl/cqe_write/cqe_writer.sv
cqw_lint = if $(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) rtl/cqe_write/cqe_writer.sv \
	  --top-module cqe_writer -GNumCores=$(1) > $(CQW_BUILD)/lint-c$(1).log 2>&1; \
	  then echo "PASS lint-cqe_writer-c$(1)"; else echo "FAIL lint-cqe_writer-c$(1)"; \
	  echo "RERUN make test-cqe_write"; head -20 $(CQW_BUILD)/lint-c$(1).log; rc=1; fi
cqw_elab = if yosys -q -l $(CQW_BUILD)/elab-c$(1).log -p "$(foreach f,$(CQW_RTL),read_verilog -sv $(f);) \
	  chparam -set NumCores $(1) cqe_writer; hierarchy -check -top cqe_writer; proc; flatten; opt_clean; check" \
	  > /dev/null 2>&1 && python3 bitstream-scripts/synth/yosys_warnings.py $(CQW_BUILD)/elab-c$(1).log \
	  > $(CQW_BUILD)/elab-c$(1).undriven.txt && ! [ -s $(CQW_BUILD)/elab-c$(1).undriven.txt ]; \
	  then echo "PASS elab-cqe_writer-c$(1)"; else echo "FAIL elab-cqe_writer-c$(1) see $(CQW_BUILD)/elab-c$(1).log"; \
	  echo "RERUN make test-cqe_write"; head -20 $(CQW_BUILD)/elab-c$(1).undriven.txt; rc=1; fi

.PHONY: test-cqe_write test-cqe_write-long
test-cqe_write: $(CQW_BUILD)/w512/Vcqe_writer $(CQW_BUILD)/w64/Vcqe_writer $(CQW_BUILD)/c2/Vcqe_writer
	@rc=0; $(call cqw_lint,2); $(call cqw_lint,4); $(call cqw_elab,2); $(call cqw_elab,4); \
	for w in w512 w64 c2; do \
	  $(CQW_BUILD)/$$w/Vcqe_writer --seed $(CQW_SEED) --records $(CQW_RECORDS) | sed "s/^\(PASS\|FAIL\) /\1 $$w-/"; \
	  test $${PIPESTATUS[0]} -eq 0 || rc=1; done; exit $$rc
test-cqe_write-long:
	@$(MAKE) --no-print-directory test-cqe_write CQW_RECORDS=100000 CQW_SEED=$(or $(SEED),7)
