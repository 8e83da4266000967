# Firmware for the soft core (riscv64-unknown-elf-gcc, rv32im_zicsr/ilp32, freestanding) and its
# host unit tests (the same sources built with MOCK_MMIO).
FW_CC := riscv64-unknown-elf-gcc
# -flto: the send queue is one file per job (fw_sq_*.c); link-time optimisation inlines across
# them as it did inside one file (without it the split cost ~37 cycles per WQE, docs/firmware.md).
FW_CFLAGS := -march=rv32im_zicsr -mabi=ilp32 -std=c11 -O2 -g -flto -Wall -Wextra -Werror -Wmissing-prototypes -ffreestanding -DRNIC_LAYOUT_ALIGNED \
  -fno-tree-loop-distribute-patterns \
  -fno-builtin -nostdlib -Ispec/include -Ifirmware/include
# libgcc of the rv32im/ilp32 multilib, named by path: with "_zicsr" in -march the driver picks
# the default (rv64) one, which lacks the 32-bit helpers (__ashldi3) LTO's code may call.
FW_LIBGCC := $(shell $(FW_CC) -march=rv32im -mabi=ilp32 -print-libgcc-file-name 2>/dev/null)
FW_SRCS := firmware/runtime/crt0.S $(sort $(wildcard firmware/runtime/*.c firmware/app/*.c))
FW_DIR := $(BUILD)/firmware
FW_ELF := $(FW_DIR)/fw.elf
FW_IMAGE := $(FW_DIR)/imem.hex

$(FW_ELF): $(FW_SRCS) $(wildcard firmware/include/*.h firmware/app/*.h) firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -T firmware/runtime/link.ld $(FW_SRCS) $(FW_LIBGCC) -o $@

$(FW_IMAGE): $(FW_ELF) firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FW_DIR)

# A test image that traps right after booting (exercises the panic path end to end).
FW_TRAP_DIR := $(FW_DIR)/trap
$(FW_TRAP_DIR)/fw.elf: $(FW_SRCS) $(wildcard firmware/include/*.h firmware/app/*.h) firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DFW_TEST_TRAP -T firmware/runtime/link.ld $(FW_SRCS) $(FW_LIBGCC) -o $@
$(FW_TRAP_DIR)/imem.hex: $(FW_TRAP_DIR)/fw.elf firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FW_TRAP_DIR)

# A test image with the TEST_FAULT command (panic / hang on request: tb/robust/test_fw_recovery).
# Production images are built without FW_TEST_HOOKS and answer that opcode BAD_OPCODE.
FW_HOOKS_DIR := $(FW_DIR)/hooks
$(FW_HOOKS_DIR)/fw.elf: $(FW_SRCS) $(wildcard firmware/include/*.h firmware/app/*.h) firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DFW_TEST_HOOKS -T firmware/runtime/link.ld $(FW_SRCS) $(FW_LIBGCC) -o $@
$(FW_HOOKS_DIR)/imem.hex: $(FW_HOOKS_DIR)/fw.elf firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FW_HOOKS_DIR)

firmware: $(FW_IMAGE) $(FW_TRAP_DIR)/imem.hex $(FW_HOOKS_DIR)/imem.hex

# Host unit tests: the firmware sources (all but main and crt0) built with MOCK_MMIO, and the
# provider's data path (WQE and CQ code; not its libibverbs glue, which needs libibverbs).
FW_HOST_SRCS := $(filter-out firmware/runtime/fw_libc.c,$(sort $(wildcard firmware/runtime/*.c))) $(filter-out firmware/app/main.c,$(sort $(wildcard firmware/app/*.c))) \
  firmware/tests/mock_mmio.c firmware/tests/mock_rqf.c
FW_TESTS := test_fw_runtime test_fw_cmd test_fw_xport test_fw_robust test_fw_arp test_fw_rqgrant
$(FW_DIR)/test_%: firmware/tests/test_%.c $(FW_HOST_SRCS) $(wildcard firmware/include/*.h firmware/app/*.h firmware/tests/*.h host-driver/provider/*) spec/include/rnic_spec.h tb/tx_build/txb_ref.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -DMOCK_MMIO -Ifirmware/include -Ifirmware/tests -Ihost-driver/provider $< \
	  $(FW_HOST_SRCS) $(HOST_PROV_SRCS) -o $@

TEST_SUITES += firmware
test-firmware: $(addprefix $(FW_DIR)/,$(FW_TESTS)) $(FW_IMAGE)
	@rc=0; for t in $(FW_TESTS); do $(FW_DIR)/$$t || rc=1; done; exit $$rc
