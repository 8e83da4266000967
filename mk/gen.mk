# Single-source contract: spec/rnic.toml -> SV package, register file, C header, docs.
GEN := $(PYTHON) spec/gen/rnic_gen.py
gen:
	@$(GEN)

TEST_SUITES += spec
test-spec:
	@scripts/test-spec.sh

$(BUILD)/spec/test_spec_c: tb/spec/test_spec_c.c spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $< -o $@

TEST_SUITES += spec-c
test-spec-c: $(BUILD)/spec/test_spec_c
	@$<
	@if echo '#include "rnic_spec.h"' | riscv64-unknown-elf-gcc -x c -std=c11 -Wall -Wextra -Werror \
	  -march=rv32im_zicsr -mabi=ilp32 -ffreestanding -fsyntax-only -Ispec/include - ; \
	then echo "PASS spec-c-header-builds-for-firmware"; else echo "FAIL spec-c-header-builds-for-firmware"; fi
