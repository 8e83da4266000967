# tb/tools/block.mk: the board tool (host-driver/tools/rnic-tool) and its tests. Suite tools: PCI
# enumeration through libpciaccess against a fake sysfs tree in a private mount namespace, every
# command over the simulator socket protocol against a fake service (tb/tools/fake_sim.c), bad
# arguments. Suite tools-sim: every command against the real simulator device service.
TOOL_BUILD := $(BUILD)/tools
TOOL_BIN := $(TOOL_BUILD)/rnic-tool
TOOL_SRCS := $(sort $(wildcard host-driver/tools/*.c))
TOOL_HDRS := $(wildcard host-driver/tools/*.h host-driver/core/*.h) host-driver/provider/rnicp_sim_proto.h \
             spec/include/rnic_spec.h spec/include/rnic_spec_regs.h
TOOL_FAKE := $(TOOL_BUILD)/fake_sim

$(TOOL_BIN): $(TOOL_SRCS) $(TOOL_HDRS) $(HOST_CORE_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ihost-driver/tools $(TOOL_SRCS) $(HOST_CORE_LIB) -lpciaccess -o $@

$(TOOL_FAKE): tb/tools/fake_sim.c $(TOOL_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $< -o $@

.PHONY: tools test-tools
tools: $(TOOL_BIN)

TEST_SUITES += tools
# The project's own firmware image (made with imem.hex by firmware/block.mk) must pass the
# tool's checks as it is.
test-tools: $(TOOL_BIN) $(TOOL_FAKE) $(BUILD)/firmware/imem.hex
	@tb/tools/test_tools.sh $(TOOL_BIN) $(TOOL_FAKE) $(BUILD)/firmware/fw.img

# The same tool against the real simulator device service (rnic_sim run, two NICs): needs the
# verilated simulator and the provider it points libibverbs at, which make test builds anyway.
TEST_SUITES += tools-sim
.PHONY: test-tools-sim
test-tools-sim: $(TOOL_BIN) $(BUILD)/sim/rnic_sim $(PROV_SO) $(BUILD)/firmware/imem.hex
	@tb/tools/test_tools_sim.sh $(TOOL_BIN) $(BUILD)/sim/rnic_sim $(BUILD)/firmware/fw.img
