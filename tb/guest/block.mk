# Suite guest: the kernel module in a QEMU guest (TCG, Debian's stock kernel) against one
# simulated NIC served through the ivshmem guest transport (tb/guest/test_guest.sh,
# docs/kernel-module.md). The guest's kernel is the one interop uses (build/guest/, by ABI).
TEST_SUITES += guest
.PHONY: test-guest
test-guest: $(SIM_BIN) provider $(KMOD_KO)
	@tb/guest/test_guest.sh

# Longer form (make test-long): the traffic cases with more iterations and larger messages.
TEST_LONG += guest-long
.PHONY: test-guest-long
test-guest-long: $(SIM_BIN) provider $(KMOD_KO)
	@tb/guest/test_guest.sh --long

# Our own verbs programs for the guest: kmod_mr (PDs, MRs, CQs, the doorbell page, bad input at
# the kernel boundary), kmod_async (waits for the fatal event of a removed device), kmod_events
# (QP access error and CQ overrun against the host side, read as asynchronous events; solicited-only
# arming against solicit_peer, which runs on the host side).
GUEST_PROGS := $(BUILD)/guest-bin/kmod_mr $(BUILD)/guest-bin/kmod_async $(BUILD)/guest-bin/kmod_events \
  $(BUILD)/guest-bin/solicit_peer
$(BUILD)/guest-bin/%: tb/guest/%.c tb/guest/guest_rc.h spec/include/rnic_spec.h
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=c11 -O2 -g -Wall -Wextra -Werror -Ispec/include $< -o $@ -libverbs
test-guest test-guest-long: $(GUEST_PROGS) $(FW_IMAGE) $(BUILD)/firmware/hooks/imem.hex
