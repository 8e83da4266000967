# tb/monitors/block.mk: unit tests of the port protocol checkers (sim/monitors), plain C++ with no
# Verilator model: every rule broken once on purpose must be reported, legal traffic must not be.
TEST_SUITES += monitors

MON_BUILD := $(BUILD)/monitors
MON_BIN := $(MON_BUILD)/test_monitors

$(MON_BIN): tb/monitors/test_monitors.cpp sim/monitors/port_monitors.cpp $(wildcard sim/monitors/*.h sim/host/axi_ports.h tb/common/*.h)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O1 -g -Wall -Wextra -Werror -Isim -Itb/common tb/monitors/test_monitors.cpp \
	  sim/monitors/port_monitors.cpp -o $@

.PHONY: test-monitors
test-monitors: $(MON_BIN)
	@$(MON_BIN)
