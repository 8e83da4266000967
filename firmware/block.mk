# Firmware for the soft core (riscv64-unknown-elf-gcc, rv32im_zicsr/ilp32, freestanding) and its
# host unit tests (the same sources built with MOCK_MMIO).
FW_CC := riscv64-unknown-elf-gcc
FW_CFLAGS := -march=rv32im_zicsr -mabi=ilp32 -std=c11 -O2 -g -Wall -Wextra -Werror -ffreestanding \
  -fno-builtin -nostdlib -Ispec/include -Ifirmware/include
FW_SRCS := firmware/runtime/crt0.S $(sort $(wildcard firmware/runtime/*.c firmware/app/*.c))
FW_DIR := $(BUILD)/firmware
FW_ELF := $(FW_DIR)/fw.elf
FW_IMAGE := $(FW_DIR)/imem.hex

$(FW_ELF): $(FW_SRCS) $(wildcard firmware/include/*.h) firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -T firmware/runtime/link.ld $(FW_SRCS) -lgcc -o $@

$(FW_IMAGE): $(FW_ELF) firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FW_DIR)

# A test image that traps right after booting (exercises the panic path end to end).
FW_TRAP_DIR := $(FW_DIR)/trap
$(FW_TRAP_DIR)/fw.elf: $(FW_SRCS) $(wildcard firmware/include/*.h) firmware/runtime/link.ld spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DFW_TEST_TRAP -T firmware/runtime/link.ld $(FW_SRCS) -lgcc -o $@
$(FW_TRAP_DIR)/imem.hex: $(FW_TRAP_DIR)/fw.elf firmware/tools/mkimage.py
	$(PYTHON) firmware/tools/mkimage.py $< $(FW_TRAP_DIR)

firmware: $(FW_IMAGE) $(FW_TRAP_DIR)/imem.hex

FW_TEST_SRCS := $(sort $(wildcard firmware/runtime/*.c)) firmware/app/fw_cmd.c firmware/tests/test_fw_runtime.c
$(FW_DIR)/test_fw_runtime: $(FW_TEST_SRCS) $(wildcard firmware/include/*.h) spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -DMOCK_MMIO -Ifirmware/include $(FW_TEST_SRCS) -o $@

TEST_SUITES += firmware
test-firmware: $(FW_DIR)/test_fw_runtime $(FW_IMAGE)
	@$(FW_DIR)/test_fw_runtime
