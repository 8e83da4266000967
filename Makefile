# Top-level build of the RNIC: RTL, firmware, host software, co-simulation and their tests.
# Blocks add themselves through fragments (mk/*.mk, tb/*/block.mk, sim/block.mk): each appends
# to TEST_SUITES, LINT_TOPS, SYNTH_TOPS and BENCHES and defines the rules those names imply.
SHELL := /bin/bash
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1
.DEFAULT_GOAL := help
BUILD := build
# WAVES=1 (docs/development.md, "Waveforms"): every model in the trace build, a tree of its own,
# so the normal build never pays for tracing; the programs write their FSTs into build/waves/fst.
ifneq ($(filter-out 0,$(WAVES)),)
BUILD := build/waves
export WAVES_DIR ?= $(CURDIR)/build/waves/fst
WAVES_FLAGS := --trace-fst --trace-max-width 1024
# The traced simulator takes the normal one's compiler and flags (sim/block.mk's SIM_OPT): 36 of
# its 38 harness files do not depend on tracing, so they are ccache hits of the normal build
# (tb/sim/block.mk builds that first) and only the model and two files are compiled again.
endif
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
# ccache rewrites absolute paths inside the checkout into relative ones, so a fresh clone in
# another folder (CI's) hits what an earlier clone compiled: without it, every -I$(CURDIR)/...
# and every absolute source path made each new folder a cold ccache (docs/development.md).
export CCACHE_BASEDIR ?= $(CURDIR)
# OPT_SLOW=-O0: Verilator's __Slow files (construction, initial blocks, trace declarations) run
# once, so they are compiled unoptimized: a third of the compile time of -O2 for them
# (docs/development.md, "Test time").
# OPT_FAST=-O1 instead of Verilator's -Os for the per-cycle code and the testbench's own files:
# xport_rx's w512 testbench compiles in 37 instead of 40 CPU s and runs seed 1 in 2.4 instead of
# 3.7 CPU s (docs/development.md). The simulators set their own (sim/block.mk's SIM_OPT, later on
# the command line, so it wins).
VERILATOR_FLAGS := --cc --exe --build -j 2 -O3 -Wall --x-assign unique --x-initial unique \
  -MAKEFLAGS OBJCACHE=ccache -MAKEFLAGS OPT_SLOW=-O0 -MAKEFLAGS OPT_FAST=-O1 -CFLAGS "-O2 -std=c++17 -Wno-unused-parameter" \
  -CFLAGS "-I$(CURDIR)/spec/include -I$(CURDIR)/sim -I$(CURDIR)/tb/common" $(WAVES_FLAGS) $(VERILATOR_EXTRA)
# VERILATOR_EXTRA: flags for a one-off build, e.g. a profile (docs/sim-speed.md):
#   make BUILD=build/prof VERILATOR_EXTRA="--prof-cfuncs -CFLAGS -g" build/prof/sim/rnic_sim
# and for callgrind's per-line figures VERILATOR_EXTRA="-CFLAGS -g -CFLAGS -gdwarf-4": the
# simulators are compiled with clang (sim/block.mk), whose default DWARF 5 Valgrind 3.19 cannot
# read (docs/sim-speed.md, steps 17 and 18).
VERILATOR_EXTRA ?=
# Each model's build CPU seconds (verilation and compiles: line 2 of bash's `times`) go to OUTDIR/build.cpu:
# docs/development.md's test-time table is made from them.
define verilate
	@mkdir -p $(1)
	$(VERILATOR) $(VERILATOR_FLAGS) -Mdir $(1) --top-module $(2) $(RTL_VLT) $(RTL_PKGS) $(wildcard rtl/*/$(2).sv) $(3) $(RTL_INCS) \
	  $(abspath $(4)) $(5) -o V$(2) > $(1)/verilator.log 2>&1 || { tail -40 $(1)/verilator.log; exit 1; }; \
	  times > $(1)/build.cpu
endef
SYSTEMC_FLAGS := -CFLAGS -I/usr/include -LDFLAGS -lsystemc

# Defined here as well as in sim/block.mk so that fragments included before it can name it as
# a prerequisite (make expands prerequisites as it reads them).
SIM_BIN := $(BUILD)/sim/rnic_sim

TEST_SUITES :=
TEST_LONG :=
LINT_TOPS :=
SYNTH_TOPS :=
BENCHES :=

include $(sort $(wildcard mk/*.mk))
include $(sort $(wildcard tb/*/block.mk))
include $(sort $(wildcard sim/block.mk firmware/block.mk))

.PHONY: help deps test test-long gen lint synth bench demo clean run-suites list-suites print-suite-build
help:
	@echo "make demo   the main job: ibv_rc_pingpong and ib_write_bw between two simulated NICs, report"
	@echo "make test   install missing packages, build everything, run every test and gate"
	@echo "            SHARD=I/N: only shard I of N (scripts/shard.sh); TEST_JOBS=N suites at a time (2);"
	@echo "            TEST_NICE=0: no lower priority for all but the longest suite (on a busy machine)"
	@echo "make suite-NAME   one suite as make test runs it (log, JUnit XML in $(BUILD)/results/)"
	@echo "WAVES=1    with any target: the trace build (build/waves/), FSTs in build/waves/fst/ (README)"
	@echo "make test-long    the longer forms of the suites (not run by CI): $(TEST_LONG)"
	@echo "make lint   verilator --lint-only -Wall on every RTL top ($(LINT_TOPS))"
	@echo "make synth  Yosys 0.23 synth_xilinx of $(SYNTH_TOPS); reports in build/synth/"
	@echo "make gen    regenerate SV/C/Markdown from spec/rnic.toml"
	@echo "make bitstream BOARD=vcu118|u250   the Vivado flow (bitstream-scripts/vivado, docs/boards.md)"
	@echo "make bench  cycle-accurate benchmarks; tables and plots in build/bench/"
	@echo "make sim-pgo    the bench's simulator, profile-guided (build/sim-pgo/rnic_sim, docs/sim-speed.md)"
	@echo "make rnic-sim   the simulator and the provider for sim/rnic-sim run -- COMMAND (verbs programs)"
	@echo "make provider   build/provider/librnic-rdmav34.so; make install puts it where libibverbs looks"
	@echo "make tools      build/tools/rnic-tool, the board tool"
	@echo "make clean  remove build/"
	@echo "suites: $(TEST_SUITES)"

deps:
	@scripts/install-deps.sh

# Suites run two at a time (the machine's two cores) after one build of what they need; see
# scripts/run-suites.sh. Per-suite budgets (seconds, mk/suites.mk) are in docs/development.md.
SHARD ?=
TEST_JOBS ?= 2
TEST_NICE ?= 10
RESULTS := $(BUILD)/results
test: deps
	@rm -rf $(RESULTS)
	@echo "== $(words $(TEST_SUITES)) suites: $(TEST_SUITES)"
	@MAKE="$(MAKE)" SHARD="$(SHARD)" TEST_JOBS="$(TEST_JOBS)" TEST_NICE="$(TEST_NICE)" RESULTS="$(RESULTS)" scripts/run-suites.sh
	@BUDGETS="$$($(MAKE) -s --no-print-directory list-suites)" RESULTS="$(RESULTS)" scripts/summary.sh

# The longer forms of suites (more seeds, longer runs): for people and nightly machines; CI
# does not run them. Same logs and summary as make test.
test-long: deps
	@rm -rf $(RESULTS)
	@for s in $(TEST_LONG); do RESULTS="$(RESULTS)" scripts/run-suite.sh $$s $(MAKE) --no-print-directory test-$$s; done
	@RESULTS="$(RESULTS)" scripts/summary.sh

# Every suite with its budget in seconds, one per line (scripts/shard.sh reads this).
list-suites:
	@$(foreach s,$(TEST_SUITES),echo "$(s) $(or $(SUITE_BUDGET_$(s)),60)";)
# "suite: targets" for each of SUITES: what its recipe builds by calling make itself (its rule's
# prerequisites are found in make's database by scripts/run-suites.sh).
print-suite-build:
	@$(foreach s,$(SUITES),echo "$(s): $(SUITE_BUILD_$(s))";)

# All suites one after another through make (make test runs them with scripts/run-suites.sh).
run-suites: $(addprefix suite-,$(TEST_SUITES))
suite-%:
	@RESULTS="$(RESULTS)" scripts/run-suite.sh $* $(MAKE) --no-print-directory test-$*

bench: deps $(addprefix bench-,$(BENCHES))

clean:
	rm -rf $(BUILD)
