# tb/robust/block.mk: system robustness of the firmware (tb/sys/test_robust_fw.cpp, linked into
# the simulator): create/destroy cycles of every resource with the counts checked through
# QUERY_RESOURCES, the tables filled to their QUERY_DEVICE limits, and random commands.
# Also SLVERR on each DMA path at the system level (tb/robust/test_pcie_errors.cpp), and on the
# EQ and command-queue rings with the device-error status (tb/robust/test_dev_errors.cpp), and
# panic / stuck-core recovery by reload (tb/robust/test_fw_recovery.cpp, the FW_TEST_HOOKS image).
# `make test-robust` is the short run; `make test-robust-long` the long one (10 000 cycles,
# 20 000 random commands, three seeds of random commands).
TEST_SUITES += robust

.PHONY: test-robust test-robust-long
test-robust: $(BUILD)/sim/rnic_sim $(BUILD)/firmware/hooks/imem.hex  # SIM_BIN is defined later (sim/block.mk)
	@rc=0; $(SIM_BIN) test-robust-fw --seed 1 --cycles 200 --fuzz 1000 || rc=1; \
	$(SIM_BIN) test-pcie-errors || rc=1; $(SIM_BIN) test-dev-errors || rc=1; \
	$(SIM_BIN) test-fw-recovery $(BUILD)/firmware/hooks/fw.img $(BUILD)/firmware/fw.img || rc=1; exit $$rc

test-robust-long: $(BUILD)/sim/rnic_sim
	@rc=0; $(SIM_BIN) test-robust-fw --seed 1 --cycles 10000 --fuzz 20000 || rc=1; \
	for s in 2 3; do $(SIM_BIN) test-robust-fw --seed $$s --cycles 0 --fuzz 20000 || rc=1; done; exit $$rc
