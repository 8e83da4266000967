// Zero-length RDMA operations end to end (issue 13, deliverable 2; docs/conformance.md rows 29,
// 30): the responder checks neither the R_Key nor the VA of a zero-length RDMA WRITE, WRITE with
// immediate (C9-88) or READ (as Linux rxe). nic1 posts each with an R_Key that names no MR and a
// VA nobody registered; each completes successfully, the WRITE with immediate consumes a receive
// on nic0 (RECV_RDMA_WITH_IMM, byte_len 0, the immediate), the READ gets its empty READ response,
// nic0's QP stays in RTS and answers a normal WRITE afterwards, nic0 counts no NAK, and not a byte
// of nic0's memory outside the receive completion changes. The same operations of length 1 with
// the same key must fail with REM_ACCESS_ERR (the check is skipped only for length 0). Then a
// receive posted with no SGE takes a zero-length WRITE_IMM / SEND / SEND_IMM and a WRITE_IMM of 100
// bytes (no_sge_recv).
#include <systemc.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_qp.h"
#include "tb_check.h"
#include "sys/two_nics.h"

namespace {

struct Zero : sc_module {
  SC_HAS_PROCESS(Zero);
  Zero(sc_module_name n, RdmaPort *a, RdmaPort *b) : sc_module(n), a(a), b(b) { SC_THREAD(run); }
  TbResults r;
  RdmaPort *a, *b;

  uint32_t cnt(RdmaPort *h, uint32_t i) { return rnic_rd32(&h->os, RNIC_COUNTER_BASE + 4 * i); }

  // One WR from y (nic1) toward x (nic0) with a bogus key and address; the expected status.
  void one(const char *name, RdmaQp &x, RdmaQp &y, uint32_t op, uint32_t len, uint64_t lbuf, uint32_t lkey,
           uint64_t rbuf, uint32_t rkey_ok) {
    const uint32_t bad_key = rkey_ok ^ 0x5A5A00, bad_va = 0x123;
    bool imm = op == RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
    rnicp_sge rs{rbuf, 64, rkey_ok};
    rnicp_recv_wr rw{0x77, &rs, 1};
    if (imm) x.post_recv(rw);
    wait(sc_time(50, SC_US));
    std::vector<uint8_t> before = a->mem->read_vec(rbuf - 4096, 3 * 4096);
    uint32_t naks = cnt(a, RNIC_CNT_RX_NAK_ERR);
    rnicp_sge s{lbuf, len, lkey};
    rnicp_send_wr w{};
    w.wr_id = 0x1000 + op, w.opcode = op, w.flags = RNICP_WR_SIGNALED, w.imm_data = 0xA1B2C3D4;
    w.sg_list = &s, w.num_sge = len ? 1 : 0, w.remote_addr = bad_va, w.rkey = bad_key;
    int pr = y.post_send(w);
    rnicp_wc wy{}, wx{};
    int ny = y.poll(&wy, 1, sc_time(2, SC_MS));
    int nx = imm ? x.poll(&wx, 1, sc_time(200, SC_US)) : 0;
    uint32_t want_op = op == RNIC_WQE_OP_RDMA_READ ? RNIC_WC_OPCODE_RDMA_READ : RNIC_WC_OPCODE_RDMA_WRITE;
    bool ok = pr > 0 && ny == 1 && wy.wr_id == w.wr_id;
    if (len == 0) {
      ok = ok && wy.status == RNIC_WC_STATUS_SUCCESS && wy.opcode == want_op && cnt(a, RNIC_CNT_RX_NAK_ERR) == naks &&
           x.state() == int(RNIC_QP_STATE_RTS);
      if (imm)
        ok = ok && nx == 1 && wx.status == RNIC_WC_STATUS_SUCCESS && wx.opcode == RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM &&
             wx.byte_len == 0 && wx.imm_data == w.imm_data && wx.wr_id == rw.wr_id;
      ok = ok && a->mem->read_vec(rbuf - 4096, 3 * 4096) == before;
    } else {
      ok = ok && wy.status == RNIC_WC_STATUS_REM_ACCESS_ERR && cnt(a, RNIC_CNT_RX_NAK_ERR) == naks + 1 &&
           a->mem->read_vec(rbuf - 4096, 3 * 4096) == before;
    }
    r.check(ok, name, "post %d cqes %d/%d requester status %u opcode %u; responder cqe status %u opcode %u len %u imm %x; "
            "naks +%u; nic0 QP state %d", pr, ny, nx, wy.status, wy.opcode, wx.status, wx.opcode, wx.byte_len, wx.imm_data,
            cnt(a, RNIC_CNT_RX_NAK_ERR) - naks, x.state());
  }

  // A receive posted with no SGE (a legal 0-byte buffer, IBTA) takes a WRITE_IMM of any length
  // (its data goes to the R_Key's memory, not the receive) and a zero-length SEND / SEND_IMM:
  // requester SUCCESS, receive CQE with wr_id, opcode, byte_len and the immediate, QP in RTS, no
  // byte of nic0's receive side written beyond the WRITE. It was never acknowledged: the firmware
  // completed such a receive LOC_LEN_ERR at once and the WRITE_IMM met RNR NAKs (soak --gaps).
  void no_sge_recv(RdmaQp &x, RdmaQp &y, uint64_t abuf, uint32_t akey, uint64_t bbuf, uint32_t bkey) {
    struct Case {
      const char *name;
      uint32_t op, len;
    } cases[] = {{"zero-length-write-imm-into-recv-without-sge", RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, 0},
                 {"zero-length-send-into-recv-without-sge", RNIC_WQE_OP_SEND, 0},
                 {"zero-length-send-imm-into-recv-without-sge", RNIC_WQE_OP_SEND_WITH_IMM, 0},
                 {"write-imm-100-into-recv-without-sge", RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, 100}};
    uint64_t id = 0x300;
    for (const Case &c : cases) {
      rnicp_recv_wr rw{++id, nullptr, 0};
      int rr = x.post_recv(rw);
      wait(sc_time(20, SC_US));
      uint64_t dst = abuf + 0xC000;
      std::vector<uint8_t> want = a->mem->read_vec(abuf, 1 << 16);
      std::vector<uint8_t> src = b->mem->read_vec(bbuf + 0x200, c.len);
      std::copy(src.begin(), src.end(), want.begin() + 0xC000);
      rnicp_sge s{bbuf + 0x200, c.len, bkey};
      rnicp_send_wr w{};
      w.wr_id = 0x2000 + id, w.opcode = c.op, w.flags = RNICP_WR_SIGNALED, w.imm_data = 0x600DF00D + uint32_t(id);
      w.sg_list = &s, w.num_sge = c.len ? 1 : 0, w.remote_addr = dst, w.rkey = akey;
      int pr = y.post_send(w);
      rnicp_wc wy{}, wx{};
      int ny = y.poll(&wy, 1, sc_time(2, SC_MS));
      int nx = x.poll(&wx, 1, sc_time(200, SC_US));
      bool send = c.op != RNIC_WQE_OP_RDMA_WRITE_WITH_IMM;
      uint32_t rop = send ? RNIC_WC_OPCODE_RECV : RNIC_WC_OPCODE_RECV_RDMA_WITH_IMM;
      bool has_imm = c.op != RNIC_WQE_OP_SEND;
      bool ok = rr == 0 && pr > 0 && ny == 1 && wy.wr_id == w.wr_id && wy.status == RNIC_WC_STATUS_SUCCESS &&
                wy.opcode == (send ? RNIC_WC_OPCODE_SEND : RNIC_WC_OPCODE_RDMA_WRITE) && nx == 1 &&
                wx.wr_id == rw.wr_id && wx.status == RNIC_WC_STATUS_SUCCESS && wx.opcode == rop &&
                wx.byte_len == c.len && (!has_imm || wx.imm_data == w.imm_data) &&
                a->mem->read_vec(abuf, 1 << 16) == want && x.state() == int(RNIC_QP_STATE_RTS);
      r.check(ok, c.name,
              "post %d/%d cqes %d/%d requester status %u opcode %u; responder cqe wr_id %llx status %u opcode %u len %u "
              "imm %x; nic0 QP state %d",
              rr, pr, ny, nx, wy.status, wy.opcode, (unsigned long long)wx.wr_id, wx.status, wx.opcode, wx.byte_len,
              wx.imm_data, x.state());
    }
  }

  // x on nic0, y on nic1, connected with first PSNs px / py
  bool connect(RdmaQp &x, RdmaQp &y, uint32_t px, uint32_t py) {
    RdmaConnOpts o;
    o.access = 0x7;
    o.min_rnr_timer = 12;
    bool ok = x.create(a) && y.create(b) && x.connect(y, px, py, o) && y.connect(x, py, px, o);
    return ok || r.check(false, "zero-length-connect", "%s%s", x.err.c_str(), y.err.c_str());
  }

  void run() {
    bool ok = a->open_port() && b->open_port();
    uint64_t abuf = a->mem->alloc(1 << 16, 4096), bbuf = b->mem->alloc(1 << 16, 4096);
    uint32_t akey = 0, bkey = 0;
    ok = ok && rdma_reg_mr(a, abuf, 1 << 16, 0xF, &akey) && rdma_reg_mr(b, bbuf, 1 << 16, 0xF, &bkey);
    std::vector<uint8_t> pat(1 << 16);
    for (size_t i = 0; i < pat.size(); i++) pat[i] = uint8_t(i * 7 + 3);
    a->mem->write(abuf, pat.data(), pat.size());
    if (!r.check(ok, "zero-length-setup", "%s%s", a->err.c_str(), b->err.c_str())) return sc_stop();
    const uint32_t ops[] = {RNIC_WQE_OP_RDMA_WRITE, RNIC_WQE_OP_RDMA_WRITE_WITH_IMM, RNIC_WQE_OP_RDMA_READ};
    const char *names[] = {"write", "write-imm", "read"};
    for (int k = 0; k < 3; k++)
      for (uint32_t len : {0u, 1u}) {
        RdmaQp x, y;  // a fresh pair per case: the length-1 cases move it to ERR
        if (!connect(x, y, 0x10, 0x20)) return sc_stop();
        std::string n = std::string("zero-length-") + names[k] + (len ? "-len1-bad-rkey-naks" : "-bad-rkey-and-va-not-checked");
        one(n.c_str(), x, y, ops[k], len, bbuf, bkey, abuf + 0x4000, akey);
        if (len == 0) {  // the responder still works: a real WRITE lands
          rnicp_sge s{bbuf + 0x100, 100, bkey};
          rnicp_send_wr w{};
          w.wr_id = 9, w.opcode = RNIC_WQE_OP_RDMA_WRITE, w.flags = RNICP_WR_SIGNALED, w.sg_list = &s, w.num_sge = 1;
          w.remote_addr = abuf + 0x8000, w.rkey = akey;
          int pr = y.post_send(w);
          rnicp_wc wy{};
          int ny = y.poll(&wy, 1, sc_time(2, SC_MS));
          r.check(pr > 0 && ny == 1 && wy.status == 0 &&
                      a->mem->read_vec(abuf + 0x8000, 100) == b->mem->read_vec(bbuf + 0x100, 100),
                  (std::string("zero-length-") + names[k] + "-then-write-works").c_str(), "cqes %d status %u", ny,
                  wy.status);
        }
      }
    {
      RdmaQp x, y;
      if (!connect(x, y, 0x30, 0x40)) return sc_stop();
      no_sge_recv(x, y, abuf, akey, bbuf, bkey);
    }
    sc_stop();
  }
};

int zero_main(int argc, char **argv) {
  (void)argc;
  TwoNics<RdmaPort> s;
  Zero t("zero", &s.a, &s.b);
  sc_start();
  std::printf("INFO %s: simulated %.1f us\n", argv[0], sc_time_stamp().to_seconds() * 1e6);
  return t.r.exit_code();
}

SimProgram reg("test-zero-length", "two NICs: zero-length WRITE / WRITE_IMM / READ skip the R_Key and VA checks",
               zero_main);

}  // namespace
