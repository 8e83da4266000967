# Single-source contract: spec/rnic.toml -> SV package, register file, C header, docs.
GEN := $(PYTHON) spec/gen/rnic_gen.py
gen:
	@$(GEN)

TEST_SUITES += spec
test-spec:
	@scripts/test-spec.sh

# The accessor test in three builds: default (single accesses through memcpy), with the
# firmware's alignment promise, and forced byte by byte (the portable fallback).
# -g0: the debug info of the one generated-check function took 29 of 30 CPU s per variant.
SPEC_C_VARIANTS := default aligned bytes
SPEC_C_FLAGS_default :=
SPEC_C_FLAGS_aligned := -DRNIC_LAYOUT_ALIGNED
SPEC_C_FLAGS_bytes := -DRNIC_NO_FAST_ACCESS
$(BUILD)/spec/test_spec_c_%: tb/spec/test_spec_c.c spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -g0 $(SPEC_C_FLAGS_$*) $< -o $@

# An aligned 32-bit field must be one lw on the soft core (the firmware's hot path relies on it).
SPEC_C_RV := riscv64-unknown-elf-gcc -x c -std=c11 -Wall -Wextra -Werror -march=rv32im_zicsr -mabi=ilp32 \
  -ffreestanding -fno-builtin -O2 -Ispec/include

TEST_SUITES += spec-c
test-spec-c: $(addprefix $(BUILD)/spec/test_spec_c_,$(SPEC_C_VARIANTS))
	@rc=0; for v in $(SPEC_C_VARIANTS); do echo "variant $$v"; $(BUILD)/spec/test_spec_c_$$v || rc=1; done; \
	if echo '#include "rnic_spec.h"' | $(SPEC_C_RV) -fsyntax-only - ; \
	then echo "PASS spec-c-header-builds-for-firmware"; else echo "FAIL spec-c-header-builds-for-firmware"; rc=1; fi; \
	if printf '#include "rnic_spec.h"\nuint32_t f(const void *p) { return rnic_qp_ctx_get_sq_psn(p); }\n' | \
	  $(SPEC_C_RV) -DRNIC_LAYOUT_ALIGNED -S -o - - | grep -v '^\s*\.' | grep -q lbu; \
	then echo "FAIL spec-c-firmware-aligned-field-single-load byte loads"; rc=1; \
	else echo "PASS spec-c-firmware-aligned-field-single-load"; fi; exit $$rc
