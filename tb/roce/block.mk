# roce: RoCEv2 packetizer/parser (rtl/roce). One verilated testbench top per data width.
ROCE_BUILD := $(BUILD)/roce
ROCE_TB_SV := tb/roce/roce_tb_top.sv
ROCE_TB_CPP := tb/roce/tb_roce.cpp tb/roce/ref/roce_ref.cpp
ROCE_TB_DEPS := $(RTL_SRCS) $(RTL_VLT) $(ROCE_TB_SV) $(ROCE_TB_CPP) tb/roce/ref/roce_ref.h
ROCE_WIDTHS := 512 256 128 64
ROCE_SEED ?= 1
ROCE_FUZZ ?= 100000

TEST_SUITES += roce
LINT_TOPS += roce_tx roce_rx roce_tx_seg roce_vlan_ins roce_vlan_strip
SYNTH_TOPS += roce_tx roce_rx
BENCHES += roce

$(ROCE_BUILD)/w%/Vroce_tb_top: $(ROCE_TB_DEPS)
	$(call verilate,$(ROCE_BUILD)/w$*,roce_tb_top,$(ROCE_TB_SV),$(ROCE_TB_CPP),-GDataWidth=$* -CFLAGS -I$(CURDIR)/tb/roce)

# the 802.1Q insert/strip blocks back to back (tb/roce/tb_vlan.cpp), at three widths
VLAN_WIDTHS := 512 128 64
VLAN_TB_DEPS := rtl/roce/roce_pkg.sv rtl/roce/roce_vlan_ins.sv rtl/roce/roce_vlan_strip.sv tb/roce/roce_vlan_tb_top.sv tb/roce/tb_vlan.cpp \
  tb/common/tb_check.h
$(ROCE_BUILD)/vlan%/Vroce_vlan_tb_top: $(VLAN_TB_DEPS)
	$(call verilate,$(ROCE_BUILD)/vlan$*,roce_vlan_tb_top,tb/roce/roce_vlan_tb_top.sv,tb/roce/tb_vlan.cpp,\
	  -GDataWidth=$* -CFLAGS -DTB_DATA_WIDTH=$*)

.PHONY: test-roce bench-roce
test-roce: $(foreach w,$(ROCE_WIDTHS),$(ROCE_BUILD)/w$(w)/Vroce_tb_top) \
  $(foreach w,$(VLAN_WIDTHS),$(ROCE_BUILD)/vlan$(w)/Vroce_vlan_tb_top)
	@rc=0; for w in $(ROCE_WIDTHS); do \
	  $(ROCE_BUILD)/w$$w/Vroce_tb_top --seed $(ROCE_SEED) --fuzz $(ROCE_FUZZ) --out $(ROCE_BUILD) || rc=1; \
	done; for w in $(VLAN_WIDTHS); do $(ROCE_BUILD)/vlan$$w/Vroce_vlan_tb_top --seed $(ROCE_SEED) || rc=1; done; \
	$(MAKE) --no-print-directory cov-roce || rc=1; exit $$rc

# Longer form (make test-long): ten times the fuzz frames at every width, for each seed of
# ROCE_LONG_SEEDS (a range spreads over a cluster).
ROCE_LONG_SEEDS ?= 2 3
TEST_LONG += roce-long
.PHONY: test-roce-long
test-roce-long: $(foreach w,$(ROCE_WIDTHS),$(ROCE_BUILD)/w$(w)/Vroce_tb_top)
	@rc=0; for s in $(ROCE_LONG_SEEDS); do for w in $(ROCE_WIDTHS); do \
	  $(ROCE_BUILD)/w$$w/Vroce_tb_top --seed $$s --fuzz $$(( $(ROCE_FUZZ) * 10 )) --out $(ROCE_BUILD) || rc=1; \
	done; done; exit $$rc

# line coverage of rtl/roce (128-bit model): build/coverage/roce/{summary.txt,annotated/}
$(ROCE_BUILD)/cov128/Vroce_tb_top: $(ROCE_TB_DEPS)
	$(call verilate,$(ROCE_BUILD)/cov128,roce_tb_top,$(ROCE_TB_SV),$(ROCE_TB_CPP),-GDataWidth=128 --coverage-line -CFLAGS -I$(CURDIR)/tb/roce)

.PHONY: cov-roce
cov-roce: $(ROCE_BUILD)/cov128/Vroce_tb_top
	@rm -rf $(BUILD)/coverage/roce; mkdir -p $(BUILD)/coverage/roce/parts
	@ROCE_COV_FILE=$(BUILD)/coverage/roce/parts/cov $< --seed $(ROCE_SEED) --fuzz $(ROCE_FUZZ) --tag cov128 \
	  --out $(BUILD)/coverage/roce
	@tb/roce/coverage.sh $(BUILD)/coverage/roce

bench-roce: $(foreach w,$(ROCE_WIDTHS),$(ROCE_BUILD)/w$(w)/Vroce_tb_top)
	@mkdir -p $(BUILD)/bench
	@for w in $(ROCE_WIDTHS); do $(ROCE_BUILD)/w$$w/Vroce_tb_top --bench; done | tee $(BUILD)/bench/roce.md
