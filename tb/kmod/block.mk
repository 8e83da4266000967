# Suite kmod: the kernel module built from clean with W=1 (extra compiler warnings) and sparse
# (C=1), failing on any warning (tb/kmod/test_kmod.sh).
TEST_SUITES += kmod
.PHONY: test-kmod
test-kmod:
	@tb/kmod/test_kmod.sh $(BUILD)/kmod-check "$(KMOD_KDIR)"
