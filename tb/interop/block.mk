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
