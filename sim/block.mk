# The SystemC co-simulation: rnic_core verilated once, every harness program linked into one
# binary (build/sim/rnic_sim PROGRAM). Programs: the demo, and the testbenches in tb/core.
SIM_CPP := sim/main/sim_main.cpp sim/nic/rnic_node.cpp $(sort $(wildcard sim/service/*.cpp sim/ivshmem/*.cpp)) $(sort $(wildcard tb/core/*.cpp)) $(sort $(wildcard sim/host/*.cpp sim/net/*.cpp sim/monitors/*.cpp tb/sim/*.cpp tb/sys/*.cpp tb/fuzz/*.cpp tb/robust/*.cpp tb/soak/*.cpp)) tb/roce/ref/roce_ref.cpp
SIM_DEPS := $(SIM_CPP) host-driver/linux/rnic_ivshmem_proto.h host-driver/linux/rnic_user_abi.h $(wildcard sim/*/*.h tb/common/*.h tb/sys/*.h tb/robust/*.h tb/soak/*.h) $(RTL_SRCS) $(HOST_CORE_LIB) $(HOST_PROV_LIB)
SIM_BIN := $(BUILD)/sim/rnic_sim
SIM_FW := $(BUILD)/sim/fw

# The model's per-cycle code at -O2 instead of Verilator's -Os: 13 % more NIC cycles per CPU
# second under the WRITE stream, no longer to compile cold (docs/sim-speed.md, step 4).
# The simulators (model and harness, 100g and 25g) are compiled and linked with clang instead
# of GCC 12: 6.5 % fewer host instructions per NIC cycle with clang 14, more with the profile below
# (docs/sim-speed.md, step 16); clang 19 (Debian 12's clang-19) 4.4 % fewer than clang 14 on the
# same model, the same cycles (step 22). SystemC and the host libraries stay GCC-built; the link is against
# the same libstdc++. LINK too: Verilator's makefile fixes it to the compiler it was configured
# with. SIM_CXX=g++ builds them with GCC again. The trace build (WAVES=1) uses the same flags, so
# its harness objects are ccache hits of this build (Makefile, WAVES).
# They are compiled for the host's x86-64 microarchitecture level: x86-64-v3 (AVX2, BMI2, FMA,
# POPCNT) where the host's dynamic loader reports it supported, else x86-64-v2 (POPCNT, SSE4.2;
# every x86-64 CPU since ~2009), nothing on other architectures. The model's wide AND/XOR/copy
# loops take 256-bit operations and its parities (the ICRC matrices) one POPCNT: 4.1 % fewer host
# instructions per NIC cycle with v3, 1.3 % with v2 (docs/sim-speed.md, step 19). -ffp-contract=off
# keeps FMA out of the harness's floating-point code, so its results are the same at every level.
# A binary built here runs on hosts of the same level or above; SIM_MARCH= builds without it.
SIM_CXX ?= clang++-19
ifeq ($(origin SIM_MARCH),undefined)
SIM_MARCH := $(shell [ "$$(uname -m)" = x86_64 ] || exit 0; \
  if /lib64/ld-linux-x86-64.so.2 --help 2>/dev/null | grep -q 'x86-64-v3 .supported'; \
  then echo x86-64-v3; else echo x86-64-v2; fi)
endif
SIM_OPT ?= -MAKEFLAGS OPT_FAST=-O2 -MAKEFLAGS CXX=$(SIM_CXX) -MAKEFLAGS LINK=$(SIM_CXX) \
  $(if $(SIM_MARCH),-CFLAGS -march=$(SIM_MARCH) -CFLAGS -ffp-contract=off)
# Verilator's make rebuilds objects from changed sources only: a build tree records the compiler
# and the target by a stamp file, and another one empties its object directory (no GCC and clang
# objects, nor two targets, mixed in one binary; ccache makes the rebuild cheap when it has seen them).
SIM_CXX_STAMP := .cxx-$(notdir $(SIM_CXX))$(if $(SIM_MARCH),-$(SIM_MARCH))
$(BUILD)/sim/$(SIM_CXX_STAMP) $(BUILD)/sim25/$(SIM_CXX_STAMP):
	@rm -rf $(@D)/obj $(@D)-obj $(@D)/.cxx-*
	@mkdir -p $(@D) && touch $@

# The firmware image is not baked in by path: the model reads "imem.hex"/"dmem.hex" from the
# directory the node chooses at run time (RNIC_FW_DIR, else fw/ next to the binary; see
# sim/nic/rnic_node.cpp), so a moved or copied build runs its own image, and a firmware change
# copies two files instead of verilating again.
# The simulator's core is the 100g configuration (bitstream-scripts/configs/100g.cfg: 512-bit,
# 1024 QPs), the one the boards take.
SIM_CONFIG := 100g
# The model's objects. The trace build's (WAVES=1) lie as deep below the checkout as the normal
# build's (build/waves/sim-obj, not build/waves/sim/obj): with CCACHE_BASEDIR, ccache names every
# source and include directory relative to the object directory, so only at the same depth are the
# trace build's harness objects (36 of 38 files do not depend on tracing) hits of this build's.
SIM_OBJ := $(BUILD)/sim/obj
ifneq ($(filter-out 0,$(WAVES)),)
SIM_OBJ := $(BUILD)/sim-obj
endif
$(SIM_OBJ)/Vrnic_core: $(SIM_DEPS) bitstream-scripts/configs/$(SIM_CONFIG).cfg $(BUILD)/sim/$(SIM_CXX_STAMP)
	$(call verilate,$(SIM_OBJ),rnic_core,,$(SIM_CPP),$(SIM_MODEL_FLAGS))
	@touch $@  # Verilator's make leaves an unchanged binary old: do not verilate again next time

SIM_MODEL_FLAGS = $(SYSTEMC_FLAGS) $$(bitstream-scripts/configs/cfg.py $(SIM_CONFIG) verilator) \
  -CFLAGS -I$(CURDIR)/host-driver/core -CFLAGS -I$(CURDIR)/host-driver/provider -CFLAGS -I$(CURDIR)/tb \
  -LDFLAGS $(abspath $(HOST_CORE_LIB)) -LDFLAGS $(abspath $(HOST_PROV_LIB)) \
  -GFwImemInit='"imem.hex"' -GFwDmemInit='"dmem.hex"' $(SIM_OPT)

# Renames, so running copies keep the files they opened.
$(SIM_BIN): $(SIM_OBJ)/Vrnic_core $(FW_IMAGE)
	@mkdir -p $(SIM_FW)
	@for f in imem.hex dmem.hex; do cp $(FW_DIR)/$$f $(SIM_FW)/$$f.tmp && mv -f $(SIM_FW)/$$f.tmp $(SIM_FW)/$$f; done
	@cp $< $@.tmp && mv -f $@.tmp $@

demo: deps $(SIM_BIN) provider
	@sim/service/demo.sh

TEST_SUITES += core
test-core: $(SIM_BIN) $(FW_TRAP_DIR)/imem.hex
	@$(SIM_BIN) test-bar0
	@$(SIM_BIN) test-fw $(FW_DIR)/fw.img $(FW_TRAP_DIR)/fw.img
	@$(SIM_BIN) test-cmdq
	@$(SIM_BIN) test-cmdq --hostile
	@$(SIM_BIN) test-arp

# RDMA between two NICs, in four suites so they spread over cores and shards (one sub-run per
# program invocation; each prints its command as RERUN on a failure):
# rdma: a clean link, then 1 % and 5 % loss, then loss with reordering, duplication and
# corruption (probabilities per frame in both directions; seeds fixed, so runs are repeatable),
# and the first list once more with 1 % loss and both NICs behind the hostile PCIe model.
# rdma-ext: once on a clean link, the wider checks of tb/sys/test_rdma_ext.cpp (ops, errors, RNR
# and retries, MTU 256/1024, UD, CQ); their known gaps print SKIP lines (run them with --gaps).
# Then priority marking (test-rdma-prio: 802.1Q on both ports, traffic classes per QP and AH) and
# its link capture checked by tb/sys/pcap_prio.py (and tshark).
# rdma-qps: 16 QP pairs with WRITE/READ/SEND and 64 pairs with WRITE/SEND, then every QP of the
# 100g core created (1022 per NIC) with traffic on QPN 2, 1023 and 6 random ones (64 pairs with READs
# pass too but take minutes of wall time, 17.6 ms simulated; no longer for dropped frames, the
# link's flow control keeps them, see sim/README.md).
# rdma-faults: ops and MTU once more under 5 % loss, reordering, duplication and corruption.
TEST_SUITES += rdma rdma-ext rdma-qps rdma-faults
RDMA_EXT := test-rdma-ops test-rdma-err test-rdma-rnr test-rdma-mtu test-rdma-ud test-rdma-cq test-rdma-modify
.PHONY: test-rdma test-rdma-ext test-rdma-qps test-rdma-faults
test-rdma: $(SIM_BIN)
	@mkdir -p $(BUILD)/sys
	@rc=0; for args in "1" "2 0.01 0 0 0" "3 0.05 0 0 0" "4 0.05 0.05 0.05 0.05" "5 0.01 0 0 0 --hostile"; do \
	  $(SIM_BIN) test-rdma $$args || rc=1; done; exit $$rc
test-rdma-ext: $(SIM_BIN)
	@mkdir -p $(BUILD)/sys  # their link captures
	@rc=0; for p in $(RDMA_EXT); do $(SIM_BIN) $$p 1 || rc=1; done; \
	$(SIM_BIN) test-rdma-prio 1 || rc=1; \
	tb/sys/pcap_prio.py build/sys/test-rdma-prio.pcap build/sys/test-rdma-prio.expect || rc=1; exit $$rc
test-rdma-qps: $(SIM_BIN)
	@mkdir -p $(BUILD)/sys  # their link captures
	@rc=0; $(SIM_BIN) test-rdma-qps 1 --qps 16 --pace 0 || rc=1; \
	$(SIM_BIN) test-rdma-qps 2 --qps 64 --pace 0 --no-read || rc=1; \
	$(SIM_BIN) test-rdma-qp-range 1 || rc=1; exit $$rc
test-rdma-faults: $(SIM_BIN)
	@mkdir -p $(BUILD)/sys  # their link captures
	@rc=0; $(SIM_BIN) test-rdma-ops 6 --faults 0.05 0.05 0.05 0.05 || rc=1; \
	$(SIM_BIN) test-rdma-mtu 7 --faults 0.05 0.05 0.05 0.05 || rc=1; exit $$rc

# retx: packet-granular retransmission (tb/sys/test_retx.cpp): 1 MiB WRITE at MTU 256 and 1024,
# WRITE_IMM, SEND, SEND_IMM and READ under 5 % loss, and the packets a single loss costs; the
# READ/atomic limits of both ends (max_rd_atomic, max_dest_rd_atomic) and a lost READ tail.
TEST_SUITES += retx
.PHONY: test-retx test-retx-long
test-retx: $(SIM_BIN)
	@$(SIM_BIN) test-retx 1
# the long form: MTU 4096 too, 1 MiB SENDs and READs at 5 %, everything again at 1 %
TEST_LONG += retx-long
test-retx-long: $(SIM_BIN)
	@rc=0; for s in 2 3; do $(SIM_BIN) test-retx $$s --long || rc=1; done; exit $$rc

# Longer forms (make test-long; CI does not run them): every seed of RDMA_LONG_SEEDS (a cluster
# spreads a range: make suite-rdma-long RDMA_LONG_SEEDS="$(seq 100 149)") on a clean and on a
# faulty link, 64 QP pairs with READs too, and all 1022 QP pairs connected with traffic on 32.
RDMA_LONG_SEEDS ?= 11 12 13 14 15 16 17 18 19 20
TEST_LONG += rdma-long
.PHONY: test-rdma-long
test-rdma-long: $(SIM_BIN)
	@mkdir -p $(BUILD)/sys
	@rc=0; for s in $(RDMA_LONG_SEEDS); do for f in "0 0 0 0" "0.05 0.05 0.05 0.05"; do \
	  $(SIM_BIN) test-rdma $$s $$f || rc=1; done; done; \
	$(SIM_BIN) test-rdma-qps 3 --qps 64 --pace 0 || rc=1; \
	$(SIM_BIN) test-rdma-qp-range 2 --range-all --range-sel 32 || rc=1; exit $$rc

# The bench's simulator: the same model and harness compiled with clang's profile-guided
# optimisation (docs/sim-speed.md, steps 9 and 16), in a tree of its own so the tests' build stays
# as it is. An instrumented build (-fprofile-generate into $(SIM_PGO_PROF), ccache bypassed: its
# objects must not be reused for the final build), a training run of SIM_PGO_TRAIN, its raw
# profiles merged by llvm-profdata into one file, then every object compiled again with
# -fprofile-use of that file (ccache bypassed again: it would not key on the profile's contents).
# Code the training did not reach is optimized as usual. The same C++ semantics, so the same
# cycles: tb/sim/trace-compare.sh of the two binaries prints PASS. `make sim-pgo` builds it.
SIM_PGO_DIR := $(BUILD)/sim-pgo
SIM_PGO_BIN := $(SIM_PGO_DIR)/rnic_sim
SIM_PGO_PROF := $(abspath $(SIM_PGO_DIR))/prof
SIM_PROFDATA ?= llvm-profdata-19
# the training runs, separated by |
SIM_PGO_TRAIN ?= bench-rdma $(SIM_PGO_DIR)/train --quick
SIM_PGO_NOCACHE := -MAKEFLAGS OBJCACHE=
# more flags for the final (profile-using) compile, for trying build options (docs/sim-speed.md)
SIM_PGO_USE_EXTRA ?=
$(SIM_PGO_DIR)/obj/Vrnic_core: $(SIM_DEPS) bitstream-scripts/configs/$(SIM_CONFIG).cfg $(FW_IMAGE)
	@rm -rf $(SIM_PGO_DIR)/obj $(SIM_PGO_DIR)/train $(SIM_PGO_DIR)/train.log $(SIM_PGO_PROF)
	$(call verilate,$(SIM_PGO_DIR)/obj,rnic_core,,$(SIM_CPP),$(SIM_MODEL_FLAGS) $(SIM_PGO_NOCACHE) \
	  -CFLAGS -fprofile-generate=$(SIM_PGO_PROF) -LDFLAGS -fprofile-generate=$(SIM_PGO_PROF))
	@mv $(SIM_PGO_DIR)/obj/build.cpu $(SIM_PGO_DIR)/build-generate.cpu
	@mkdir -p $(SIM_PGO_DIR)/train/fw && cp $(FW_DIR)/imem.hex $(FW_DIR)/dmem.hex $(SIM_PGO_DIR)/train/fw/
	@cp $@ $(SIM_PGO_DIR)/train/rnic_sim
	@echo '$(SIM_PGO_TRAIN)' | tr '|' '\n' | while read -r t; do echo "training: rnic_sim $$t"; \
	  $(SIM_PGO_DIR)/train/rnic_sim $$t >> $(SIM_PGO_DIR)/train.log 2>&1 || { tail -20 $(SIM_PGO_DIR)/train.log; exit 1; }; done
	$(SIM_PROFDATA) merge -o $(SIM_PGO_PROF)/sim.profdata $(SIM_PGO_PROF)/*.profraw
	@rm -f $(SIM_PGO_DIR)/obj/*.o $(SIM_PGO_DIR)/obj/*.a $@
	$(call verilate,$(SIM_PGO_DIR)/obj,rnic_core,,$(SIM_CPP),$(SIM_MODEL_FLAGS) $(SIM_PGO_NOCACHE) \
	  -CFLAGS -fprofile-use=$(SIM_PGO_PROF)/sim.profdata $(SIM_PGO_USE_EXTRA))
	@touch $@
$(SIM_PGO_BIN): $(SIM_PGO_DIR)/obj/Vrnic_core $(FW_IMAGE)
	@mkdir -p $(SIM_PGO_DIR)/fw
	@for f in imem.hex dmem.hex; do cp $(FW_DIR)/$$f $(SIM_PGO_DIR)/fw/$$f.tmp && mv -f $(SIM_PGO_DIR)/fw/$$f.tmp $(SIM_PGO_DIR)/fw/$$f; done
	@cp $< $@.tmp && mv -f $@.tmp $@
.PHONY: sim-pgo
sim-pgo: $(SIM_PGO_BIN)

BENCHES += rdma
# BENCH_ARGS=--quick skips the goodput sweep (latency, message rates and firmware cycles only).
# BENCH_SIM: the simulator the bench runs (the profile-optimised build above; BENCH_SIM=$(SIM_BIN)
# for the tests' build).
BENCH_SIM ?= $(SIM_PGO_BIN)
bench-rdma: $(BENCH_SIM)
	@mkdir -p $(BUILD)/bench
	@$(BENCH_SIM) bench-rdma $(BUILD)/bench $(BENCH_ARGS) | tee $(BUILD)/bench/rdma.md
	@if [ -f $(BUILD)/bench/goodput.dat ]; then gnuplot -e "set terminal png size 800,500; \
	  set output '$(BUILD)/bench/goodput.png'; set datafile missing '?'; \
	  set logscale x 2; set xlabel 'message bytes'; set ylabel 'Gb/s'; set key left top; set grid; \
	  set title 'RDMA goodput, 1 QP, two simulated NICs (250 MHz, 512 bit)'; \
	  plot '$(BUILD)/bench/goodput.dat' using 1:2 with linespoints title 'WRITE', \
	  '' using 1:3 with linespoints title 'SEND', '' using 1:4 with linespoints title 'READ (to 64 KiB, 1 in flight)'" && \
	  echo "plot: $(BUILD)/bench/goodput.png"; fi

# `make rnic-sim`: what sim/rnic-sim needs (the simulator and the rdma-core provider).
.PHONY: rnic-sim
rnic-sim: deps $(SIM_BIN) provider

# The block testbenches include sim/main/sim_waves.h (waveforms on demand, docs/development.md):
# rebuild them when it changes (their fragments list their own headers only).
$(CPU_SIM) $(foreach w,w512 w64 cov128,$(BUILD)/dma/$(w)/Vdma_engine) $(MKEY_BUILD)/p1/Vmkey_table \
  $(MKEY_BUILD)/p2/Vmkey_table $(foreach w,$(ROCE_WIDTHS),$(ROCE_BUILD)/w$(w)/Vroce_tb_top) $(ROCE_BUILD)/cov128/Vroce_tb_top \
  $(foreach w,$(XRX_WIDTHS),$(XRX_BUILD)/w$(w)/Vxport_rx_tb_top) $(XRX_BUILD)/cov128/Vxport_rx_tb_top \
  $(XPORT_TX_BUILD)/w512/Vxport_tx_tb_top $(XPORT_TX_BUILD)/w64/Vxport_tx_tb_top: sim/main/sim_waves.h

# The small configuration in the system tests (issue 16: "the small one at least the rdma
# basics"): rnic_core verilated at 25g (bitstream-scripts/configs/25g.cfg: 128-bit datapath,
# 256 QPs, 4 receive slots) with the harness compiled for 16-byte beats (sim/host/sim_width.h).
# Kept lean: only the programs its suite runs are linked (test-rdma and tb/sys/test_rdma_ext.cpp),
# so its cold build is the model and about a third of the harness.
SIM25_CONFIG := 25g
SIM25_BIN := $(BUILD)/sim25/rnic_sim
SIM25_CPP := sim/main/sim_main.cpp sim/nic/rnic_node.cpp $(sort $(wildcard sim/host/*.cpp sim/net/*.cpp sim/monitors/*.cpp)) \
  tb/sys/test_rdma.cpp tb/sys/test_rdma_ext.cpp
$(BUILD)/sim25/obj/Vrnic_core: $(SIM25_CPP) $(wildcard sim/*/*.h tb/common/*.h tb/sys/*.h) $(RTL_SRCS) $(HOST_CORE_LIB) $(HOST_PROV_LIB) \
  bitstream-scripts/configs/$(SIM25_CONFIG).cfg $(BUILD)/sim25/$(SIM_CXX_STAMP)
	$(call verilate,$(BUILD)/sim25/obj,rnic_core,,$(SIM25_CPP),$(SYSTEMC_FLAGS) \
	  $$(bitstream-scripts/configs/cfg.py $(SIM25_CONFIG) verilator) -CFLAGS -DRNIC_SIM_DATA_BYTES=16 -CFLAGS -DRNIC_SIM_LINK_GBPS=$$(bitstream-scripts/configs/cfg.py $(SIM25_CONFIG) get line_gbps) \
	  -CFLAGS -I$(CURDIR)/host-driver/core -CFLAGS -I$(CURDIR)/host-driver/provider -CFLAGS -I$(CURDIR)/tb \
	  -LDFLAGS $(abspath $(HOST_CORE_LIB)) -LDFLAGS $(abspath $(HOST_PROV_LIB)) \
	  -GFwImemInit='"imem.hex"' -GFwDmemInit='"dmem.hex"' $(SIM_OPT))
	@touch $@
$(SIM25_BIN): $(BUILD)/sim25/obj/Vrnic_core $(FW_IMAGE)
	@mkdir -p $(BUILD)/sim25/fw
	@for f in imem.hex dmem.hex; do cp $(FW_DIR)/$$f $(BUILD)/sim25/fw/$$f.tmp && mv -f $(BUILD)/sim25/fw/$$f.tmp $(BUILD)/sim25/fw/$$f; done
	@cp $< $@.tmp && mv -f $@.tmp $@

# rdma-25g: the RDMA basics on the 25g model: RC WRITE/READ/SEND on a clean link and under 5 %
# loss, reordering, duplication and corruption, then the ops and MTU checks once (same programs
# and seeds as suites rdma and rdma-faults on the 100g model).
TEST_SUITES += rdma-25g
.PHONY: test-rdma-25g
test-rdma-25g: $(SIM25_BIN)
	@mkdir -p $(BUILD)/sys
	@rc=0; for args in "1" "4 0.05 0.05 0.05 0.05"; do $(SIM25_BIN) test-rdma $$args || rc=1; done; \
	$(SIM25_BIN) test-rdma-ops 1 || rc=1; $(SIM25_BIN) test-rdma-mtu 1 || rc=1; exit $$rc

# pfc: the gate's block testbench (tb/pfc), then priority flow control end to end
# (tb/sys/test_rdma_ext.cpp, pfc): the far MAC pauses one
# priority, the other QP's WRITE completes, the paused one after the release; the capture checked
# by tb/sys/pcap_prio.py (tags, DSCP per QP, nothing of the paused priority between XOFF and XON);
# then line-rate bursts of small UD frames into a NIC that pauses (tb/sys/test_pause_burst.cpp):
# the headroom holds what arrives after XOFF, nothing is dropped for want of room.
TEST_SUITES += pfc
.PHONY: test-pfc
test-pfc: $(SIM_BIN) $(PFC_GATE_BINS)
	@mkdir -p $(BUILD)/sys
	@rc=0; $(MAKE) --no-print-directory test-pfc-gate || rc=1; $(SIM_BIN) test-rdma-pfc 1 || rc=1; \
	tb/sys/pcap_prio.py build/sys/test-rdma-pfc.pcap build/sys/test-rdma-pfc.expect || rc=1; \
	$(SIM_BIN) test-pause-burst || rc=1; exit $$rc
