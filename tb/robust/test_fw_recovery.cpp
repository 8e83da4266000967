// Firmware panic and stuck-core recovery (issue 13, deliverable 4's last part), without
// restarting the simulation. nic0 runs the test image (FW_TEST_HOOKS: the TEST_FAULT command)
// with the heartbeat watchdog on; nic1 is its peer.
//   1. traffic with the watchdog armed: no false WATCHDOG;
//   2. TEST_FAULT PANIC: ctrl.dev_err FW_PANIC, one device-error MSI-X, cpu_status panicked, one
//      FW_PANIC event on the EQ (mcause 2, illegal instruction), no WATCHDOG for a panicked core;
//      reload the test image through BAR0 (rnic_fw_load), bring the host side up again, fresh
//      QPs move data byte for byte;
//   3. TEST_FAULT HANG: the core spins without a heartbeat: WATCHDOG, one MSI-X, heartbeat
//      frozen, not panicked; reload the production image, data again; the production image
//      answers TEST_FAULT with BAD_OPCODE.
// Usage: rnic_sim test-fw-recovery HOOKS_IMG PRODUCTION_IMG
#include <systemc.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "sys/two_nics.h"
#include "tb_check.h"
extern "C" {
#include "rnic_fw.h"
}

namespace {

constexpr unsigned kErrVector = 5;     // device-error MSI-X vector (the EQ's is 0)
constexpr uint32_t kWdogCycles = 25000;  // 100 us at 250 MHz

struct FwRecovery : sc_module {
  SC_HAS_PROCESS(FwRecovery);
  FwRecovery(sc_module_name n, RdmaPort *a, RdmaPort *b, std::vector<uint8_t> hooks, std::vector<uint8_t> prod)
      : sc_module(n), a(a), b(b), hooks(std::move(hooks)), prod(std::move(prod)) {
    SC_THREAD(run);
  }
  TbResults r;
  RdmaPort *a, *b;
  std::vector<uint8_t> hooks, prod;
  rnic_eq eq{};
  static inline std::vector<rnic_event> events;
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  unsigned rounds = 0;

  uint32_t dev_err() { return rnic_rd32(&a->os, RNIC_REG_CTRL_DEV_ERR); }
  uint64_t msix() { return a->nic->msix_count(kErrVector); }
  uint32_t rd(uint32_t reg) { return rnic_rd32(&a->os, reg); }

  // nic0's host side from scratch, as a driver does after loading firmware: command queue,
  // GID, PD, EQ, device-error vector and watchdog, the MR.
  bool bring_up() {
    rnic_eq_fini(&eq);
    bool ok = a->open_port() && rnic_eq_init(&eq, &a->os, 4, 0) == 0 &&
              rnic_eq_set_handler(&eq, RNIC_EQ_NUM_TYPES, [](void *, const rnic_event *ev) { events.push_back(*ev); },
                                  nullptr) == 0 &&
              rdma_reg_mr(a, abuf, 1 << 20, 0xF, &akey);
    rnic_dev_err_init(&a->os, kErrVector, kWdogCycles);
    return ok;
  }

  // A fresh RC pair: a 16 KiB WRITE nic0 -> nic1 and an 8 KiB READ back, byte for byte.
  bool traffic(std::string *why) {
    RdmaQp x, y;
    RdmaConnOpts o;
    rounds++;
    if (!x.create(a) || !y.create(b) || !x.connect(y, 0x10 * rounds, 0x20 * rounds, o) ||
        !y.connect(x, 0x20 * rounds, 0x10 * rounds, o)) {
      *why = "pair: " + x.err + y.err;
      return false;
    }
    std::vector<uint8_t> d(16384), e(8192);
    for (size_t i = 0; i < d.size(); i++) d[i] = uint8_t(i * 31 + rounds);
    for (size_t i = 0; i < e.size(); i++) e[i] = uint8_t(i * 17 + 3 * rounds);
    a->mem->write(abuf, d.data(), d.size());
    b->mem->write(bbuf + 0x10000, e.data(), e.size());
    rnicp_sge s1{abuf, 16384, akey}, s2{abuf + 0x10000, 8192, akey};
    rnicp_send_wr w{};
    w.wr_id = 1, w.opcode = RNIC_WQE_OP_RDMA_WRITE, w.flags = RNICP_WR_SIGNALED, w.sg_list = &s1, w.num_sge = 1;
    w.remote_addr = bbuf, w.rkey = bkey;
    rnicp_send_wr rr = w;
    rr.wr_id = 2, rr.opcode = RNIC_WQE_OP_RDMA_READ, rr.sg_list = &s2, rr.remote_addr = bbuf + 0x10000;
    rnicp_wc c[2] = {};
    int n = x.post_send(w) > 0 && x.post_send(rr) > 0 ? x.poll(c, 2, sc_time(2, SC_MS)) : -1;
    bool ok = n == 2 && c[0].status == 0 && c[0].wr_id == 1 && c[1].status == 0 && c[1].wr_id == 2 &&
              b->mem->read_vec(bbuf, 16384) == d && a->mem->read_vec(abuf + 0x10000, 8192) == e;
    if (!ok) *why = "cqes " + std::to_string(n) + " status " + std::to_string(c[0].status) + "/" + std::to_string(c[1].status);
    x.set_state(RNIC_QP_STATE_ERR), y.set_state(RNIC_QP_STATE_ERR);
    return ok;
  }

  bool post_fault(uint32_t kind) {
    uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
    uint16_t tok = 0;
    rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_TEST_FAULT);
    rnic_cmd_test_fault_set_kind(c, kind);
    return rnic_cmdq_post(&a->q, c, &tok) == 0;
  }

  // Waits up to t for the device-error MSI-X count to move past m0.
  void wait_msix(uint64_t m0, sc_time t) {
    sc_time end = sc_time_stamp() + t;
    while (sc_time_stamp() < end && msix() == m0) wait(sc_time(2, SC_US));
  }

  // Reload through BAR0, clear the device errors, the host side again, then data.
  void recover(const char *name, const std::vector<uint8_t> &img) {
    sc_time t0 = sc_time_stamp();
    int rc = rnic_fw_load(&a->os, img.data(), img.size(), 5000);
    uint32_t took = rnic_dev_err_take(&a->os, ~0u);
    bool up = rc == 0 && bring_up();
    std::string why;
    bool ok = up && traffic(&why);
    if (!ok) {
      char log[2048];
      int n = rnic_fw_log_read(&a->os, log, sizeof log);
      std::printf("INFO %s: host %s; fw_status %u cpu_status 0x%x mcause %u mepc 0x%x; firmware log:\n%s\n", name,
                  a->err.c_str(), rd(RNIC_REG_CPU_FW_STATUS), rd(RNIC_REG_CPU_CPU_STATUS),
                  rd(RNIC_REG_CPU_PANIC_MCAUSE), rd(RNIC_REG_CPU_PANIC_MEPC), n > 0 ? log : "(none)");
    }
    std::printf("INFO %s: reload and bring-up took %.1f us of simulated time (dev_err was 0x%x)\n", name,
                (sc_time_stamp() - t0).to_seconds() * 1e6, took);
    r.check(ok && dev_err() == 0 && rd(RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_READY,
            (std::string(name) + "-reload-traffic-byte-exact").c_str(), "load %d up %d %s dev_err 0x%x", rc, int(up),
            why.c_str(), dev_err());
  }

  void run() {
    abuf = a->mem->alloc(1 << 20, 4096), bbuf = b->mem->alloc(1 << 20, 4096);
    int rc = rnic_fw_load(&a->os, hooks.data(), hooks.size(), 5000);
    bool ok = rc == 0 && bring_up() && b->open_port() && rdma_reg_mr(b, bbuf, 1 << 20, 0xF, &bkey);
    if (!r.check(ok, "fw-recovery-setup", "load %d %s%s", rc, a->err.c_str(), b->err.c_str())) return sc_stop();

    std::string why;
    ok = traffic(&why);
    wait(sc_time(300, SC_US));  // three watchdog periods of idle firmware
    r.check(ok && dev_err() == 0 && msix() == 0, "fw-recovery-watchdog-quiet-under-traffic", "%s dev_err 0x%x",
            why.c_str(), dev_err());

    // panic
    uint64_t m0 = msix();
    events.clear();
    ok = post_fault(RNIC_TEST_FAULT_PANIC);
    wait_msix(m0, sc_time(500, SC_US));
    wait(sc_time(10, SC_US));
    rnic_eq_poll(&eq, 16, 0);
    uint32_t de = dev_err(), cs = rd(RNIC_REG_CPU_CPU_STATUS);
    int panics = 0;
    uint32_t sub = 0;
    for (auto &e : events)
      if (e.type == RNIC_EQ_TYPE_FW_PANIC) panics++, sub = e.subtype;
    r.check(ok && (de & (1u << RNIC_DEV_ERR_BIT_FW_PANIC)) && msix() - m0 == 1 && (cs & 8u) &&
                rd(RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_PANIC,
            "fw-recovery-panic-dev-err-msix", "dev_err 0x%x msix +%llu cpu_status 0x%x", de,
            (unsigned long long)(msix() - m0), cs);
    r.check(panics == 1 && sub == 2 && rd(RNIC_REG_CPU_PANIC_MCAUSE) == 2, "fw-recovery-panic-event",
            "FW_PANIC events %d subtype %u mcause %u", panics, sub, rd(RNIC_REG_CPU_PANIC_MCAUSE));
    wait(sc_time(300, SC_US));
    r.check(!(dev_err() & (1u << RNIC_DEV_ERR_BIT_WATCHDOG)) && msix() - m0 == 1, "fw-recovery-panic-no-watchdog",
            "dev_err 0x%x", dev_err());
    recover("fw-recovery-panic", hooks);

    // stuck core
    m0 = msix();
    ok = post_fault(RNIC_TEST_FAULT_HANG);
    wait_msix(m0, sc_time(1, SC_MS));
    uint32_t hb0 = rd(RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(20, SC_US));
    de = dev_err(), cs = rd(RNIC_REG_CPU_CPU_STATUS);
    r.check(ok && (de & (1u << RNIC_DEV_ERR_BIT_WATCHDOG)) && !(de & (1u << RNIC_DEV_ERR_BIT_FW_PANIC)) &&
                msix() - m0 == 1 && rd(RNIC_REG_CPU_HEARTBEAT) == hb0 && (cs & 1u) && !(cs & 8u),
            "fw-recovery-hang-watchdog-msix", "dev_err 0x%x msix +%llu cpu_status 0x%x", de,
            (unsigned long long)(msix() - m0), cs);
    recover("fw-recovery-hang", prod);

    // the production image has no TEST_FAULT
    uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0}, st = 0;
    rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_TEST_FAULT);
    rnic_cmd_test_fault_set_kind(c, RNIC_TEST_FAULT_HANG);
    rc = rnic_cmdq_exec(&a->q, c, &st);
    uint32_t hb1 = rd(RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(20, SC_US));
    r.check(st == RNIC_CMD_STATUS_BAD_OPCODE && rd(RNIC_REG_CPU_HEARTBEAT) != hb1 && traffic(&why),
            "fw-recovery-production-image-no-test-fault", "rc %d status %u", rc, st);
    rnic_eq_fini(&eq);
    sc_stop();
  }
};

std::vector<uint8_t> read_file(const char *p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

int fw_recovery_main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s HOOKS_IMG PRODUCTION_IMG\n", argv[0]);
    return 2;
  }
  std::vector<uint8_t> hooks = read_file(argv[1]), prod = read_file(argv[2]);
  if (hooks.empty() || prod.empty()) {
    std::printf("FAIL fw-recovery-images cannot read %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  TwoNics<RdmaPort> s;
  FwRecovery t("fw_recovery", &s.a, &s.b, std::move(hooks), std::move(prod));
  sc_start();
  std::printf("INFO %s: simulated %.1f us\n", argv[0], sc_time_stamp().to_seconds() * 1e6);
  return t.r.exit_code();
}

SimProgram reg("test-fw-recovery", "panic and stuck-core (watchdog) recovery by reload: HOOKS_IMG PRODUCTION_IMG",
               fw_recovery_main);

}  // namespace
