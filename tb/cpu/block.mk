# tb/cpu/block.mk: RV32IM soft core (rtl/cpu): tests, lint/synth tops, IPC benchmark.
TEST_SUITES += cpu
LINT_TOPS   += rv_cpu
SYNTH_TOPS  += rv_cpu
BENCHES     += cpu

CPU_BUILD   := $(BUILD)/cpu
CPU_SIM     := $(CPU_BUILD)/obj/Vrv_cpu
CPU_TB_CPP  := tb/cpu/elf_runner.cpp tb/cpu/lockstep.cpp tb/cpu/ref/rv32_ref_cc.cpp
CPU_TB_DEPS := $(CPU_TB_CPP) $(wildcard tb/cpu/*.h tb/cpu/ref/*.h tb/cpu/ref/*.c) $(wildcard rtl/cpu/*)

RV_CC       := riscv64-unknown-elf-gcc
RV_CFLAGS   := -march=rv32im_zicsr -mabi=ilp32 -nostdlib -ffreestanding -O2 -g -Wall \
               -Itb/cpu/fw -Ttb/cpu/fw/link.ld
CPU_FW_TESTS := isa trap irq
CPU_FW_ELFS  := $(addprefix $(CPU_BUILD)/fw/,$(addsuffix .elf,$(CPU_FW_TESTS)))

$(CPU_SIM): $(CPU_TB_DEPS)
	$(call verilate,$(CPU_BUILD)/obj,rv_cpu,,$(CPU_TB_CPP),)

$(CPU_BUILD)/fw/%.elf: tb/cpu/fw/%.c tb/cpu/fw/crt0.S tb/cpu/fw/link.ld tb/cpu/fw/fw.h
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -o $@ tb/cpu/fw/crt0.S $< -lgcc

.PHONY: test-cpu bench-cpu cpu-sim
cpu-sim: $(CPU_SIM)

test-cpu: $(CPU_SIM) $(CPU_FW_ELFS)
	@tb/cpu/run-tests.sh $(CPU_SIM) $(CPU_BUILD)/fw "$(CPU_FW_TESTS)"

bench-cpu: $(CPU_SIM) $(CPU_BUILD)/fw/bench.elf
	@mkdir -p $(BUILD)/bench
	@echo "## rv_cpu IPC, MMIO grant 0 / response 1 cycle (like the TCMs)" | tee $(BUILD)/bench/cpu.md
	@$(CPU_SIM) elf $(CPU_BUILD)/fw/bench.elf --quiet --lat 0,1 | tee -a $(BUILD)/bench/cpu.md
	@echo "## rv_cpu IPC, MMIO grant 0-2 / response 1-8 cycles (random)" | tee -a $(BUILD)/bench/cpu.md
	@$(CPU_SIM) elf $(CPU_BUILD)/fw/bench.elf --quiet --lat 2,8 | tee -a $(BUILD)/bench/cpu.md
