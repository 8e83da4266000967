# Per-suite wall-time budgets in seconds on the 2-core reference machine (run time only: the
# programs are built once before, see scripts/run-suites.sh), the table of docs/development.md.
# make test prints each suite's time against its budget; scripts/shard.sh balances shards by it.
# A new suite adds its line here and in the table (tb/infra checks that both agree).
SUITE_BUDGET_spec        := 5
SUITE_BUDGET_spec-c      := 5
SUITE_BUDGET_lint        := 30
# synth, synth-25g: the cost of a cache miss (full synthesis, CI of an RTL change); a hit takes ~1 s
SUITE_BUDGET_synth       := 900
SUITE_BUDGET_synth-25g   := 540
SUITE_BUDGET_synth-blocks := 30
SUITE_BUDGET_configs     := 20
SUITE_BUDGET_boards      := 150
SUITE_BUDGET_cpu         := 5
SUITE_BUDGET_dma         := 10
SUITE_BUDGET_host        := 5
SUITE_BUDGET_mkey        := 5
SUITE_BUDGET_cqe_write   := 5
SUITE_BUDGET_wqe_fetch   := 10
SUITE_BUDGET_sq_retire   := 15
SUITE_BUDGET_tx_build    := 5
SUITE_BUDGET_qp_table    := 5
SUITE_BUDGET_doorbell    := 5
SUITE_BUDGET_provider    := 5
SUITE_BUDGET_robust      := 90
SUITE_BUDGET_roce        := 60
SUITE_BUDGET_simmodels   := 15
SUITE_BUDGET_tools       := 5
SUITE_BUDGET_tools-sim   := 10
SUITE_BUDGET_verbs       := 150
SUITE_BUDGET_xport_rx    := 15
SUITE_BUDGET_xport_tx    := 5
SUITE_BUDGET_fw_eth      := 5
SUITE_BUDGET_fw_evring   := 5
SUITE_BUDGET_fw_dbring   := 5
SUITE_BUDGET_qpc_ram     := 5
SUITE_BUDGET_fw_tcmbox   := 5
SUITE_BUDGET_fw_cores    := 5
SUITE_BUDGET_fw_subsys   := 30
SUITE_BUDGET_firmware    := 5
SUITE_BUDGET_core        := 5
SUITE_BUDGET_rdma        := 25
SUITE_BUDGET_rdma-ext    := 20
SUITE_BUDGET_rdma-qps    := 30
SUITE_BUDGET_rdma-faults := 20
SUITE_BUDGET_rdma-25g    := 40
SUITE_BUDGET_pfc         := 15
SUITE_BUDGET_retx        := 30
SUITE_BUDGET_infra       := 60
SUITE_BUDGET_waves       := 20
SUITE_BUDGET_fuzz        := 60
SUITE_BUDGET_soak        := 40
SUITE_BUDGET_monitors    := 5
SUITE_BUDGET_interop     := 240
SUITE_BUDGET_kmod        := 40
SUITE_BUDGET_guest       := 240

# What a suite's recipe builds by calling make itself, so the one build before the suites
# includes it (scripts/run-suites.sh; prerequisites of test-NAME are found on their own).
SUITE_BUILD_simmodels = $(SIM_BIN) $(FW_TRAP_DIR)/imem.hex
SUITE_BUILD_roce = $(ROCE_BUILD)/cov128/Vroce_tb_top
SUITE_BUILD_xport_rx = $(XRX_BUILD)/cov128/Vxport_rx_tb_top
