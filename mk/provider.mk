# The rdma-core 44.0 provider build/provider/librnic-rdmav34.so: the verbs layer
# (host-driver/provider/rnicp_main.c, rnicp_verbs_*.c), both backends and the data path, as
# position-independent objects of their own (the static librnicp.a of mk/host.mk stays
# non-PIC and free of libibverbs). Only the constructor's registration is needed from outside,
# so nothing is exported (-fvisibility=hidden).
PROV_BUILD := $(BUILD)/provider
PROV_SO := $(PROV_BUILD)/librnic-rdmav34.so
PROV_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden \
               -Ispec/include -Ihost-driver/core -Ihost-driver/provider
PROV_SRCS := $(sort $(wildcard host-driver/provider/*.c))
PROV_OBJS := $(PROV_SRCS:host-driver/provider/%.c=$(PROV_BUILD)/%.o)
PROV_HDRS := $(wildcard host-driver/provider/*.h host-driver/core/rnic_cmd.h) spec/include/rnic_spec.h \
             host-driver/linux/rnic_user_abi.h
# The library the provider's private ABI (rnicp_abi.h) was written against.
PROV_IBVERBS := /usr/lib/x86_64-linux-gnu/libibverbs.so.1
PROV_IBVERBS_VERSION := 1.14.44.0
PROV_ABI_OK := $(PROV_BUILD)/.libibverbs-abi-ok
# Where libibverbs 44 looks for lib<name>-rdmav34.so (compiled into it; no variable changes it).
PROV_INSTALL_DIR = $(or $(shell pkg-config --variable=libdir libibverbs 2>/dev/null),/usr/lib/$(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null))/libibverbs
PROV_DRIVER_FILE := /etc/libibverbs.d/rnic.driver

# rdma-core keeps the name IBVERBS_PRIVATE_34 across releases whose structs differ, so a
# provider built for another release would load and then mis-dispatch: refuse to build.
$(PROV_ABI_OK): $(wildcard $(PROV_IBVERBS))
	@mkdir -p $(@D)
	@v=$$(pkg-config --modversion libibverbs 2>/dev/null); \
	if [ "$$v" != "$(PROV_IBVERBS_VERSION)" ]; then \
	  echo "provider: libibverbs '$${v:-not found}' installed; host-driver/provider/rnicp_abi.h declares the private provider ABI of rdma-core 44.0 (libibverbs $(PROV_IBVERBS_VERSION), Debian bookworm's libibverbs-dev): install that or port rnicp_abi.h" >&2; \
	  exit 1; fi
	@if ! nm -D --with-symbol-versions $(PROV_IBVERBS) 2>/dev/null | grep -q ' verbs_register_driver_34@@IBVERBS_PRIVATE_34$$'; then \
	  echo "provider: $(PROV_IBVERBS) does not export verbs_register_driver_34@@IBVERBS_PRIVATE_34: this libibverbs cannot load a -rdmav34 provider" >&2; \
	  exit 1; fi
	@touch $@

$(PROV_BUILD)/%.o: host-driver/provider/%.c $(PROV_HDRS) $(PROV_ABI_OK)
	@mkdir -p $(@D)
	$(HOST_CC) $(PROV_CFLAGS) -c $< -o $@

# -z defs: every symbol resolved at link time (libibverbs loads providers with RTLD_NOW).
$(PROV_SO): $(PROV_OBJS)
	$(HOST_CC) -shared -Wl,-z,defs -Wl,-z,now -Wl,--as-needed -o $@.tmp $^ -libverbs -lpthread && mv -f $@.tmp $@

.PHONY: provider install uninstall
provider: $(PROV_SO)

# For users: libibverbs then finds the provider without RDMAV_DRIVERS. Tests never need it.
install: $(PROV_SO)
	install -D -m 0644 $(PROV_SO) $(DESTDIR)$(PROV_INSTALL_DIR)/librnic-rdmav34.so
	mkdir -p $(DESTDIR)$(dir $(PROV_DRIVER_FILE))
	echo "driver rnic" > $(DESTDIR)$(PROV_DRIVER_FILE)

uninstall:
	rm -f $(DESTDIR)$(PROV_INSTALL_DIR)/librnic-rdmav34.so $(DESTDIR)$(PROV_DRIVER_FILE)
