# The Linux kernel module (host-driver/linux, docs/kernel-module.md), built out of tree against
# the headers of the kernel Debian's linux-headers-amd64 points at: the same kernel the guest
# boots (sim/guest/guest-kernel.sh). Kbuild writes objects beside its sources, so the sources
# are linked into the build folder and Kbuild runs there.
KMOD_KV = $(or $(KV),$(shell apt-cache depends linux-headers-amd64 2>/dev/null | awk '/Depends: linux-headers-/{sub("linux-headers-","",$$2); print $$2; exit}'))
KMOD_KDIR = /usr/src/linux-headers-$(KMOD_KV)
KMOD_BUILD := $(BUILD)/kmod
KMOD_KO := $(KMOD_BUILD)/rnic.ko
KMOD_SRCS := $(sort $(wildcard host-driver/linux/*.c host-driver/linux/*.h host-driver/linux/Kbuild)) \
	$(sort $(wildcard host-driver/core/*.c host-driver/core/*.h)) spec/include/rnic_spec.h

# $(call kmod_build,DIR,EXTRA): links the sources into DIR and runs Kbuild there.
define kmod_build
	@mkdir -p $(1)
	@for f in $(filter %.c %/Kbuild,$(KMOD_SRCS)); do ln -sf $(CURDIR)/$$f $(1)/; done
	$(MAKE) -C $(KMOD_KDIR) M=$(abspath $(1)) RNIC_SRC=$(CURDIR) $(2) modules
endef

.PHONY: kmod
kmod: $(KMOD_KO)
$(KMOD_KO): $(KMOD_SRCS)
	@[ -d $(KMOD_KDIR) ] || { echo "kmod: $(KMOD_KDIR) missing (linux-headers-amd64, scripts/install-deps.sh)" >&2; exit 1; }
	$(call kmod_build,$(KMOD_BUILD),)
	@touch $@
