# tb/host/block.mk: host software unit tests: driver core (command queue, MTT, IDs, EQ) against
# a mock device and a fake firmware, provider data path (WQEs, doorbells, CQ polling).
TEST_SUITES += host

HOSTT_BUILD := $(BUILD)/host
HOSTT_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Ispec/include -Ihost-driver/core \
                -Ihost-driver/provider -Itb/host
HOSTT_LIB_SRCS := $(sort $(wildcard host-driver/core/rnic_cmdq.c host-driver/core/rnic_cmd.c \
                  host-driver/core/rnic_mr.c host-driver/core/rnic_res.c host-driver/core/rnic_eq.c \
                  $(HOST_PROV_SRCS)))
HOSTT_SRCS := $(sort $(wildcard tb/host/*.c))
HOSTT_HDRS := $(wildcard host-driver/core/*.h host-driver/provider/*.h tb/host/*.h tb/host/kstub/*/*.h) spec/include/rnic_spec.h
HOSTT_BIN := $(HOSTT_BUILD)/test_host
# Every driver-core and provider source must also build as strict ISO C11.
HOSTT_STRICT := -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -Ispec/include \
                -Ihost-driver/core -Ihost-driver/provider
# ... and the driver core under __KERNEL__ with no libc at all (tb/host/kstub stands in for the
# few kernel headers it includes).
HOSTT_KERNEL := -std=c11 -D__KERNEL__ -nostdinc -ffreestanding -Wall -Wextra -Werror -fsyntax-only \
                -Itb/host/kstub -Ispec/include -Ihost-driver/core

$(HOSTT_BIN): $(HOSTT_SRCS) $(HOSTT_LIB_SRCS) $(HOSTT_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOSTT_CFLAGS) $(HOSTT_SRCS) $(HOSTT_LIB_SRCS) -o $@ -pthread

.PHONY: test-host
test-host: $(HOSTT_BIN)
	@rc=0; \
	for f in $(sort $(wildcard host-driver/core/*.c) $(HOST_PROV_SRCS)); do \
	  if $(HOST_CC) $(HOSTT_STRICT) $$f 2> $(HOSTT_BUILD)/strict.log; then echo "PASS host-strict-c11-$$(basename $$f .c)"; \
	  else echo "FAIL host-strict-c11-$$(basename $$f .c) $$(head -1 $(HOSTT_BUILD)/strict.log)"; rc=1; fi; \
	done; \
	for f in $(sort $(wildcard host-driver/core/*.c)); do \
	  if $(HOST_CC) $(HOSTT_KERNEL) $$f 2> $(HOSTT_BUILD)/kernel.log; then echo "PASS host-kernel-nolibc-$$(basename $$f .c)"; \
	  else echo "FAIL host-kernel-nolibc-$$(basename $$f .c) $$(head -1 $(HOSTT_BUILD)/kernel.log)"; rc=1; fi; \
	done; \
	if printf '#include "rnic_os.h"\n#include "rnic_cmd.h"\n#include "rnic_eq.h"\n#include "rnic_res.h"\nint main(){return 0;}\n' | \
	  g++ -x c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -Ispec/include -Ihost-driver/core - 2> $(HOSTT_BUILD)/cxx.log; \
	then echo "PASS host-core-headers-build-as-cxx"; else echo "FAIL host-core-headers-build-as-cxx $$(head -1 $(HOSTT_BUILD)/cxx.log)"; rc=1; fi; \
	libc=$$(grep -lE '#include <(stdio|stdlib|unistd|pthread|time)\.h>' $(HOSTT_LIB_SRCS) host-driver/core/rnic_*.h 2>/dev/null | grep core/ ); \
	if [ -z "$$libc" ]; then echo "PASS host-core-no-libc-headers"; else echo "FAIL host-core-no-libc-headers $$libc"; rc=1; fi; \
	$(HOSTT_BIN) $${SEED:-1} || rc=1; \
	exit $$rc
