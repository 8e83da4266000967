# tb/provider/block.mk: the rdma-core provider (mk/provider.mk). Its verbs layer, linked from
# the very objects of librnic-rdmav34.so, against a mock backend (WQE/CQE bytes, doorbells,
# backend requests, rejections); then the built .so: its exports, its libibverbs imports, that
# it loads with RTLD_NOW, that ibv_devices survives it, the build's libibverbs guard, and
# `make install` (into a DESTDIR: the tests never install for real).
TEST_SUITES += provider

PROVT_BUILD := $(BUILD)/tb-provider
PROVT_SRCS := $(filter-out tb/provider/dlopen_so.c,$(sort $(wildcard tb/provider/*.c)))
PROVT_BIN := $(PROVT_BUILD)/test_provider
PROVT_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Ispec/include -Ihost-driver/core \
                -Ihost-driver/provider -Itb/provider
# What libibverbs 44 exports under IBVERBS_PRIVATE_34 that this provider may import.
PROVT_PRIVATE_OK := verbs_register_driver_34 _verbs_init_and_alloc_context verbs_set_ops \
                    verbs_uninit_context ibv_cmd_get_context ibv_cmd_query_port \
                    ibv_cmd_alloc_pd ibv_cmd_dealloc_pd ibv_cmd_reg_mr ibv_cmd_dereg_mr \
                    ibv_cmd_create_cq ibv_cmd_destroy_cq ibv_cmd_create_qp ibv_cmd_destroy_qp \
                    ibv_cmd_modify_qp ibv_cmd_query_qp ibv_cmd_create_ah ibv_cmd_destroy_ah ibv_cmd_req_notify_cq

# The provider's objects but its backend choice: the test's rnicp_be_select hands out the mock,
# and the real one is built again as tb_real_be_select to be tested on its own.
PROVT_OBJS := $(filter-out $(PROV_BUILD)/rnicp_backend.o,$(PROV_OBJS))

$(PROVT_BIN): $(PROVT_SRCS) $(wildcard tb/provider/*.h) $(PROVT_OBJS) host-driver/provider/rnicp_backend.c
	@mkdir -p $(@D)
	$(HOST_CC) $(filter-out -D_GNU_SOURCE,$(PROVT_CFLAGS)) -Drnicp_be_select=tb_real_be_select -c host-driver/provider/rnicp_backend.c \
	  -o $(PROVT_BUILD)/real_be_select.o
	$(HOST_CC) $(PROVT_CFLAGS) $(PROVT_SRCS) $(PROVT_OBJS) $(PROVT_BUILD)/real_be_select.o -o $@ -libverbs -lpthread

$(PROVT_BUILD)/dlopen_so: tb/provider/dlopen_so.c
	@mkdir -p $(@D)
	$(HOST_CC) -std=c11 -Wall -Wextra -Werror $< -o $@ -ldl

.PHONY: test-provider
test-provider: $(PROVT_BIN) $(PROVT_BUILD)/dlopen_so $(PROV_SO)
	@rc=0; \
	$(PROVT_BIN) || rc=1; \
	exp=$$(nm -D --defined-only $(PROV_SO) | awk '{print $$3}'); \
	if [ -z "$$exp" ]; then echo "PASS so-exports-nothing"; else echo "FAIL so-exports-nothing exports:" $$exp; rc=1; fi; \
	priv=$$(nm -D --undefined-only --with-symbol-versions $(PROV_SO) | awk '/@IBVERBS_PRIVATE_34$$/ {sub(/@.*/, "", $$2); print $$2}'); \
	bad=""; for s in $$priv; do case " $(PROVT_PRIVATE_OK) " in *" $$s "*) ;; *) bad="$$bad $$s";; esac; done; \
	if [ -z "$$bad" ] && echo "$$priv" | grep -qx verbs_register_driver_34; then echo "PASS so-imports-only-known-private-abi"; \
	else echo "FAIL so-imports-only-known-private-abi unexpected:$$bad / got:" $$priv; rc=1; fi; \
	cmdusers=$$(for o in $(PROV_OBJS); do nm -u $$o | grep -q ' ibv_cmd_' && basename $$o; done); \
	if [ "$$cmdusers" = rnicp_be_kernel.o ]; then echo "PASS so-ibv-cmd-only-in-kernel-backend"; \
	else echo "FAIL so-ibv-cmd-only-in-kernel-backend the kernel's command path is reached from: $$cmdusers"; rc=1; fi; \
	if out=$$($(PROVT_BUILD)/dlopen_so $(abspath $(PROV_SO))); then echo "PASS so-dlopen-rtld-now"; \
	else echo "FAIL so-dlopen-rtld-now $$out"; rc=1; fi; \
	ref=$$(ibv_devices 2>&1); refrc=$$?; \
	out=$$(RDMAV_DRIVERS=$(abspath $(PROV_BUILD))/librnic IBV_SHOW_WARNINGS=1 ibv_devices 2>&1); orc=$$?; \
	if [ $$orc -lt 128 ] && [ $$orc -eq $$refrc ] && ! echo "$$out" | grep -q "couldn't load driver"; then \
	  echo "PASS so-ibv-devices-with-provider-no-device"; \
	else echo "FAIL so-ibv-devices-with-provider-no-device rc $$orc (without: $$refrc): $$out"; rc=1; fi; \
	g=$(PROVT_BUILD)/guard; rm -rf $$g; \
	if out=$$($(MAKE) --no-print-directory BUILD=$$g PROV_IBVERBS_VERSION=1.14.99.0 $$g/provider/.libibverbs-abi-ok 2>&1); then \
	  echo "FAIL provider-build-refuses-other-libibverbs built anyway"; rc=1; \
	elif echo "$$out" | grep -q "rdma-core 44.0"; then echo "PASS provider-build-refuses-other-libibverbs"; \
	else echo "FAIL provider-build-refuses-other-libibverbs $$out"; rc=1; fi; \
	if out=$$($(MAKE) --no-print-directory BUILD=$$g PROV_IBVERBS=/bin/true $$g/provider/.libibverbs-abi-ok 2>&1); then \
	  echo "FAIL provider-build-refuses-lib-without-private-34 built anyway"; rc=1; \
	elif echo "$$out" | grep -q "verbs_register_driver_34@@IBVERBS_PRIVATE_34"; then echo "PASS provider-build-refuses-lib-without-private-34"; \
	else echo "FAIL provider-build-refuses-lib-without-private-34 $$out"; rc=1; fi; \
	rm -rf $$g; \
	d=$(PROVT_BUILD)/destdir; rm -rf $$d; \
	if $(MAKE) --no-print-directory DESTDIR=$$d install > /dev/null 2>&1 && \
	   cmp -s $(PROV_SO) $$d$(PROV_INSTALL_DIR)/librnic-rdmav34.so && \
	   [ "$$(cat $$d/etc/libibverbs.d/rnic.driver)" = "driver rnic" ]; then echo "PASS provider-install-to-destdir"; \
	else echo "FAIL provider-install-to-destdir nothing or wrong files under $$d"; rc=1; fi; \
	rm -rf $$d; \
	exit $$rc
