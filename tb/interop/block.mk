# Suite interop: our simulated NIC against Linux Soft-RoCE (rxe) in a QEMU guest (sim/guest/,
# docs/interop.md). The guest's kernel is fetched from Debian's archive at run time (cached in
# build/guest/ by ABI), its initramfs assembled from installed Debian packages.
TEST_SUITES += interop
.PHONY: test-interop test-interop-long
test-interop: $(SIM_BIN) provider
	@tb/interop/test_interop.sh

# Longer forms (make test-long): more iterations and sizes, and lossy links.
TEST_LONG += interop-long
test-interop-long: $(SIM_BIN) provider
	@tb/interop/test_interop.sh --long

# Our own verbs program for the operations perftest and pingpong cannot check (tb/interop/
# ix_rdma.c): it runs on the host side through our provider and inside the guest on rxe.
IX_RDMA := $(BUILD)/interop-bin/ix_rdma
$(IX_RDMA): tb/interop/ix_rdma.c
	@mkdir -p $(dir $@)
	$(HOST_CC) -std=c11 -O2 -g -Wall -Wextra -Werror $< -o $@ -libverbs
test-interop test-interop-long: $(IX_RDMA)
