# Top-level build of the RNIC: RTL, firmware, host software, co-simulation and their tests.
# Blocks add themselves through fragments (mk/*.mk, tb/*/block.mk, sim/block.mk): each appends
# to TEST_SUITES, LINT_TOPS, SYNTH_TOPS and BENCHES and defines the rules those names imply.
SHELL := /bin/bash
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1
.DEFAULT_GOAL := help
BUILD := build
PYTHON := python3

# ---- RTL sources: every SystemVerilog file under rtl/, packages first --------------------
RTL_PKGS := $(sort $(wildcard rtl/*/*_pkg.sv))
RTL_SRCS := $(RTL_PKGS) $(filter-out $(RTL_PKGS),$(sort $(wildcard rtl/*/*.sv)))
RTL_DIRS := $(sort $(patsubst %/,%,$(dir $(RTL_SRCS))))
RTL_INCS := $(addprefix -y ,$(RTL_DIRS)) $(addprefix -I,$(RTL_DIRS))
# Lint waivers live next to the block they concern, one .vlt per block, each with its reason.
RTL_VLT := $(sort $(wildcard rtl/*/*.vlt))

# ---- Verilator: one recipe for every verilated model ---------------------------------------
# $(call verilate,OUTDIR,TOP,EXTRA_SV,CPP_FILES,EXTRA_FLAGS) builds OUTDIR/V<TOP> as an executable.
VERILATOR := verilator
VERILATOR_FLAGS := --cc --exe --build -j 2 -O3 -Wall --x-assign unique --x-initial unique \
  -MAKEFLAGS OBJCACHE=ccache -CFLAGS "-O2 -std=c++17 -Wno-unused-parameter" \
  -CFLAGS "-I$(CURDIR)/spec/include -I$(CURDIR)/sim -I$(CURDIR)/tb/common" $(VERILATOR_EXTRA)
# VERILATOR_EXTRA: flags for a one-off build, e.g. a profile (docs/sim-speed.md):
#   make BUILD=build/prof VERILATOR_EXTRA="--prof-cfuncs -CFLAGS -g" build/prof/sim/rnic_sim
VERILATOR_EXTRA ?=
define verilate
	@mkdir -p $(1)
	$(VERILATOR) $(VERILATOR_FLAGS) -Mdir $(1) --top-module $(2) $(RTL_VLT) $(RTL_PKGS) $(wildcard rtl/*/$(2).sv) $(3) $(RTL_INCS) \
	  $(abspath $(4)) $(5) -o V$(2) > $(1)/verilator.log 2>&1 || (tail -40 $(1)/verilator.log; exit 1)
endef
SYSTEMC_FLAGS := -CFLAGS -I/usr/include -LDFLAGS -lsystemc

TEST_SUITES :=
LINT_TOPS :=
SYNTH_TOPS :=
BENCHES :=

include $(sort $(wildcard mk/*.mk))
include $(sort $(wildcard tb/*/block.mk))
include $(sort $(wildcard sim/block.mk firmware/block.mk))

.PHONY: help deps test gen lint synth bench demo clean run-suites
help:
	@echo "make demo   the main job: simulated NIC(s) under the SystemC harness, report printed"
	@echo "make test   install missing packages, build everything, run every test and gate"
	@echo "make lint   verilator --lint-only -Wall on every RTL top ($(LINT_TOPS))"
	@echo "make synth  Yosys 0.23 synth_xilinx of $(SYNTH_TOPS); reports in build/synth/"
	@echo "make gen    regenerate SV/C/Markdown from spec/rnic.toml"
	@echo "make bench  cycle-accurate benchmarks; tables and plots in build/bench/"
	@echo "make clean  remove build/"

deps:
	@scripts/install-deps.sh

test: deps
	@rm -rf $(BUILD)/results
	@echo "== running $(words $(TEST_SUITES)) suites: $(TEST_SUITES)"
	@$(MAKE) --no-print-directory run-suites
	@scripts/summary.sh

# Suites in PARALLEL_SUITES share no build products with the others (Yosys synthesis) and run
# in the background alongside the rest, which run one after another as before: synthesis is
# mostly one long Yosys process, so the second core would otherwise sit idle for minutes.
# Their result lines print when the rest are done; the logs and the summary are unchanged.
PARALLEL_SUITES ?=
SERIAL_SUITES = $(filter-out $(PARALLEL_SUITES),$(TEST_SUITES))
run-suites:
	@mkdir -p $(BUILD)/results
	@{ for s in $(filter $(PARALLEL_SUITES),$(TEST_SUITES)); do \
	    scripts/run-suite.sh $$s $(MAKE) --no-print-directory test-$$s; done > $(BUILD)/results/parallel.out; } & \
	$(MAKE) --no-print-directory $(addprefix suite-,$(SERIAL_SUITES)); rc=$$?; \
	wait; cat $(BUILD)/results/parallel.out; rm -f $(BUILD)/results/parallel.out; exit $$rc
suite-%:
	@scripts/run-suite.sh $* $(MAKE) --no-print-directory test-$*

bench: deps $(addprefix bench-,$(BENCHES))

clean:
	rm -rf $(BUILD)
