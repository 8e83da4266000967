# tb/fw_subsys/block.mk: the firmware subsystem with several soft cores (rnic_fw_subsys,
# docs/decisions/multi-core.md phase 2). Suite fw_subsys: Verilator -Wall lint and a Yosys
# elaboration (the synth-blocks check: undriven, implicit or resized signals fail) of
# rnic_fw_subsys at NumCores 2 and 4 (suite lint covers the default, 1), then the block testbench
# at NumCores 2 and 4 running the test firmware tb/fw_subsys/fw (built with the firmware's
# toolchain, imaged by firmware/tools/mkimage.py).
FWS_BUILD := $(BUILD)/fw_subsys
FWS_CPP   := tb/fw_subsys/tb_fw_subsys.cpp
FWS_RTL   := rtl/common/rnic_spec_pkg.sv rtl/cpu/rv_pkg.sv $(filter-out rtl/cpu/rv_pkg.sv,$(wildcard rtl/cpu/*.sv)) \
             $(wildcard rtl/core/rnic_fw_*.sv) rtl/core/rnic_qpn_route.sv rtl/core/rnic_rr_arb.sv rtl/core/rnic_qpc_ram.sv
FWS_DEPS  := $(FWS_CPP) tb/common/tb_check.h spec/include/rnic_spec.h $(FWS_RTL)
FWS_FW    := $(FWS_BUILD)/fw
FWS_SEED  ?= 1

TEST_SUITES += fw_subsys
LINT_TOPS   += rnic_fw_subsys rnic_fw_core_mmio

$(FWS_BUILD)/c%/Vrnic_fw_subsys: $(FWS_DEPS)
	$(call verilate,$(FWS_BUILD)/c$*,rnic_fw_subsys,,$(FWS_CPP),-GNumCores=$* -CFLAGS -DTB_CORES=$*)

$(FWS_FW)/fw.elf: tb/fw_subsys/fw/mc.c firmware/runtime/crt0.S firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(@D)
	$(FW_CC) -march=rv32im_zicsr -mabi=ilp32 -std=c11 -O2 -Wall -Wextra -Werror -Wmissing-prototypes -ffreestanding \
	  -nostdlib -Ispec/include -T firmware/runtime/link.ld firmware/runtime/crt0.S tb/fw_subsys/fw/mc.c -o $@
$(FWS_FW)/imem.hex: $(FWS_FW)/fw.elf firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FWS_FW) > /dev/null

# $(call fws_lint,N) / $(call fws_elab,N): one PASS/FAIL line each
fws_lint = if $(VERILATOR) --lint-only -Wall $(RTL_VLT) $(RTL_PKGS) $(RTL_INCS) rtl/core/rnic_fw_subsys.sv \
	  --top-module rnic_fw_subsys -GNumCores=$(1) > $(FWS_BUILD)/lint-c$(1).log 2>&1; \
	  then echo "PASS lint-rnic_fw_subsys-c$(1)"; else echo "FAIL lint-rnic_fw_subsys-c$(1)"; \
	  echo "RERUN make test-fw_subsys"; head -20 $(FWS_BUILD)/lint-c$(1).log; rc=1; fi
fws_elab = yosys -q -l $(FWS_BUILD)/elab-c$(1).log -p "$(foreach f,$(FWS_RTL),read_verilog -sv $(f);) \
	  chparam -set NumCores $(1) rnic_fw_subsys; hierarchy -check -top rnic_fw_subsys; proc; flatten; opt_clean; check" \
	  > /dev/null 2>&1 && python3 bitstream-scripts/synth/yosys_warnings.py $(FWS_BUILD)/elab-c$(1).log \
	  > $(FWS_BUILD)/elab-c$(1).undriven.txt && ! [ -s $(FWS_BUILD)/elab-c$(1).undriven.txt ]; \
	  then echo "PASS elab-rnic_fw_subsys-c$(1)"; else echo "FAIL elab-rnic_fw_subsys-c$(1) see $(FWS_BUILD)/elab-c$(1).log"; \
	  echo "RERUN make test-fw_subsys"; head -20 $(FWS_BUILD)/elab-c$(1).undriven.txt; rc=1; fi

.PHONY: test-fw_subsys
test-fw_subsys: $(FWS_BUILD)/c2/Vrnic_fw_subsys $(FWS_BUILD)/c4/Vrnic_fw_subsys $(FWS_FW)/imem.hex
	@rc=0; $(call fws_lint,2); $(call fws_lint,4); if $(call fws_elab,2); if $(call fws_elab,4); \
	$(FWS_BUILD)/c2/Vrnic_fw_subsys --seed $(FWS_SEED) --fw $(FWS_FW) || rc=1; \
	$(FWS_BUILD)/c4/Vrnic_fw_subsys --seed $(FWS_SEED) --fw $(FWS_FW) || rc=1; exit $$rc
