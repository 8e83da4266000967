// Device errors (issue 13, deliverable 3's last rows): the paths whose failure no event can
// report. nic0's PCIe model answers SLVERR on its event-queue ring (writes) or its command-queue
// ring (reads, then writes). Per case: the device sets the named sticky bit of ctrl.dev_err and
// raises the device-error MSI-X vector once; the host sees it (a command returns -EIO instead of
// waiting for its timeout; the EQ bit through rnic_dev_err_take, which clears it); nothing
// hangs; the paths that do not need the failed one keep working (an RC pair moves data byte for
// byte while the range fails, commands work while only the EQ fails); with the range removed the
// failed path works again (the next event arrives, the next command completes).
#include <systemc.h>

#include <cstring>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "robust/err_range.h"
#include "sys/two_nics.h"
#include "tb_check.h"

namespace {


constexpr unsigned kErrVector = 5;  // the device-error MSI-X vector the host chose (EQ: 0)

struct DevErr : sc_module {
  SC_HAS_PROCESS(DevErr);
  DevErr(sc_module_name n, RdmaPort *a, RdmaPort *b) : sc_module(n), a(a), b(b) { SC_THREAD(run); }
  TbResults r;
  RdmaPort *a, *b;
  rnic_eq eq{};
  static inline std::vector<rnic_event> events;
  uint64_t abuf = 0, bbuf = 0;
  uint32_t akey = 0, bkey = 0;
  RdmaQp wx, wy;  // the witness pair: it must keep moving data
  unsigned rounds = 0;

  bool pair(RdmaQp &x, RdmaQp &y) {
    RdmaConnOpts o;
    o.access = 0x7, o.timeout = 8, o.retry_cnt = 2;
    return x.create(a) && y.create(b) && x.connect(y, 0x100, 0x200, o) && y.connect(x, 0x200, 0x100, o);
  }
  uint32_t dev_err() { return rnic_rd32(&a->os, RNIC_REG_CTRL_DEV_ERR); }
  uint64_t msix() { return a->nic->msix_count(kErrVector); }

  // The witness pair moves 4 KiB byte for byte (x on nic0 writes to y's buffer).
  bool witness() {
    std::vector<uint8_t> d(4096);
    rounds++;
    for (size_t i = 0; i < d.size(); i++) d[i] = uint8_t(i * 29 + rounds * 7);
    a->mem->write(abuf, d.data(), d.size());
    rnicp_sge s{abuf, 4096, akey};
    rnicp_send_wr w{};
    w.wr_id = rounds, w.opcode = RNIC_WQE_OP_RDMA_WRITE, w.flags = RNICP_WR_SIGNALED, w.sg_list = &s, w.num_sge = 1;
    w.remote_addr = bbuf, w.rkey = bkey;
    rnicp_wc c{};
    int n = wx.post_send(w) > 0 ? wx.poll(&c, 1, sc_time(2, SC_MS)) : -1;
    return n == 1 && c.status == RNIC_WC_STATUS_SUCCESS && c.wr_id == rounds && b->mem->read_vec(bbuf, 4096) == d;
  }

  // A fresh pair whose WRITE names a bad R_Key: x's QP goes to ERR, a QP_FATAL event is posted
  // on nic0. Returns x's completion status (-1: none).
  int qp_error() {
    RdmaQp x, y;
    if (!pair(x, y)) return -1;
    rnicp_sge s{abuf + 0x8000, 64, akey};
    rnicp_send_wr w{};
    w.wr_id = 77, w.opcode = RNIC_WQE_OP_RDMA_WRITE, w.flags = RNICP_WR_SIGNALED, w.sg_list = &s, w.num_sge = 1;
    w.remote_addr = bbuf + 0x8000, w.rkey = bkey ^ 1;  // another variant of the key: REM_ACCESS_ERR
    rnicp_wc c{};
    int n = x.post_send(w) > 0 ? x.poll(&c, 1, sc_time(2, SC_MS)) : -1;
    int st = n == 1 ? int(c.status) : -1;
    x.set_state(RNIC_QP_STATE_ERR), y.set_state(RNIC_QP_STATE_ERR);
    return st;
  }

  void eq_write_case() {
    const uint32_t bit = 1u << RNIC_DEV_ERR_BIT_EQ_WRITE;
    uint64_t m0 = msix();
    g_err = ErrRange();
    g_err.base = eq.ring_bus, g_err.len = RNIC_EQ_ENTRY_SIZE << eq.log_size, g_err.writes = true;
    events.clear();
    int st = qp_error();
    wait(sc_time(20, SC_US));
    rnic_eq_poll(&eq, 16, 0);
    uint32_t de = dev_err();
    uint64_t dm = msix() - m0;
    r.check(g_err.hits > 0 && st == int(RNIC_WC_STATUS_REM_ACCESS_ERR) && events.empty() && (de & bit) && dm == 1,
            "dev-err-eq-write-status-bit-msix", "hits %llu x status %d events %zu dev_err 0x%x msix %llu",
            (unsigned long long)g_err.hits, st, events.size(), de, (unsigned long long)dm);
    // the rest needs no EQ: data and commands go on while the range still fails
    int nop = rnic_cmd_nop(&a->q);
    r.check(witness() && nop == 0, "dev-err-eq-write-others-work", "nop %d", nop);
    // a second failed event: the bit is sticky, no second MSI-X while it is set
    st = qp_error();
    wait(sc_time(20, SC_US));
    r.check(st == int(RNIC_WC_STATUS_REM_ACCESS_ERR) && (dev_err() & bit) && msix() - m0 == 1,
            "dev-err-eq-write-sticky-one-msix", "status %d dev_err 0x%x msix %llu", st, dev_err(),
            (unsigned long long)(msix() - m0));
    uint32_t took = rnic_dev_err_take(&a->os, bit);
    uint32_t after = dev_err();
    r.check((took & bit) && !(after & bit), "dev-err-eq-write-write-1-to-clear", "took 0x%x after 0x%x", took, after);
    // the range gone: the next event reaches the host (same slot, same pass), no device error
    g_err = ErrRange();
    events.clear();
    st = qp_error();
    wait(sc_time(20, SC_US));
    rnic_eq_poll(&eq, 16, 0);
    bool ev = events.size() == 1 && events[0].type == RNIC_EQ_TYPE_QP_FATAL &&
              events[0].subtype == RNIC_WC_STATUS_REM_ACCESS_ERR;
    r.check(ev && dev_err() == 0 && msix() - m0 == 1, "dev-err-eq-write-recovers", "events %zu dev_err 0x%x",
            events.size(), dev_err());
  }

  // reads: the firmware cannot fetch the slot (CMDQ_READ); writes: it executed the command but
  // cannot write the status back (CMDQ_WRITE). Either way the command ends with -EIO well before
  // the 5 ms timeout.
  void cmdq_case(bool writes) {
    const char *nm = writes ? "dev-err-cmdq-write" : "dev-err-cmdq-read";
    const uint32_t bit = 1u << (writes ? RNIC_DEV_ERR_BIT_CMDQ_WRITE : RNIC_DEV_ERR_BIT_CMDQ_READ);
    uint64_t m0 = msix();
    uint32_t de0 = a->q.dev_errors, to0 = a->q.timeouts;
    g_err = ErrRange();
    g_err.base = a->q.ring_bus, g_err.len = RNIC_CMD_ENTRY_SIZE << a->q.log_size;
    g_err.reads = !writes, g_err.writes = writes;
    sc_time t0 = sc_time_stamp();
    int rc = rnic_cmd_nop(&a->q);
    double us = (sc_time_stamp() - t0).to_seconds() * 1e6;
    uint64_t dm = msix() - m0;
    r.check(g_err.hits > 0 && rc == -EIO && us < 1000 && a->q.dev_errors == de0 + 1 && a->q.timeouts == to0 && dm == 1 &&
                !(dev_err() & bit),
            (std::string(nm) + "-eio-msix-cleared").c_str(),
            "hits %llu rc %d after %.1f us, dev_errors +%u timeouts +%u msix %llu dev_err 0x%x",
            (unsigned long long)g_err.hits, rc, us, a->q.dev_errors - de0, a->q.timeouts - to0,
            (unsigned long long)dm, dev_err());
    r.check(witness(), (std::string(nm) + "-data-path-works").c_str());
    g_err = ErrRange();
    int nop = rnic_cmd_nop(&a->q);
    rnic_device_attr qd{};
    int qrc = rnic_cmd_query_device(&a->q, &qd);
    r.check(nop == 0 && qrc == 0 && qd.max_qp > 0 && dev_err() == 0,
            (std::string(nm) + "-recovers").c_str(), "nop %d query_device %d dev_err 0x%x", nop, qrc, dev_err());
  }

  void run() {
    abuf = a->mem->alloc(1 << 20, 4096), bbuf = b->mem->alloc(1 << 20, 4096);
    bool ok = a->open_port() && b->open_port() && rdma_reg_mr(a, abuf, 1 << 20, 0xF, &akey) &&
              rdma_reg_mr(b, bbuf, 1 << 20, 0xF, &bkey) && rnic_eq_init(&eq, &a->os, 4, 0) == 0 &&
              rnic_eq_set_handler(&eq, RNIC_EQ_NUM_TYPES, [](void *, const rnic_event *ev) { events.push_back(*ev); },
                                  nullptr) == 0 &&
              rnic_eq_set_handler(&eq, RNIC_EQ_TYPE_QP_FATAL, [](void *, const rnic_event *ev) { events.push_back(*ev); },
                                  nullptr) == 0;
    rnic_dev_err_init(&a->os, kErrVector, 0);
    ok = ok && pair(wx, wy) && dev_err() == 0;
    if (!r.check(ok && witness(), "dev-err-setup", "%s%s", a->err.c_str(), b->err.c_str())) return sc_stop();
    eq_write_case();
    cmdq_case(false);
    cmdq_case(true);
    uint32_t hb0 = rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(20, SC_US));
    r.check(rnic_rd32(&a->os, RNIC_REG_CPU_HEARTBEAT) != hb0 &&
                rnic_rd32(&a->os, RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_READY && witness(),
            "dev-err-firmware-alive-at-end");
    rnic_eq_fini(&eq);
    sc_stop();
  }
};

int dev_err_main(int, char **argv) { return err_range_main<DevErr>("dev_err", argv); }

SimProgram reg("test-dev-errors", "two NICs: SLVERR on nic0's EQ and command-queue rings, ctrl.dev_err and its MSI-X",
               dev_err_main);

}  // namespace
