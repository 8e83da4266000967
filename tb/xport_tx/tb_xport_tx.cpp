// tb_xport_tx: testbench of the transmit transport engine (rtl/xport_tx) with the real mkey_table
// and dma_engine, a hostile AXI slave as host memory (tb/dma/axi_slave_model.h), a C++ QP table
// and random MAC backpressure. Every frame is compared byte for byte with the independent
// reference builder tb/roce/ref (payload taken from host memory through a C++ model of the
// memory regions), done verdicts in order, pcap + tshark decode check, throughput INFO line.
// Options: --seed N, --out DIR, --bench.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vxport_tx_tb_top.h"
#include "main/sim_waves.h"
#include "tb_rerun.h"
#include "verilated.h"
#include "rnic_spec.h"
#include "ref/roce_ref.h"
#include "../dma/axi_slave_model.h"
#include "../dma/vl_bits.h"

#ifndef TB_DW
#define TB_DW 512
#endif
static constexpr unsigned B = TB_DW / 8;
using Bytes = std::vector<uint8_t>;

static int g_pass = 0, g_fail = 0;
static void result(bool ok, const std::string& name, const std::string& why = "") {
  if (ok) { printf("PASS %s\n", name.c_str()); g_pass++; }
  else { printf("FAIL %s %s\n", name.c_str(), why.c_str()); tb_print_rerun(); g_fail++; }
  fflush(stdout);
}

enum { K_SEND = 0, K_SEND_IMM, K_WRITE, K_WRITE_IMM, K_READ_REQ, K_CMP_SWAP, K_FETCH_ADD,
       K_ATOMIC_ACK, K_ACK };
enum { ST_OK = 0, ST_LOC_LEN = 1, ST_LOC_QP_OP = 2, ST_LOC_PROT = 4, ST_GENERAL = 21 };
static constexpr uint64_t PAGE = 4096;
static constexpr uint64_t MEM_BYTES = 8ull << 20;

// ---- memory regions (C++ model used to build the expected payload) ---------------------------
struct Mr {
  uint32_t index = 0, variant = 0, pdn = 0, access = 0;
  uint64_t iova = 0, len = 0;
  uint32_t mtt_base = 0;
  std::vector<uint64_t> pages;  // bus address of each page (0 = invalid MTT entry)
  uint32_t key() const { return index << 8 | variant; }
  uint64_t fpo() const { return iova & (PAGE - 1); }
  uint64_t pa(uint64_t va) const {
    uint64_t rel = va - iova + fpo();
    return pages[rel / PAGE] + (rel % PAGE);
  }
  bool page_ok(uint64_t va) const { return pages[(va - iova + fpo()) / PAGE] != 0; }
};

struct Qp {
  uint32_t qpn = 0, dest_qpn = 0, pdn = 0, type = 2, pmtu_log2 = 12, qkey = 0;
  uint64_t dmac = 0, smac = 0;
  uint32_t dip = 0, sip = 0;
  uint16_t sport = 0;
  uint8_t ttl = 64, tos = 2;
  bool valid = true, tx_en = true;
  Bytes entry() const {
    Bytes e(64, 0);
    rnic_qpt_entry_set_valid(e.data(), valid);
    rnic_qpt_entry_set_rx_enable(e.data(), 1);
    rnic_qpt_entry_set_tx_enable(e.data(), tx_en);
    rnic_qpt_entry_set_qp_type(e.data(), type);
    rnic_qpt_entry_set_pmtu_log2(e.data(), pmtu_log2);
    rnic_qpt_entry_set_access(e.data(), 0xf);
    rnic_qpt_entry_set_pdn(e.data(), pdn);
    rnic_qpt_entry_set_dest_qpn(e.data(), dest_qpn);
    rnic_qpt_entry_set_dmac(e.data(), dmac);
    rnic_qpt_entry_set_smac(e.data(), smac);
    rnic_qpt_entry_set_dest_ipv4(e.data(), dip);
    rnic_qpt_entry_set_src_ipv4(e.data(), sip);
    rnic_qpt_entry_set_udp_sport(e.data(), sport);
    rnic_qpt_entry_set_ttl(e.data(), ttl);
    rnic_qpt_entry_set_tos(e.data(), tos);
    rnic_qpt_entry_set_qkey(e.data(), qkey);
    return e;
  }
};

struct Sge { uint64_t addr = 0; uint32_t len = 0, lkey = 0; };
struct Desc {
  uint32_t qpn = 0, kind = 0, flags = 0, psn = 0, length = 0, rkey = 0, imm = 0, syndrome = 0;
  uint32_t dest_qpn = 0, qkey = 0, msg_len = 0, tclass = 0;  // tclass: UD's DSCP/ECN byte (the AH's traffic class)
  uint64_t rva = 0, swap_add = 0, compare = 0;
  std::vector<Sge> sge;
  Bytes bytes() const {
    Bytes d(RNIC_TX_DESC_SIZE, 0);
    void* p = d.data();
    rnic_tx_desc_set_qpn(p, qpn); rnic_tx_desc_set_kind(p, kind); rnic_tx_desc_set_flags(p, flags);
    rnic_tx_desc_set_num_sge(p, uint32_t(sge.size())); rnic_tx_desc_set_syndrome(p, syndrome);
    rnic_tx_desc_set_psn(p, psn); rnic_tx_desc_set_length(p, length);
    rnic_tx_desc_set_remote_va(p, rva); rnic_tx_desc_set_rkey(p, rkey);
    rnic_tx_desc_set_imm_data(p, imm); rnic_tx_desc_set_swap_add(p, swap_add);
    rnic_tx_desc_set_compare(p, compare); rnic_tx_desc_set_dest_qpn(p, dest_qpn);
    rnic_tx_desc_set_qkey(p, qkey); rnic_tx_desc_set_msg_len(p, msg_len);
    rnic_tx_desc_set_traffic_class(p, tclass);
    // SGE i at sge0 + 16 i (the spec's sge0..sge3 are consecutive 16-byte groups)
    for (size_t i = 0; i < sge.size() && i < 4; i++) {
      uint8_t* s = d.data() + RNIC_TX_DESC_SGE0_ADDR_OFF + 16 * i;
      rnic_st_le(s, 8, sge[i].addr);
      rnic_st_le(s + RNIC_TX_DESC_SGE0_LEN_OFF - RNIC_TX_DESC_SGE0_ADDR_OFF, 4, sge[i].len);
      rnic_st_le(s + RNIC_TX_DESC_SGE0_LKEY_OFF - RNIC_TX_DESC_SGE0_ADDR_OFF, 4, sge[i].lkey);
    }
    return d;
  }
};
struct AckJob { uint32_t qpn, psn, syndrome, msn; bool hold = false; };
struct RdJob { uint32_t qpn, psn, rkey, len, msn; uint64_t va; bool fresh = true; };  // fresh: a new request, not a duplicate

static void write_pcap(const std::string& path, const std::vector<Bytes>& frames) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f) return;
  const uint32_t gh[6] = {0xa1b2c3d4u, 0x00040002u, 0, 0, 65535, 1};
  fwrite(gh, 4, 6, f);
  uint32_t i = 0;
  for (const auto& fr : frames) {
    const uint32_t rh[4] = {i / 1000000, i % 1000000, uint32_t(fr.size()), uint32_t(fr.size())};
    fwrite(rh, 4, 4, f);
    fwrite(fr.data(), 1, fr.size(), f);
    i++;
  }
  fclose(f);
}

struct Tb {
  std::unique_ptr<Vxport_tx_tb_top> t{new Vxport_tx_tb_top};
  Waves waves;  // FST when asked for (sim/main/sim_waves.h)
  AxiSlaveModel slave{B, MEM_BYTES, 0};
  AxiPorts ports{B};
  std::mt19937_64 rng;
  uint64_t cyc = 0;
  double p_in = 1.0, p_mac = 1.0, p_done = 1.0;

  std::map<uint32_t, Qp> qps;
  std::vector<Mr> mrs;
  std::deque<Desc> descq;
  std::deque<Desc> desc_queued;  // accepted by the engine's descriptor queue, not yet taken by its FSM
  std::deque<AckJob> ackq;
  std::deque<RdJob> rdq;
  unsigned rsp_dones = 0;  // verdicts with done_rsp_o (a READ response whose payload read failed)
  bool desc_on = false, ack_on = false, rd_on = false;
  Bytes qpt_next = Bytes(64, 0);
  struct MkWr { unsigned op; uint32_t index; Bytes data; };
  std::deque<MkWr> mkq;
  bool mk_on = false;

  // observed / expected
  // expected packets of the message path and of the ACK lane (which may overtake messages at
  // packet boundaries); frames are matched in order within each, ip_id in observed order
  // An ACK job of a QP whose responses (READ response, atomic answer) are still ahead of it is
  // parked and sent through the message path, and a later ACK job of the same QP replaces it
  // (coalescing): ACK-lane expectations are matched in order per QP, and one that a later one of
  // its QP may have replaced can be skipped (counted in `coalesced`).
  struct Exp { roce_ref::Hdr h; Bytes p; uint32_t qpn = 0; bool used = false; };
  std::deque<Exp> exp_main, exp_ack;
  size_t coalesced = 0;
  // responder jobs in the order xport_rx presents them (the next only after the previous was
  // taken), and the firmware's answers to atomic markers (after a random delay)
  struct RspJob { int type; AckJob a; RdJob r; };   // 0 ACK / marker, 1 READ response
  std::deque<RspJob> rspq;
  std::vector<std::pair<uint64_t, Desc>> fw_later;
  unsigned fw_delay_max = 0;
  uint64_t fw_due = 0;
  bool fw_answers = true;        // the firmware answers atomic markers
  int stop_qpn = -1;             // a QP-table write stopping this QP in the next cycle (qp_stop_i)
  std::vector<Bytes> frames, all_frames;
  Bytes cur;
  std::vector<std::pair<uint32_t, uint32_t>> dones, exp_dones;
  uint16_t ip_id = 0;
  uint64_t first_frame_cyc = 0, last_frame_cyc = 0, last_accept_cyc = 0;
  unsigned rderr_pulses = 0;

  explicit Tb(uint64_t seed) : slave(B, MEM_BYTES, seed * 7 + 1), rng(seed) {
    waves.open(t.get(), "xport_tx");
    for (auto& b : slave.mem) b = uint8_t(rng());
    t->clk_i = 0; t->rst_ni = 0;
    for (int i = 0; i < 4; i++) tick();
    t->rst_ni = 1;
    for (int i = 0; i < 1100 && !t->mk_init_done_o; i++) tick();
  }

  bool coin(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  // ---- memory-key programming ----
  void add_mr(const Mr& m) {
    mrs.push_back(m);
    Bytes e(32, 0);
    rnic_mpt_entry_set_valid(e.data(), 1);
    rnic_mpt_entry_set_access(e.data(), m.access);
    rnic_mpt_entry_set_page_shift(e.data(), 12);
    rnic_mpt_entry_set_key_variant(e.data(), m.variant);
    rnic_mpt_entry_set_pdn(e.data(), m.pdn);
    rnic_mpt_entry_set_iova(e.data(), m.iova);
    rnic_mpt_entry_set_length(e.data(), m.len);
    rnic_mpt_entry_set_mtt_base(e.data(), m.mtt_base);
    rnic_mpt_entry_set_first_page_offset(e.data(), uint32_t(m.fpo()));
    mkq.push_back({0, m.index, e});
    for (size_t i = 0; i < m.pages.size(); i++) {
      Bytes x(32, 0);
      uint64_t v = m.pages[i] ? (m.pages[i] | 1) : 0;
      for (int b = 0; b < 8; b++) x[b] = uint8_t(v >> (8 * b));
      mkq.push_back({1, uint32_t(m.mtt_base + i), x});
    }
    while (!mkq.empty() || mk_on) tick();
  }
  const Mr* find_mr(uint32_t key) const {
    for (auto& m : mrs) if (m.key() == key) return &m;
    return nullptr;
  }
  // expected lookup: 0 ok / status
  bool key_ok(uint32_t key, uint32_t pdn, uint64_t va, uint32_t len, bool remote_read) const {
    const Mr* m = find_mr(key);
    if (!m || m->pdn != pdn) return false;
    if (remote_read && !(m->access & 4)) return false;
    if (len == 0) return true;
    if (va < m->iova || (va - m->iova) + len > m->len) return false;
    return m->page_ok(va);
  }
  // bytes of [va, va+len) through the MR; pages with an invalid MTT entry poison the rest of
  // the SGE (the DUT sends zeros from the first failing page on)
  Bytes read_va(const Mr& m, uint64_t va, uint32_t len) const {
    Bytes out;
    bool bad = false;
    for (uint32_t i = 0; i < len; i++) {
      uint64_t a = va + i;
      if (!bad && ((a - m.iova + m.fpo()) % PAGE == 0 || i == 0) && !m.page_ok(a)) bad = true;
      out.push_back(bad ? 0 : slave.mem[m.pa(a)]);
    }
    return out;
  }
  bool sge_poisoned(const Mr& m, uint64_t va, uint32_t len) const {
    for (uint64_t a = va; a < va + len; a = (a | (PAGE - 1)) + 1)
      if (!m.page_ok(a)) return true;
    return false;
  }

  // ---- expected frames ----
  roce_ref::Hdr tmpl(const Qp& q) const {
    roce_ref::Hdr h;
    h.dst_mac = q.dmac; h.src_mac = q.smac; h.src_ip = q.sip; h.dst_ip = q.dip;
    h.tos = q.tos; h.ttl = q.ttl; h.udp_sport = q.sport; h.pkey = 0xffff; h.dest_qp = q.dest_qpn;
    return h;
  }
  void expect_msg(roce_ref::Msg m, const Bytes& payload, bool ack_lane = false) {
    uint32_t np;
    auto hs = roce_ref::segment(m, &np);
    size_t off = 0;
    for (auto& h : hs) {
      Bytes p(payload.begin() + off, payload.begin() + off + h.payload_len);
      off += h.payload_len;
      (ack_lane ? exp_ack : exp_main).push_back({h, p, m.tmpl.dest_qp, false});
    }
  }
  size_t n_exp() const { return exp_main.size() + exp_ack.size(); }
  void on_desc(const Desc& d) {
    const Qp& q = qps.at(d.qpn);
    const bool ud = q.type == 4, uc = q.type == 3;
    const bool pay = d.kind <= K_WRITE_IMM;
    uint32_t status = ST_OK;
    if (!q.valid || !q.tx_en || d.kind > K_ACK || (q.type != 2 && d.kind >= K_READ_REQ)) status = ST_LOC_QP_OP;
    uint64_t sum = 0;
    for (auto& s : d.sge) sum += s.len;
    if (!status && pay && (d.sge.size() > 4 || sum != d.length || (ud && d.length > (1u << q.pmtu_log2))))
      status = ST_LOC_LEN;
    Bytes payload;
    bool poisoned = false;
    if (!status && pay) {
      for (auto& s : d.sge) {
        if (!s.len) continue;
        if (d.flags & 2) {
          for (uint32_t i = 0; i < s.len; i++) payload.push_back(slave.mem[s.addr + i]);
          continue;
        }
        if (!key_ok(s.lkey, q.pdn, s.addr, s.len, false)) { status = ST_LOC_PROT; break; }
        const Mr* m = find_mr(s.lkey);
        if (sge_poisoned(*m, s.addr, s.len)) poisoned = true;
        Bytes b = read_va(*m, s.addr, s.len);
        payload.insert(payload.end(), b.begin(), b.end());
      }
    }
    exp_dones.push_back({d.qpn, status ? status : poisoned ? ST_LOC_PROT : ST_OK});
    if (status) return;
    roce_ref::Msg m;
    m.tmpl = tmpl(q);
    auto& h = m.tmpl;
    if (ud) {  // destination from the descriptor (the firmware copies the address handle in)
      h.dest_qp = d.dest_qpn & 0xffffff;
      h.dst_mac = d.rva & 0xffffffffffffull;
      h.dst_ip = d.rkey;
      h.tos = uint8_t(d.tclass);
    }
    h.psn = d.psn & 0xffffff;
    h.ack_req = !ud && !uc && d.kind <= K_FETCH_ADD;
    h.se = (d.flags & 1) && (d.kind == K_SEND || d.kind == K_SEND_IMM || d.kind == K_WRITE_IMM);
    h.va = d.rva; h.rkey = d.rkey; h.syndrome = uint8_t(d.syndrome); h.msn = d.imm & 0xffffff;
    h.swap_add = d.swap_add; h.compare = d.compare; h.orig = d.swap_add;
    h.imm = __builtin_bswap32(d.imm); h.qkey = (d.qkey >> 31) ? q.qkey : d.qkey; h.src_qp = d.qpn & 0xffffff;
    static const int km[] = {roce_ref::kSend, roce_ref::kSendImm, roce_ref::kWrite, roce_ref::kWriteImm,
                             roce_ref::kReadReq, roce_ref::kCmpSwap, roce_ref::kFetchAdd,
                             roce_ref::kAtomicAck, roce_ref::kAck};
    m.kind = km[d.kind];
    if (ud && d.kind == K_SEND) m.kind = roce_ref::kUdSend;
    if (ud && d.kind == K_SEND_IMM) m.kind = roce_ref::kUdSendImm;
    m.len = (pay || d.kind == K_READ_REQ) ? d.length : 0;
    m.uc = uc;
    m.pmtu_log2 = int(q.pmtu_log2);
    m.cont = (d.flags >> RNIC_TX_FLAG_CONT) & 1;
    m.more = (d.flags >> RNIC_TX_FLAG_MORE) & 1;
    m.msg_len = d.msg_len;
    expect_msg(m, payload);
  }
  void on_ack(const AckJob& a) {
    if (a.hold && !fw_answers) return;
    if (a.hold) {
      // an atomic for the firmware: its ATOMIC ACKNOWLEDGE comes as a firmware message later
      Desc d;
      d.qpn = a.qpn; d.kind = K_ATOMIC_ACK; d.psn = a.psn; d.syndrome = 0x1f; d.imm = a.msn;
      d.swap_add = rng();
      // the firmware answers the atomics in the order of their events
      fw_due = std::max(fw_due, cyc + 1 + (fw_delay_max ? rng() % fw_delay_max : 0));
      fw_later.push_back({fw_due, d});
      return;
    }
    if (!qps.count(a.qpn) || !qps.at(a.qpn).valid) return;
    const Qp& q = qps.at(a.qpn);
    roce_ref::Msg m;
    m.tmpl = tmpl(q);
    m.tmpl.psn = a.psn; m.tmpl.syndrome = uint8_t(a.syndrome); m.tmpl.msn = a.msn;
    m.kind = roce_ref::kAck;
    m.pmtu_log2 = int(q.pmtu_log2);
    expect_msg(m, {}, true);
  }
  void on_rd(const RdJob& r) {
    const Qp& q = qps.at(r.qpn);
    if (!q.valid) return;
    roce_ref::Msg m;
    m.tmpl = tmpl(q);
    m.tmpl.psn = r.psn; m.tmpl.msn = r.msn;
    m.pmtu_log2 = int(q.pmtu_log2);
    if (r.len && !key_ok(r.rkey, q.pdn, r.va, r.len, true)) {
      m.kind = roce_ref::kAck; m.tmpl.syndrome = 0x62;
      expect_msg(m, {});
      return;
    }
    m.kind = roce_ref::kReadResp; m.tmpl.syndrome = 0x1f; m.len = r.len;
    Bytes p;
    if (r.len) p = read_va(*find_mr(r.rkey), r.va, r.len);
    expect_msg(m, p);
  }

  // ---- one clock cycle ----
  void tick() {
    auto& x = *t;
    if (!rspq.empty() && ackq.empty() && rdq.empty() && !ack_on && !rd_on) {
      if (rspq.front().type == 0) ackq.push_back(rspq.front().a);
      else rdq.push_back(rspq.front().r);
      rspq.pop_front();
    }
    for (size_t i = 0; i < fw_later.size();)
      if (fw_later[i].first <= cyc) { descq.push_back(fw_later[i].second); fw_later.erase(fw_later.begin() + long(i)); }
      else i++;
    if (!desc_on && !descq.empty() && coin(p_in)) {
      desc_on = true;
      Bytes b = descq.front().bytes();
      vlb::set_bytes(x.desc_i, 0, 128, b.data());
    }
    x.desc_valid_i = desc_on;
    if (!ack_on && !ackq.empty() && coin(p_in)) {
      ack_on = true;
      const AckJob& a = ackq.front();
      x.ack_qpn_i = a.qpn; x.ack_psn_i = a.psn; x.ack_syndrome_i = a.syndrome; x.ack_msn_i = a.msn;
      x.ack_hold_i = a.hold;
    }
    x.ack_valid_i = ack_on;
    x.qp_stop_i = stop_qpn >= 0;
    x.qp_stop_qpn_i = uint32_t(stop_qpn >= 0 ? stop_qpn : 0);
    stop_qpn = -1;
    if (!rd_on && !rdq.empty() && coin(p_in)) {
      rd_on = true;
      const RdJob& r = rdq.front();
      x.rdrsp_qpn_i = r.qpn; x.rdrsp_psn_i = r.psn; x.rdrsp_va_i = r.va; x.rdrsp_rkey_i = r.rkey;
      x.rdrsp_len_i = r.len; x.rdrsp_msn_i = r.msn; x.rdrsp_new_i = r.fresh;
    }
    x.rdrsp_valid_i = rd_on;
    vlb::set_bytes(x.qpt_rsp_i, 0, 64, qpt_next.data());
    if (!mk_on && !mkq.empty()) {
      mk_on = true;
      x.mk_wr_op_i = mkq.front().op;
      x.mk_wr_index_i = mkq.front().index;
      vlb::set_bytes(x.mk_wr_data_i, 0, 32, mkq.front().data.data());
    }
    x.mk_wr_valid_i = mk_on;
    x.m_tready_i = coin(p_mac);
    x.done_ready_i = coin(p_done);
    slave.drive(ports);
    x.m_axi_arready = ports.arready;
    x.m_axi_rvalid = ports.rvalid; x.m_axi_rid = ports.rid; x.m_axi_rresp = ports.rresp;
    x.m_axi_rlast = ports.rlast;
    if (ports.rvalid) vlb::set_bytes(x.m_axi_rdata, 0, B, ports.rdata.data());
    x.clk_i = 0;
    waves.eval(x);
    // ---- sample ----
    ports.arvalid = x.m_axi_arvalid; ports.arid = x.m_axi_arid; ports.araddr = x.m_axi_araddr;
    ports.arlen = x.m_axi_arlen; ports.arsize = x.m_axi_arsize; ports.arburst = x.m_axi_arburst;
    ports.rready = x.m_axi_rready;
    ports.awvalid = false; ports.wvalid = false; ports.bready = false;
    // the expectation follows the FSM's order: a descriptor counts when it leaves the queue
    if (x.desc_taken_o) { on_desc(desc_queued.front()); desc_queued.pop_front(); last_accept_cyc = cyc; }
    if (desc_on && x.desc_ready_o) { desc_queued.push_back(descq.front()); descq.pop_front(); desc_on = false; last_accept_cyc = cyc; }
    if (ack_on && x.ack_ready_o) { on_ack(ackq.front()); ackq.pop_front(); ack_on = false; last_accept_cyc = cyc; }
    if (rd_on && x.rdrsp_ready_o) { on_rd(rdq.front()); rdq.pop_front(); rd_on = false; last_accept_cyc = cyc; }
    if (x.qpt_req_valid_o) {
      auto it = qps.find(x.qpt_req_qpn_o);
      qpt_next = it == qps.end() ? Bytes(64, 0) : it->second.entry();
    }
    if (mk_on && x.mk_wr_ready_o) { mkq.pop_front(); mk_on = false; }
    if (x.m_tvalid_o && x.m_tready_i) {
      unsigned n = 0;
      while (n < B && vlb::get(x.m_tkeep_o, n, 1)) n++;
      uint8_t buf[B];
      vlb::get_bytes(x.m_tdata_o, 0, n, buf);
      cur.insert(cur.end(), buf, buf + n);
      if (x.m_tlast_o) {
        if (frames.empty()) first_frame_cyc = cyc;
        last_frame_cyc = cyc;
        frames.push_back(cur);
        all_frames.push_back(cur);
        cur.clear();
      }
    }
    if (x.done_valid_o && x.done_ready_i) {
      dones.push_back({x.done_qpn_o, x.done_status_o});
      rsp_dones += x.done_rsp_o;
    }
    if (x.rdrsp_err_o) rderr_pulses++;
    slave.commit(ports);
    x.clk_i = 1;
    waves.eval(x);
    cyc++;
  }

  bool busy() const {
    // with coalesced ACKs fewer frames than expected come: quiet for 20000 cycles ends the wait
    bool quiet = !exp_ack.empty() && cyc - std::max(last_frame_cyc, last_accept_cyc) > 20000;
    return !descq.empty() || !desc_queued.empty() || !ackq.empty() || !rdq.empty() || !rspq.empty() || !fw_later.empty() ||
           desc_on || ack_on || rd_on || (frames.size() < n_exp() && !quiet) ||
           dones.size() < exp_dones.size() || !slave.idle();
  }
  // run until everything expected came out (plus a quiet tail), then compare
  void run_check(const std::string& name, uint64_t max_cycles = 3000000) {
    uint64_t start = cyc;
    while (busy() && cyc - start < max_cycles) tick();
    for (int i = 0; i < 300; i++) tick();
    std::string why;
    size_t im = 0, skipped = 0;
    for (size_t i = 0; why.empty() && i < frames.size(); i++) {
      const Bytes& f = frames[i];
      uint16_t id = f.size() > 20 ? uint16_t(f[18] << 8 | f[19]) : 0;
      if (id != ip_id) { why = "frame " + std::to_string(i) + " ip_id " + std::to_string(id) + " want " + std::to_string(ip_id); break; }
      ip_id++;
      if (ack_match(f, id, skipped)) continue;
      Bytes e;
      if (im < exp_main.size()) {
        roce_ref::Hdr h = exp_main[im].h;
        h.ip_id = id;
        e = roce_ref::build(h, exp_main[im].p);
        if (e == f) { im++; continue; }
      }
      size_t k = 0;
      while (k < f.size() && k < e.size() && f[k] == e[k]) k++;
      char m[200];
      snprintf(m, sizeof m, "frame %zu differs at byte %zu (len %zu vs %zu, got %02x want %02x)", i, k,
               f.size(), e.size(), k < f.size() ? f[k] : 0, k < e.size() ? e[k] : 0);
      why = m;
    }
    // an ACK behind a parked NAK of its QP with an earlier PSN is dropped (the NAK is kept)
    for (size_t j = 0; j < exp_ack.size(); j++) {
      Exp& e = exp_ack[j];
      if (e.used || (e.h.syndrome & 0x60)) continue;
      for (size_t k = 0; k < j; k++) {
        const Exp& n = exp_ack[k];
        if (n.used && n.qpn == e.qpn && (n.h.syndrome & 0x60) && (((e.h.psn - n.h.psn) >> 23) & 1)) {
          e.used = true, skipped++;
          break;
        }
      }
    }
    size_t ua = 0;
    for (auto& e : exp_ack) ua += !e.used;
    if (why.empty() && (ua != 0 || im != exp_main.size()))
      why = "unmatched expected packets: " + std::to_string(frames.size()) + " frames, " +
            std::to_string(exp_main.size() - im) + " message packets and " + std::to_string(ua) +
            " ACKs missing";
    coalesced += skipped;
    if (why.empty() && dones != exp_dones) {
      why = "done verdicts: got " + std::to_string(dones.size()) + " expected " + std::to_string(exp_dones.size());
      for (size_t i = 0; i < std::min(dones.size(), exp_dones.size()); i++)
        if (dones[i] != exp_dones[i]) {
          why += " first mismatch #" + std::to_string(i) + " qpn " + std::to_string(dones[i].first) +
                 " status " + std::to_string(dones[i].second) + " want " + std::to_string(exp_dones[i].second);
          break;
        }
    }
    if (why.empty() && slave.violations) why = "AXI: " + slave.first_violation;
    result(why.empty(), name, why);
    size_t bytes = 0;
    for (auto& f : frames) bytes += f.size();
    printf("INFO %s: %zu frames (%zu bytes), %zu verdicts, %llu cycles\n", name.c_str(), frames.size(), bytes,
           dones.size(), (unsigned long long)(cyc - start));
    frames.clear(); exp_main.clear(); exp_ack.clear(); dones.clear(); exp_dones.clear();
    slave.reset_stats();
  }
  // the first unused ACK expectation of frame f's QP that equals f; the unused ones of that QP
  // before it must each have a later expectation of the QP (replaced: coalesced)
  bool ack_match(const Bytes& f, uint16_t id, size_t& skipped) {
    for (size_t k = 0; k < exp_ack.size(); k++) {
      if (exp_ack[k].used) continue;
      roce_ref::Hdr h = exp_ack[k].h;
      h.ip_id = id;
      if (roce_ref::build(h, exp_ack[k].p) != f) continue;
      size_t n = 0;
      for (size_t j = 0; j < k; j++)
        if (!exp_ack[j].used && exp_ack[j].qpn == exp_ack[k].qpn) n++;
      for (size_t j = 0; j < k; j++)
        if (!exp_ack[j].used && exp_ack[j].qpn == exp_ack[k].qpn) exp_ack[j].used = true;
      exp_ack[k].used = true;
      skipped += n;
      return true;
    }
    return false;
  }
};

// ---- fixture: QPs and memory regions ------------------------------------------------------------
static const uint32_t PD = 5, PD2 = 9;
static Mr g_mr_a, g_mr_b, g_mr_c, g_mr_e;

static void setup(Tb& tb) {
  // QPs: 0x11 RC (MTU varied per test), 0x21 UC, 0x31 UD, 0x41 invalid
  auto mk_qp = [&](uint32_t qpn, uint32_t type, uint32_t mlog) {
    Qp q;
    q.qpn = qpn; q.type = type; q.pmtu_log2 = mlog; q.pdn = PD; q.dest_qpn = qpn + 1;
    q.dmac = 0x020000000002ull; q.smac = 0x020000000001ull; q.dip = 0xc0a80102; q.sip = 0xc0a80101;
    q.sport = uint16_t(0xc000 | (qpn * 0x135)); q.ttl = 64; q.tos = 2; q.qkey = 0x11111111;
    tb.qps[qpn] = q;
  };
  mk_qp(0x11, 2, 12); mk_qp(0x12, 2, 10); mk_qp(0x13, 2, 8);
  mk_qp(0x14, 2, 9); mk_qp(0x15, 2, 11);
  mk_qp(0x21, 3, 10); mk_qp(0x31, 4, 12);
  mk_qp(0x41, 2, 12); tb.qps[0x41].valid = false;
  mk_qp(0x42, 2, 12); tb.qps[0x42].tx_en = false;
  // physical pages 0..2047 (8 MiB); MRs get shuffled pages from 16..1535 so VA-contiguous
  // buffers are scattered in bus addresses; pages >= 1536 are left for PHYS_SGE tests.
  std::vector<uint64_t> pool;
  for (uint64_t p = 16; p < 1536; p++) pool.push_back(p * PAGE);
  std::shuffle(pool.begin(), pool.end(), tb.rng);
  size_t pi = 0;
  auto mk_mr = [&](uint32_t index, uint32_t var, uint32_t pdn, uint32_t acc, uint64_t iova,
                   uint64_t len, uint32_t mtt_base) {
    Mr m;
    m.index = index; m.variant = var; m.pdn = pdn; m.access = acc; m.iova = iova; m.len = len;
    m.mtt_base = mtt_base;
    size_t np = (m.fpo() + len + PAGE - 1) / PAGE;
    for (size_t i = 0; i < np; i++) m.pages.push_back(pool[pi++]);
    return m;
  };
  g_mr_a = mk_mr(1, 0x11, PD, 0x1, 0x00007f0000000123ull, 1u << 20, 0);        // 257 pages
  g_mr_b = mk_mr(2, 0x22, PD, 0x7, 0x0000100000000f00ull, 256u << 10, 300);    // remote read
  g_mr_c = mk_mr(3, 0x33, PD2, 0x7, 0x0000200000000000ull, 64u << 10, 600);     // other PD
  g_mr_e = mk_mr(5, 0x55, PD, 0x7, 0x0000300000000010ull, 8 * PAGE, 700);       // a hole
  g_mr_e.pages[3] = 0;
  for (auto* m : {&g_mr_a, &g_mr_b, &g_mr_c, &g_mr_e}) tb.add_mr(*m);
}

static uint32_t g_psn = 0x100;
static Desc mk_desc(uint32_t qpn, uint32_t kind, const std::vector<Sge>& sges) {
  Desc d;
  d.qpn = qpn; d.kind = kind; d.sge = sges; d.psn = g_psn;
  for (auto& s : sges) d.length += s.len;
  d.rva = 0x00007f1234560000ull + g_psn; d.rkey = 0x1234 + g_psn; d.imm = 0xA1B2C3D4 ^ g_psn;
  g_psn = (g_psn + 100) & 0xffffff;
  return d;
}
static Sge sge_a(std::mt19937_64& rng, uint32_t len) {
  // random start inside MR A such that [addr, addr+len) fits
  uint64_t span = g_mr_a.len - len;
  return {g_mr_a.iova + (rng() % (span + 1)), len, g_mr_a.key()};
}

int main(int argc, char** argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1;
  std::string out = "build/xport_tx";
  bool bench = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--bench") bench = true;
  }
  Verilated::commandArgs(argc, argv);
  printf("xport_tx testbench: data width %u bits, seed %llu\n", TB_DW, (unsigned long long)seed);
  Tb tb(seed);
  setup(tb);
  result(tb.t->mk_init_done_o, "mkey_init_and_programming");

  if (bench) {
    // 64 KiB WRITE at MTU 4096, polite slave (fixed 100-cycle latency), MAC always ready
    tb.slave.cfg = AxiSlaveCfg::polite(100);
    for (int rep = 0; rep < 2; rep++) {
      const unsigned nmsg = rep ? 8 : 1;
      uint64_t c0 = tb.cyc;
      for (unsigned i = 0; i < nmsg; i++) tb.descq.push_back(mk_desc(0x11, K_WRITE, {sge_a(tb.rng, 65536)}));
      tb.run_check(rep ? "bench_write64k_x8" : "bench_write64k_x1");
      uint64_t pk = 16ull * nmsg;
      double cpp = double(tb.last_frame_cyc - tb.first_frame_cyc) / double(pk - 1);
      printf("INFO %s: %llu packets, %.2f cycles/packet between frame ends, %.2f cycles/packet "
             "descriptor to last frame (a 4154-byte frame is 65 beats; 100G line rate = 83.6)\n",
             rep ? "8 x 64 KiB WRITE" : "1 x 64 KiB WRITE", (unsigned long long)pk, cpp,
             double(tb.last_frame_cyc - c0) / double(pk));
      (void)c0;
    }
    // message rate: 64-byte SENDs and ACK jobs back to back
    {
      for (int i = 0; i < 200; i++) tb.descq.push_back(mk_desc(0x11, K_SEND, {sge_a(tb.rng, 64)}));
      uint64_t c0 = tb.cyc;
      tb.run_check("bench_send64_x200");
      printf("INFO 200 x 64-byte SEND: %.2f cycles/message\n", double(tb.last_frame_cyc - c0) / 200.0);
      for (int i = 0; i < 200; i++) tb.ackq.push_back({0x11, uint32_t(i), 0x1f, uint32_t(i)});
      c0 = tb.cyc;
      tb.run_check("bench_ack_x200");
      printf("INFO 200 ACK jobs: %.2f cycles/ACK\n", double(tb.last_frame_cyc - c0) / 200.0);
    }
    return g_fail ? 1 : 0;
  }

  // ---- 1. SEND/WRITE sizes x MTU, 1 SGE, polite slave ---------------------------------------------
  const uint32_t sizes[] = {0, 1, 63, 64, 4095, 4096, 4097, 65536};
  for (uint32_t qpn : {0x11u, 0x12u, 0x13u}) {
    for (uint32_t kind : {K_SEND, K_SEND_IMM, K_WRITE, K_WRITE_IMM})
      for (uint32_t s : sizes) {
        Desc d = mk_desc(qpn, kind, {sge_a(tb.rng, s)});
        if (s == 0) d.sge.clear();
        d.flags = (s & 1) ? 1 : 0;  // SOLICITED on some
        tb.descq.push_back(d);
      }
    char n[64];
    snprintf(n, sizeof n, "send_write_imm_sizes_mtu%u", 1u << tb.qps[qpn].pmtu_log2);
    tb.run_check(n);
  }

  // ---- 1b. messages sent in pieces (tx_flag CONT/MORE), as the firmware does for long messages
  // and for a resend from the middle: FIRST..MIDDLE(AckReq) | MIDDLE..MIDDLE(AckReq) | MIDDLE..LAST,
  // a lone LAST and a lone MIDDLE; RETRANSMIT pieces counted in cnt_retx_o ------------------------
  {
    uint32_t retx0 = tb.t->cnt_retx_o, retx_exp = 0;
    for (uint32_t qpn : {0x12u, 0x13u}) {
      const uint32_t mtu = 1u << tb.qps[qpn].pmtu_log2;
      for (uint32_t kind : {K_SEND, K_SEND_IMM, K_WRITE, K_WRITE_IMM}) {
        Sge whole = sge_a(tb.rng, 7 * mtu + 100);
        uint32_t psn = uint32_t(tb.rng() & 0xFFFFFF);
        uint64_t rva = 0x100000000ull + (tb.rng() & 0xFFFF);
        // pieces: packets [0,3) [3,5) [5,8), then [7,8) alone again and [4,5) alone
        const uint32_t cuts[][3] = {{0, 3, 0}, {3, 5, 0}, {5, 8, 1}, {7, 8, 1}, {4, 5, 1}};
        for (auto& c : cuts) {
          uint32_t off = c[0] * mtu, end = std::min(c[1] * mtu, whole.len);
          Desc d = mk_desc(qpn, kind, {Sge{whole.addr + off, end - off, whole.lkey}});
          d.psn = (psn + c[0]) & 0xFFFFFF;
          d.rva = rva + off;
          d.flags = 1;  // SOLICITED: only on the message's own last packet
          if (c[0]) d.flags |= 1u << RNIC_TX_FLAG_CONT;
          if (end < whole.len) d.flags |= 1u << RNIC_TX_FLAG_MORE;
          d.msg_len = whole.len;  // the RETH of the first piece
          if (c[2]) {
            d.flags |= 1u << RNIC_TX_FLAG_RETRANSMIT;
            retx_exp += (end - off + mtu - 1) / mtu;
          }
          tb.descq.push_back(d);
        }
      }
    }
    tb.run_check("message_pieces_cont_more");
    result(tb.t->cnt_retx_o - retx0 == retx_exp, "message_pieces_retx_counter",
           "cnt_retx_o +" + std::to_string(tb.t->cnt_retx_o - retx0) + ", expected " + std::to_string(retx_exp));
  }

  // ---- 2. 1-4 SGEs, page-crossing, hostile slave + MAC backpressure ----------------------------
  tb.slave.cfg = AxiSlaveCfg::hostile();
  tb.p_mac = 0.6; tb.p_in = 0.5; tb.p_done = 0.5;
  for (int i = 0; i < 60; i++) {
    std::vector<Sge> sg;
    unsigned n = 1 + tb.rng() % 4;
    for (unsigned k = 0; k < n; k++) {
      uint32_t len = (tb.rng() % 4 == 0) ? 0 : uint32_t(tb.rng() % 9000);
      // start close to a page end so the SGE crosses pages
      Sge s = sge_a(tb.rng, len);
      if (len < g_mr_a.len - 2 * PAGE) {
        uint64_t va = ((s.addr | (PAGE - 1)) + 1) - (tb.rng() % 200) - 1;
        if (va + len <= g_mr_a.iova + g_mr_a.len && va >= g_mr_a.iova) s.addr = va;
      }
      sg.push_back(s);
    }
    uint32_t qpn = (i % 3 == 0) ? 0x11 : (i % 3 == 1) ? 0x12 : 0x13;
    tb.descq.push_back(mk_desc(qpn, uint32_t(tb.rng() % 4), sg));
  }
  tb.run_check("multi_sge_page_crossing_hostile");

  // ---- 3. local-key failures (no frames, LOC_PROT_ERR) and length errors ------------------------
  {
    Sge good = sge_a(tb.rng, 3000);
    Sge badkey = good; badkey.lkey = g_mr_a.key() ^ 0x01;          // wrong variant
    Sge badidx = good; badidx.lkey = 40 << 8;                      // never registered
    Sge badpd = {g_mr_c.iova + 100, 500, g_mr_c.key()};            // MR of another PD
    Sge oob = {g_mr_a.iova + g_mr_a.len - 100, 200, g_mr_a.key()}; // past the end
    Sge below = {g_mr_a.iova - 1, 10, g_mr_a.key()};               // before the start
    for (auto& s : {badkey, badidx, badpd, oob, below}) {
      tb.descq.push_back(mk_desc(0x11, K_WRITE, {s}));
      tb.descq.push_back(mk_desc(0x11, K_SEND, {good, s}));         // second SGE bad
      tb.descq.push_back(mk_desc(0x12, K_WRITE, {sge_a(tb.rng, 100)}));  // a good one between
    }
    Desc lenerr = mk_desc(0x11, K_SEND, {good});
    lenerr.length += 1;
    tb.descq.push_back(lenerr);
    Desc nosge = mk_desc(0x11, K_WRITE, {});
    nosge.length = 10;                                            // length without SGEs
    tb.descq.push_back(nosge);
    tb.descq.push_back(mk_desc(0x11, K_SEND, {good, good, good, good, good}));  // 5 SGEs
    Desc ud_big = mk_desc(0x31, K_SEND, {sge_a(tb.rng, 5000)});  // UD larger than the MTU
    tb.descq.push_back(ud_big);
    tb.descq.push_back(mk_desc(0x41, K_SEND, {good}));          // invalid QP
    tb.descq.push_back(mk_desc(0x42, K_WRITE, {good}));         // QP not in RTS (tx_enable 0)
    tb.ackq.push_back({0x41, 1, 0x1f, 1});                      // jobs for an invalid QP: dropped
    tb.ackq.push_back({0x1234, 1, 0x1f, 1});
    tb.rdq.push_back({0x41, 1, g_mr_b.key(), 100, 1, g_mr_b.iova});
    tb.descq.push_back(mk_desc(0x21, K_READ_REQ, {}));          // READ on a UC QP
    tb.descq.push_back(mk_desc(0x31, K_FETCH_ADD, {}));         // atomic on a UD QP
    Desc badkind = mk_desc(0x11, K_ACK, {});
    badkind.kind = 9;                                           // unknown kind
    tb.descq.push_back(badkind);
    // translation hole in the middle of an SGE: frames go out with zeros, LOC_PROT_ERR
    Sge hole = {g_mr_e.iova + 2 * PAGE + 100, 3 * 4096, g_mr_e.key()};
    tb.descq.push_back(mk_desc(0x12, K_WRITE, {hole}));
    uint32_t lk0 = tb.t->cnt_lkey_err_o;
    tb.run_check("lkey_len_qp_errors_no_frames_and_verdicts");
    result(tb.t->cnt_lkey_err_o - lk0 == 11, "lkey_error_counter",
           std::to_string(tb.t->cnt_lkey_err_o - lk0));
  }

  // ---- 4. ACK jobs, READ requests, READ responses (good and bad rkey), all sources at once ----
  {
    unsigned bad = 0;
    for (int i = 0; i < 40; i++) {
      tb.ackq.push_back({0x11, uint32_t(tb.rng() & 0xffffff), (i & 1) ? 0x1fu : 0x60u + (i % 3),
                         uint32_t(tb.rng() & 0xffffff)});
      Desc rr = mk_desc(0x12, K_READ_REQ, {});
      rr.length = uint32_t(tb.rng() % 20000);
      tb.descq.push_back(rr);
      RdJob r;
      r.qpn = (i % 2) ? 0x11 : 0x13;
      r.psn = uint32_t(tb.rng() & 0xffffff);
      r.msn = uint32_t(tb.rng() & 0xffffff);
      r.len = (i % 7 == 0) ? 0 : uint32_t(tb.rng() % 12000);
      r.va = g_mr_b.iova + tb.rng() % (g_mr_b.len - r.len + 1);
      r.rkey = g_mr_b.key();
      if (i % 5 == 1) r.rkey = g_mr_a.key();                                     // no REMOTE_READ right
      else if (i % 5 == 3) { r.va = g_mr_b.iova + g_mr_b.len - 10; r.len = 100; }  // out of bounds
      else if (i % 10 == 4) r.rkey = g_mr_c.key();                               // wrong PD
      if (r.len && !tb.key_ok(r.rkey, PD, r.va, r.len, true)) bad++;
      tb.rdq.push_back(r);
      // interleave some WRITEs
      tb.descq.push_back(mk_desc(0x11, K_WRITE_IMM, {sge_a(tb.rng, uint32_t(tb.rng() % 6000))}));
    }
    uint32_t rk0 = tb.t->cnt_rkey_err_o;
    unsigned p0 = tb.rderr_pulses;
    tb.run_check("ack_readreq_readresp_mixed_hostile");
    result(tb.t->cnt_rkey_err_o - rk0 == bad && tb.rderr_pulses - p0 == bad, "rkey_error_counter_and_pulse",
           std::to_string(tb.t->cnt_rkey_err_o - rk0) + " / " + std::to_string(bad));
  }

  // ---- 5. PHYS_SGE, atomics, ATOMIC_ACK, firmware ACK, UD and UC sends ----------------------------
  {
    for (int i = 0; i < 12; i++) {
      uint32_t len = uint32_t(tb.rng() % 300);
      Desc d = mk_desc(0x11, (i & 1) ? K_SEND : K_WRITE_IMM,
                       {{1536 * PAGE + tb.rng() % (400 * PAGE), len, 0xdeadbeef}});
      d.flags = 2;  // PHYS_SGE: bus addresses, no lkey check
      tb.descq.push_back(d);
      Desc a = mk_desc(0x11, (i & 1) ? K_CMP_SWAP : K_FETCH_ADD, {});
      a.rva = 0x00007f0000001000ull + 8 * i; a.swap_add = tb.rng(); a.compare = tb.rng();
      tb.descq.push_back(a);
      Desc aa = mk_desc(0x12, K_ATOMIC_ACK, {});
      aa.syndrome = 0x1f; aa.swap_add = tb.rng(); aa.imm = uint32_t(tb.rng() & 0xffffff);
      tb.descq.push_back(aa);
      Desc fa = mk_desc(0x13, K_ACK, {});
      fa.syndrome = 0x20 + i; fa.imm = uint32_t(tb.rng() & 0xffffff);
      tb.descq.push_back(fa);
      Desc ud = mk_desc(0x31, (i & 1) ? K_SEND : K_SEND_IMM, {sge_a(tb.rng, uint32_t(tb.rng() % 4097))});
      ud.dest_qpn = 0x777000 + i; ud.qkey = uint32_t(tb.rng());  // bit 31 (half the time): the QP Q_Key
      ud.tclass = uint32_t(tb.rng() & 0xff);  // the AH's traffic class, not the QP's tos
      tb.descq.push_back(ud);
      tb.descq.push_back(mk_desc(0x21, uint32_t(tb.rng() % 4), {sge_a(tb.rng, uint32_t(tb.rng() % 3000))}));
    }
    tb.run_check("phys_sge_atomics_atomic_ack_ack_ud_uc_hostile");
  }

  // ---- 6. random soak: everything mixed, hostile ---------------------------------------------------
  {
    for (int i = 0; i < 150; i++) {
      unsigned r = tb.rng() % 10;
      if (r < 2) tb.ackq.push_back({0x12, uint32_t(tb.rng() & 0xffffff), 0x1f, uint32_t(tb.rng() & 0xffffff)});
      else if (r < 4) {
        RdJob j;
        j.qpn = 0x12; j.psn = uint32_t(tb.rng() & 0xffffff); j.msn = 7; j.len = uint32_t(tb.rng() % 5000);
        j.va = g_mr_b.iova + tb.rng() % (g_mr_b.len - j.len + 1); j.rkey = g_mr_b.key();
        tb.rdq.push_back(j);
      } else {
        std::vector<Sge> sg;
        unsigned n = tb.rng() % 5;
        for (unsigned k = 0; k < n; k++) sg.push_back(sge_a(tb.rng, uint32_t(tb.rng() % 5000)));
        static const uint32_t qs[] = {0x11, 0x12, 0x13, 0x14, 0x15};
        Desc d = mk_desc(qs[tb.rng() % 5], uint32_t(tb.rng() % 4), sg);
        if (tb.rng() % 20 == 0 && !d.sge.empty()) d.sge[0].lkey ^= 0x100;  // wrong index
        tb.descq.push_back(d);
      }
    }
    tb.run_check("random_soak_all_sources_hostile");
  }

  // ---- 6b. an ACK job overtakes a large WRITE at a packet boundary ---------------------------------
  {
    tb.slave.cfg = AxiSlaveCfg::polite(100);
    tb.p_mac = 1.0; tb.p_in = 1.0; tb.p_done = 1.0;
    tb.descq.push_back(mk_desc(0x11, K_WRITE, {sge_a(tb.rng, 512 * 1024)}));  // 128 packets
    for (int i = 0; i < 400; i++) tb.tick();
    tb.ackq.push_back({0x12, 0x4242, 0x1f, 0x99});
    size_t n0 = tb.frames.size();
    while (tb.ackq.size() || tb.frames.size() < n0 + 3) tb.tick();
    size_t pos = 0;
    for (size_t i = 0; i < tb.frames.size(); i++)
      if (tb.frames[i][42] == 0x11) pos = i + 1;
    tb.run_check("ack_lane_during_512k_write");
    result(pos > 0 && pos <= n0 + 3, "ack_overtakes_large_write",
           "ACK was frame " + std::to_string(pos) + ", job queued after frame " + std::to_string(n0));
    tb.slave.cfg = AxiSlaveCfg::hostile();
  }

  // ---- 6b2. the descriptor queue: while a long WRITE still issues its payload DMA (the control
  // FSM busy with it), four more firmware messages are accepted at once and a fifth waits; all
  // then go out in order, byte for byte -----------------------------------------------------------
  {
    tb.slave.cfg = AxiSlaveCfg::polite(100);
    tb.p_mac = 1.0; tb.p_in = 1.0; tb.p_done = 1.0;
    tb.descq.push_back(mk_desc(0x11, K_WRITE, {sge_a(tb.rng, 512 * 1024)}));  // 128 packets
    for (int i = 0; i < 5; i++) tb.descq.push_back(mk_desc(0x11, K_SEND, {sge_a(tb.rng, 64 + 100 * i)}));
    for (int i = 0; i < 2000; i++) tb.tick();
    size_t queued = tb.desc_queued.size(), waiting = tb.descq.size(), sent = tb.frames.size();
    tb.run_check("descriptor_queue_behind_512k_write");
    result(queued == 4 && waiting == 1 && sent < 128, "descriptor_queue_takes_four_behind_a_long_message",
           "queued " + std::to_string(queued) + " waiting " + std::to_string(waiting) + " frames " +
               std::to_string(sent));
    tb.slave.cfg = AxiSlaveCfg::hostile();
  }

  // ---- 6c. responses in PSN order: per RC QP a stream of requests as xport_rx hands them over
  // (READ-response jobs, ACK jobs, atomic markers whose ATOMIC ACKNOWLEDGE the firmware sends up to
  // 3000 cycles later), with WRITEs of other QPs in the message path, hostile slave and MAC. On the
  // wire every QP's responses must carry non-decreasing PSNs: an ACK must not overtake a READ
  // response or an atomic answer of an earlier PSN (IBTA: it would acknowledge them) -------------
  {
    std::map<uint32_t, uint32_t> psn, msn;
    const uint32_t rq[] = {0x11, 0x12, 0x13};
    for (uint32_t q : rq) { psn[q] = uint32_t(tb.rng() % 0x100000); msn[q] = uint32_t(tb.rng() & 0xffff); }
    tb.fw_delay_max = 3000;
    unsigned n_rd = 0, n_ack = 0, n_at = 0;
    for (int i = 0; i < 300; i++) {
      uint32_t q = rq[tb.rng() % 3], r = uint32_t(tb.rng() % 10);
      Tb::RspJob j{};
      msn[q] = (msn[q] + 1) & 0xffffff;
      if (r < 3) {
        j.type = 1;
        j.r.qpn = q; j.r.psn = psn[q]; j.r.msn = msn[q]; j.r.len = uint32_t(tb.rng() % 20000);
        j.r.va = g_mr_b.iova + tb.rng() % (g_mr_b.len - j.r.len + 1); j.r.rkey = g_mr_b.key();
        uint32_t mtu = 1u << tb.qps[q].pmtu_log2;
        psn[q] += j.r.len ? (j.r.len + mtu - 1) / mtu : 1;
        n_rd++;
      } else {
        j.type = 0;
        j.a = {q, psn[q], 0x1f, msn[q], r >= 8};
        psn[q] += 1;
        (r >= 8 ? n_at : n_ack)++;
      }
      tb.rspq.push_back(j);
      if (tb.rng() % 4 == 0) tb.descq.push_back(mk_desc(0x14, K_WRITE, {sge_a(tb.rng, uint32_t(tb.rng() % 9000))}));
    }
    size_t f0 = tb.all_frames.size(), c0 = tb.coalesced;
    tb.run_check("responses_in_psn_order_hostile");
    std::map<uint32_t, uint32_t> last, lastop;
    std::map<uint32_t, size_t> lasti;
    std::string why;
    size_t nresp = 0;
    for (size_t i = f0; i < tb.all_frames.size(); i++) {
      const Bytes& f = tb.all_frames[i];
      if (f.size() < 54 || f[42] < 0x0D || f[42] > 0x12) continue;
      uint32_t dq = uint32_t(f[47] << 16 | f[48] << 8 | f[49]), p = uint32_t(f[51] << 16 | f[52] << 8 | f[53]);
      nresp++;
      if (last.count(dq) && p < last[dq] && why.empty()) {
        char m[160];
        snprintf(m, sizeof m, "frame %zu (opcode %02x) of QP %x has PSN %u after PSN %u (opcode %02x, frame %zu)", i - f0,
                 f[42], dq, p, last[dq], lastop[dq], lasti[dq] - f0);
        why = m;
      }
      last[dq] = p; lastop[dq] = f[42]; lasti[dq] = i;
    }
    result(why.empty() && nresp > 0, "responses_in_psn_order_per_qp", why.empty() ? std::to_string(nresp) + " responses" : why);
    printf("INFO responses in PSN order: %u READ responses, %u ACK jobs (%zu coalesced), %u atomics, %zu response frames\n",
           n_rd, n_ack, tb.coalesced - c0, n_at, nresp);
    tb.fw_delay_max = 0;
  }

  // ---- 6d. a parked ACK behind an atomic the firmware never answers: a QP-table write that stops
  // the QP (qp_stop_i) lets it go ---------------------------------------------------------------------
  {
    tb.fw_answers = false;
    tb.rspq.push_back({0, {0x14, 100, 0x1f, 5, true}, {}});
    tb.rspq.push_back({0, {0x14, 101, 0x1f, 6, false}, {}});
    size_t n0 = tb.frames.size();
    for (int i = 0; i < 3000; i++) tb.tick();
    bool held = tb.frames.size() == n0;
    tb.stop_qpn = 0x14;
    tb.run_check("ack_parked_behind_unanswered_atomic");
    result(held, "ack_waits_for_atomic_answer_then_qp_stop_releases",
           held ? "" : "the ACK left before the atomic was answered");
    tb.fw_answers = true;
  }

  // ---- 6e. responder resources (max_dest_rd_atomic; docs/conformance.md row 22): rsc_cnt_o, a
  // cycle after rsc_qpn_i, counts that QP's READ responses of new requests whose frames have not
  // all left (a duplicate's re-read not: its original may still be streaming after the requester
  // took it as answered) and its atomics from the marker until the answer's frame left ---------
  {
    tb.t->rsc_qpn_i = 0x12;
    for (uint32_t k = 0; k < 3; k++) {
      RdJob j;
      j.qpn = 0x12; j.psn = 0x500 + 40 * k; j.msn = 0x60 + k; j.len = 30000; j.rkey = g_mr_b.key();
      j.va = g_mr_b.iova + 100 + 1000 * k; j.fresh = k != 1;
      tb.rdq.push_back(j);
    }
    RdJob other;  // another QP's READ: not counted for 0x12
    other.qpn = 0x11; other.psn = 0x700; other.msn = 1; other.len = 9000; other.rkey = g_mr_b.key(); other.va = g_mr_b.iova;
    tb.rdq.push_back(other);
    unsigned mx = 0;
    uint64_t start = tb.cyc;
    while (tb.busy() && tb.cyc - start < 400000) {
      tb.tick();
      mx = std::max(mx, unsigned(tb.t->rsc_cnt_o));
    }
    tb.run_check("rd_resources_read_responses_sent");
    unsigned after = tb.t->rsc_cnt_o;
    result(mx == 2 && after == 0, "rd_resources_count_new_read_responses",
           "most " + std::to_string(mx) + " (want 2 of 3 jobs, one a duplicate), after " + std::to_string(after));
    // an atomic of 0x12 the firmware has not answered: counted from its marker until a QP stop
    tb.fw_answers = false;
    tb.rspq.push_back({0, {0x12, 0x600, 0x1f, 9, true}, {}});
    for (int i = 0; i < 2000; i++) tb.tick();
    unsigned at = tb.t->rsc_cnt_o;
    tb.stop_qpn = 0x12;
    for (int i = 0; i < 50; i++) tb.tick();
    unsigned at_after = tb.t->rsc_cnt_o;
    tb.t->rsc_qpn_i = 0x11;
    tb.tick(), tb.tick();
    unsigned other_qp = tb.t->rsc_cnt_o;
    result(at == 1 && at_after == 0 && other_qp == 0, "rd_resources_count_unanswered_atomic",
           "with the marker " + std::to_string(at) + " (want 1), after the QP stop " + std::to_string(at_after) +
               ", QP 0x11 " + std::to_string(other_qp));
    tb.fw_answers = true;
    tb.t->rsc_qpn_i = 0;
  }

  // ---- 7. DMA error: SLVERR on a page of MR A -> GENERAL_ERR verdict, frames still sent ----------
  {
    Sge s = sge_a(tb.rng, 2000);
    tb.slave.err_pages[g_mr_a.pa(s.addr) >> 12] = 2;
    uint32_t de0 = tb.t->cnt_dma_err_o;
    tb.descq.push_back(mk_desc(0x11, K_WRITE, {s}));
    uint64_t start = tb.cyc;
    while (tb.busy() && tb.cyc - start < 200000) tb.tick();
    for (int i = 0; i < 300; i++) tb.tick();
    // the data of a failed read is undefined: only the verdict and the frame count are checked
    bool ok = tb.dones.size() == 1 && tb.dones[0].second == ST_GENERAL &&
              tb.frames.size() == tb.exp_main.size() && tb.t->cnt_dma_err_o > de0;
    result(ok, "dma_error_general_err_verdict",
           "dones " + std::to_string(tb.dones.size()) + " frames " + std::to_string(tb.frames.size()));
    tb.ip_id = uint16_t(tb.ip_id + tb.frames.size());
    tb.frames.clear(); tb.exp_main.clear(); tb.exp_ack.clear(); tb.dones.clear(); tb.exp_dones.clear();
    tb.slave.err_pages.clear();
    tb.slave.reset_stats();
  }

  // ---- 7b. DMA error on a READ response's source: the last response frame is poisoned (ICRC),
  // then a NAK remote operational error (0x63) at the job's PSN and MSN, and a responder verdict
  // (done_rsp_o, REM_OP_ERR) for the firmware. Whole response failing, and only its tail.
  for (int tail = 0; tail < 2; tail++) {
    RdJob j;
    j.qpn = 0x12; j.psn = 0x300 + tail; j.msn = 0x55 + tail; j.len = 6000; j.rkey = g_mr_b.key();
    j.va = g_mr_b.iova + 4 * PAGE - (tail ? 2000 : 4000);  // crosses into the next page
    // the MR's pages are scattered: every page the response reads (tail: only its last one)
    for (uint32_t off = tail ? j.len - 1 : 0; off < j.len; off += 256) tb.slave.err_pages[g_mr_b.pa(j.va + off) >> 12] = 2;
    tb.slave.err_pages[g_mr_b.pa(j.va + j.len - 1) >> 12] = 2;
    tb.rdq.push_back(j);
    uint64_t start = tb.cyc;
    size_t nresp = 0;
    while ((tb.rdq.size() || tb.rd_on || tb.frames.size() < tb.exp_main.size() + 1) && tb.cyc - start < 200000) tb.tick();
    for (int i = 0; i < 300; i++) tb.tick();
    nresp = tb.exp_main.size();
    bool n_ok = nresp >= 2 && tb.frames.size() == nresp + 1;
    bool good_before = true, poisoned = false, nak = false;
    if (n_ok) {
      for (size_t i = 0; i + 1 < nresp; i++)  // earlier frames: well formed (their data is undefined)
        good_before = good_before && roce_ref::parse(tb.frames[i], 0, 0xffffff, 1u << 14).reason == -1;
      poisoned = roce_ref::parse(tb.frames[nresp - 1], 0, 0xffffff, 1u << 14).reason == roce_ref::kDropIcrc;
      const Bytes &f = tb.frames[nresp];
      uint32_t psn = uint32_t(f[42 + 9]) << 16 | uint32_t(f[42 + 10]) << 8 | f[42 + 11];
      uint32_t msn = uint32_t(f[42 + 13]) << 16 | uint32_t(f[42 + 14]) << 8 | f[42 + 15];
      nak = roce_ref::parse(f, 0, 0xffffff, 1u << 14).reason == -1 && f[42] == 0x11 && f[42 + 12] == 0x63 &&
            psn == j.psn && msn == j.msn;
    }
    bool verdict = tb.dones.size() == 1 && tb.dones[0].first == j.qpn && tb.dones[0].second == 11 && tb.rsp_dones == 1;
    result(n_ok && good_before && poisoned && nak && verdict,
           tail ? "read_resp_dma_error_tail_poisoned_last_nak_remote_op" : "read_resp_dma_error_poisoned_last_nak_remote_op",
           "frames " + std::to_string(tb.frames.size()) + "/" + std::to_string(nresp) + "+1 good_before " +
               std::to_string(good_before) + " poisoned " + std::to_string(poisoned) + " nak " + std::to_string(nak) +
               " dones " + std::to_string(tb.dones.size()) + " rsp " + std::to_string(tb.rsp_dones));
    tb.ip_id = uint16_t(tb.ip_id + tb.frames.size());
    tb.frames.clear(); tb.exp_main.clear(); tb.exp_ack.clear(); tb.dones.clear(); tb.exp_dones.clear();
    tb.rsp_dones = 0;
    tb.slave.err_pages.clear();
    tb.slave.reset_stats();
  }

  // ---- pcap + tshark -------------------------------------------------------------------------------
  {
    std::string path = out + "/xport_tx_w" + std::to_string(TB_DW) + ".pcap";
    std::vector<Bytes> fr = tb.all_frames;
    if (fr.size() > 20000) fr.resize(20000);
    write_pcap(path, fr);
    std::string dis;
    for (const char* d : {"rpcordma", "smc", "smb_direct", "nvme-rdma", "lnet", "iser", "infiniband_sdp",
                          "fcoib", "infiniband.eoib"})
      dis += std::string(" --disable-protocol ") + d;
    dis += " --disable-heuristic eth_over_ib";
    std::string cmd = "tshark -n -r " + path + dis + " -T fields -e frame.protocols 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    size_t lines = 0, ib = 0;
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) {
      lines++;
      if (strstr(buf, "eth:ethertype:ip:udp:infiniband")) ib++;
    }
    int rc = p ? pclose(p) : -1;
    result(rc == 0 && lines == fr.size() && ib == fr.size(), "tshark_all_frames_infiniband_over_udp",
           std::to_string(ib) + "/" + std::to_string(fr.size()) + " rc " + std::to_string(rc));
    cmd = "tshark -n -r " + path + dis + " -V 2>&1";
    p = popen(cmd.c_str(), "r");
    size_t bad = 0;
    std::string ex;
    while (p && fgets(buf, sizeof buf, p)) {
      std::string l(buf);
      if (l.find("Malformed") != std::string::npos || l.find("Expert Info (Error") != std::string::npos ||
          l.find("Expert Info (Warning") != std::string::npos) {
        if (!bad++) ex = l;
      }
    }
    if (p) pclose(p);
    result(bad == 0, "tshark_no_malformed_or_expert_errors", ex);
    printf("INFO wrote %zu frames to %s\n", fr.size(), path.c_str());
  }

  printf("INFO %d passed, %d failed, %llu cycles\n", g_pass, g_fail, (unsigned long long)tb.cyc);
  return g_fail ? 1 : 0;
}
