// tb_xport_rx.cpp: testbench of rtl/xport_rx (xport_rx + xport_qpt) with the real mkey_table and
// dma_engine behind it and the hostile AXI slave model (tb/dma/axi_slave_model.h) as host memory.
// Parsed headers and the packed payload stream are driven directly in roce_rx's output format.
// Usage: Vxport_rx_tb_top [--seed N] [--bench]
// One PASS/FAIL line per check; non-zero exit if anything failed.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vxport_rx_tb_top.h"
#include "main/sim_waves.h"
#include "ref/roce_ref.h"
#include "axi_slave_model.h"
#include "rnic_spec.h"
#include "tb_check.h"
#include "verilated.h"
#include "vl_bits.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

#ifndef TB_DW
#define TB_DW 512
#endif
static constexpr unsigned NB = TB_DW / 8;
static constexpr size_t MEM = 8u << 20;
static TbResults R;

// ---- roce_pkg::roce_hdr_t, fields MSB first ----------------------------------------------------
struct Hdr {
  uint64_t opcode = 0, se = 0, dest_qp = 0, ack_req = 0, psn = 0, va = 0, rkey = 0, dma_len = 0,
           syndrome = 0, msn = 0, swap_add = 0, compare = 0, orig = 0, imm = 0, payload_len = 0, qkey = 0, src_qp = 0;
};
template <typename T> static void pack_hdr(T& s, const Hdr& h) {
  struct FW { unsigned w; uint64_t v; };
  const FW f[] = {{48, 0x020000000002ull}, {48, 0x020000000001ull}, {32, 0xC0A80101}, {32, 0xC0A80102},
                  {8, 0}, {8, 64}, {16, 0}, {16, 0xC000}, {8, h.opcode}, {1, h.se}, {1, 0},
                  {2, (4 - h.payload_len % 4) % 4}, {16, 0xFFFF}, {1, 0}, {1, 0}, {24, h.dest_qp},
                  {1, h.ack_req}, {24, h.psn}, {64, h.va}, {32, h.rkey}, {32, h.dma_len},
                  {8, h.syndrome}, {24, h.msn}, {64, h.swap_add}, {64, h.compare}, {64, h.orig},
                  {32, h.imm}, {32, h.qkey}, {24, h.src_qp}, {16, h.payload_len}};
  unsigned pos = 743;
  for (const FW& x : f) { pos -= x.w; vlb::set(s, pos, x.w, x.v); }
}

struct Pkt { Hdr h; std::vector<uint8_t> pl; };
struct Ack { uint32_t qpn, psn, syn, msn; };
struct Evt { uint32_t kind, status, syn, flags, qpn, psn, msn, byte_len, imm, op; uint64_t wr_id, va, swap_add, compare; uint32_t src; };
struct Rd { uint32_t qpn, psn; uint64_t va; uint32_t rkey, len, msn; bool fresh; };

// spec enum values
enum { EV_RECV_DONE = 0, EV_WRITE_IMM_DONE = 1, EV_ACK = 2, EV_NAK = 3, EV_RNR_NAK = 4, EV_RESP_ERROR = 6,
       EV_RNR_SENT = 7, EV_ATOMIC_REQ = 8, EV_ATOMIC_ACK = 9, EV_READ_RESP_DONE = 5, EV_READ_GAP = 12 };
enum { WC_SUCCESS = 0, WC_GENERAL_ERR = 21, WC_LOC_LEN_ERR = 1, WC_LOC_PROT_ERR = 4, WC_REM_INV_REQ_ERR = 9, WC_REM_ACCESS_ERR = 10, WC_REM_OP_ERR = 11 };
enum { A_LW = 1, A_RW = 2, A_RR = 4, A_RA = 8 };
enum { C_BADQP = 0, C_DUP, C_OOO, C_ACCESS, C_RNR, C_UNSUP, C_RDRSP, C_UD };

struct Mr {
  uint32_t idx, variant, pdn, access, mtt_base, fpo;
  uint64_t iova, len;
  std::vector<uint64_t> pages;  // bus address of each 4 KiB page
  uint32_t key() const { return idx << 8 | variant; }
  uint64_t xlate(uint64_t va) const {
    uint64_t rel = va - iova + fpo;
    return pages[rel >> 12] + (rel & 0xFFF);
  }
};

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vxport_rx_tb_top> top;
  Waves waves;  // FST when asked for (sim/main/sim_waves.h)
  AxiSlaveModel slave;
  AxiPorts ports{NB};
  std::mt19937_64 rng;
  std::vector<uint8_t> exp;  // expected host memory
  std::deque<Pkt> hq;
  std::deque<std::vector<uint8_t>> beats;
  struct FBeat { std::vector<uint8_t> d; unsigned keep; bool last; };
  std::deque<FBeat> fbeats;  // frames for roce_rx (parser mode)
  bool parser = false;
  uint16_t ip_id = 0;
  std::vector<Ack> acks;
  // atomic markers (ack_hold_o): QPN, PSN and how many events had been taken before it
  struct Mark { uint32_t qpn, psn; size_t evts_before; };
  std::vector<Mark> marks;
  std::vector<Evt> evts;
  std::vector<Rd> rds;
  double in_p = 0.8, out_p = 0.7;
  uint64_t cycles = 0;

  Tb(uint64_t seed) : ctx(new VerilatedContext), top(new Vxport_rx_tb_top(ctx.get())), slave(NB, MEM, seed), rng(seed) {
    waves.open(top.get(), "xport_rx");
    for (auto& b : slave.mem) b = uint8_t(rng());
    exp = slave.mem;
    slave.cfg = AxiSlaveCfg::hostile();
    slave.max_wr_bytes = 512;
    top->rst_ni = 0;
    top->rdd_valid_i = 0; top->qpt_wr_valid_i = 0; top->rqd_valid_i = 0; top->mk_wr_valid_i = 0;
    for (int i = 0; i < 5; i++) { top->clk_i = 1; waves.eval(*top); top->clk_i = 0; waves.eval(*top); }
    top->rst_ni = 1; waves.eval(*top);
    while (!top->mk_init_done_o) cycle();
  }
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  // one clock cycle; fw_* handshakes are reported through the flags
  bool fire_qpt = false, fire_rqd = false, fire_mk = false, fire_rdd = false;
  void cycle() {
    // inputs
    top->hdr_valid_i = !hq.empty();
    if (!hq.empty()) pack_hdr(top->hdr_i, hq.front().h);
    top->use_parser_i = parser;
    bool fv = !fbeats.empty() && coin(in_p);
    top->f_tvalid_i = fv;
    if (fv) {
      vlb::set_bytes(top->f_tdata_i, 0, NB, fbeats.front().d.data());
      for (unsigned i = 0; i < NB; i++) vlb::set(top->f_tkeep_i, i, 1, i < fbeats.front().keep);
      top->f_tlast_i = fbeats.front().last;
    }
    bool bv = !beats.empty() && coin(in_p);
    top->s_tvalid_i = bv;
    if (bv) vlb::set_bytes(top->s_tdata_i, 0, NB, beats.front().data());
    top->evt_ready_i = coin(out_p);
    top->ack_ready_i = coin(out_p);
    top->rdrsp_ready_i = coin(out_p);
    slave.drive(ports);
    top->m_axi_awready = ports.awready; top->m_axi_wready = ports.wready;
    top->m_axi_bvalid = ports.bvalid; top->m_axi_bid = ports.bid; top->m_axi_bresp = ports.bresp;
    top->clk_i = 0; waves.eval(*top);
    // outputs of this cycle
    ports.awvalid = top->m_axi_awvalid; ports.awid = top->m_axi_awid; ports.awaddr = top->m_axi_awaddr;
    ports.awlen = top->m_axi_awlen; ports.awsize = top->m_axi_awsize; ports.awburst = top->m_axi_awburst;
    ports.wvalid = top->m_axi_wvalid; ports.wlast = top->m_axi_wlast;
    vlb::get_bytes(top->m_axi_wdata, 0, NB, ports.wdata.data());
    for (unsigned i = 0; i < NB; i++) ports.wstrb[i] = vlb::get(top->m_axi_wstrb, i, 1);
    ports.bready = top->m_axi_bready;
    ports.arvalid = false; ports.rready = true;
    if (top->hdr_valid_i && top->hdr_ready_o) hq.pop_front();
    if (bv && top->s_tready_o) beats.pop_front();
    if (fv && top->f_tready_o) fbeats.pop_front();
    if (top->ack_valid_o && top->ack_ready_i && top->ack_hold_o)
      marks.push_back({top->ack_qpn_o, top->ack_psn_o, evts.size()});
    else if (top->ack_valid_o && top->ack_ready_i)
      acks.push_back({top->ack_qpn_o, top->ack_psn_o, top->ack_syndrome_o, top->ack_msn_o});
    if (top->rdrsp_valid_o && top->rdrsp_ready_i)
      rds.push_back({top->rdrsp_qpn_o, top->rdrsp_psn_o, top->rdrsp_va_o, top->rdrsp_rkey_o, top->rdrsp_len_o, top->rdrsp_msn_o,
                     bool(top->rdrsp_new_o)});
    if (top->evt_valid_o && top->evt_ready_i) {
      uint8_t e[RNIC_RX_EVENT_SIZE];
      for (unsigned i = 0; i < RNIC_RX_EVENT_SIZE / 4; i++) rnic_st_le32(e + 4 * i, top->evt_o[i]);
      evts.push_back({rnic_rx_event_get_kind(e), rnic_rx_event_get_status(e), rnic_rx_event_get_syndrome(e),
                      rnic_rx_event_get_flags(e), rnic_rx_event_get_qpn(e), rnic_rx_event_get_psn(e),
                      rnic_rx_event_get_msn(e), rnic_rx_event_get_byte_len(e),
                      // imm_data is kept in wire byte order; compare it as the header's value
                      __builtin_bswap32(rnic_rx_event_get_imm_data(e)), rnic_rx_event_get_opcode(e),
                      rnic_rx_event_get_wr_id(e), rnic_rx_event_get_va(e), rnic_rx_event_get_swap_add(e),
                      rnic_rx_event_get_compare(e), rnic_rx_event_get_src_qpn(e)});
    }
    fire_qpt = top->qpt_wr_valid_i && top->qpt_wr_ready_o;
    if (top->qp_stop_o) stops.push_back(top->qp_stop_qpn_o);
    fire_rqd = top->rqd_valid_i && top->rqd_ready_o;
    fire_rdd = top->rdd_valid_i && top->rdd_ready_o;
    fire_mk = top->mk_wr_valid_i && top->mk_wr_ready_o;
    slave.commit(ports);
    top->clk_i = 1; waves.eval(*top);
    cycles++;
  }

  void run_idle() {
    unsigned quiet = 0;
    for (uint64_t n = 0; n < 20000000; n++) {
      cycle();
      bool busy = !hq.empty() || !beats.empty() || !fbeats.empty() || (!parser && !top->hdr_ready_o) || top->ack_valid_o ||
                  top->evt_valid_o || top->rdrsp_valid_o || !slave.idle();
      quiet = busy ? 0 : quiet + 1;
      if (quiet > 300) return;
    }
    R.check(false, "run_idle", "timeout");
  }

  // ---- firmware ports ----
  // mkey table writes: an mpt_entry image, or an mtt_entry in the first bytes (spec layouts)
  void mk_write(uint32_t op, uint32_t index, const uint8_t* img) {
    top->mk_wr_valid_i = 1; top->mk_wr_op_i = op; top->mk_wr_index_i = index;
    load(top->mk_wr_data_i, img, RNIC_MPT_ENTRY_SIZE);
    do cycle(); while (!fire_mk);
    top->mk_wr_valid_i = 0;
  }
  void add_mr(const Mr& m) {
    for (size_t i = 0; i < m.pages.size(); i++) {
      uint8_t t[RNIC_MPT_ENTRY_SIZE] = {0};
      rnic_mtt_entry_set_page_addr(t, m.pages[i] | 1);
      mk_write(RNIC_MKEY_WR_OP_WR_MTT, m.mtt_base + uint32_t(i), t);
    }
    uint8_t e[RNIC_MPT_ENTRY_SIZE] = {0};
    rnic_mpt_entry_set_valid(e, 1);
    rnic_mpt_entry_set_access(e, m.access);
    rnic_mpt_entry_set_page_shift(e, 12);
    rnic_mpt_entry_set_key_variant(e, m.variant);
    rnic_mpt_entry_set_pdn(e, m.pdn);
    rnic_mpt_entry_set_iova(e, m.iova);
    rnic_mpt_entry_set_length(e, m.len);
    rnic_mpt_entry_set_mtt_base(e, m.mtt_base);
    rnic_mpt_entry_set_first_page_offset(e, uint32_t(m.fpo));
    mk_write(RNIC_MKEY_WR_OP_WR_MPT, m.idx, e);
  }
  std::vector<uint32_t> stops;  // the QP table's stop_o pulses (QPNs), for the transmit engine
  uint32_t qpt_cmd_bits = 0;  // qpt_cmd bits besides the QPN for the next qpt_write (keep_state)
  unsigned rd_res = 16;       // max_dest_rd_atomic of the next qpt_write
  // A QP-table entry: both directions enabled; the addresses are fixed test values.
  void qpt_write(uint32_t qpn, uint32_t epsn, unsigned pmtu_log2, unsigned access, uint32_t pdn,
                 unsigned coal, unsigned rnr, bool valid = true, unsigned qp_type = 2, uint32_t qkey = 0) {
    uint8_t e[RNIC_QPT_ENTRY_SIZE] = {0};
    rnic_qpt_entry_set_valid(e, valid);
    rnic_qpt_entry_set_rx_enable(e, 1);
    rnic_qpt_entry_set_tx_enable(e, 1);
    rnic_qpt_entry_set_qp_type(e, qp_type);
    rnic_qpt_entry_set_pmtu_log2(e, pmtu_log2);
    rnic_qpt_entry_set_access(e, access);
    rnic_qpt_entry_set_pdn(e, pdn);
    rnic_qpt_entry_set_dest_qpn(e, 0x100 + qpn);
    rnic_qpt_entry_set_epsn(e, epsn);
    rnic_qpt_entry_set_dmac(e, 0x0200000000AAull);
    rnic_qpt_entry_set_smac(e, 0x0200000000BBull);
    rnic_qpt_entry_set_dest_ipv4(e, 0x0A000002);
    rnic_qpt_entry_set_src_ipv4(e, 0x0A000001);
    rnic_qpt_entry_set_udp_sport(e, 0xC123);
    rnic_qpt_entry_set_ttl(e, 64);
    rnic_qpt_entry_set_qkey(e, qkey);
    rnic_qpt_entry_set_ack_coalesce(e, coal);
    rnic_qpt_entry_set_min_rnr_timer(e, rnr);
    rnic_qpt_entry_set_max_dest_rd_atomic(e, rd_res);
    load(top->qpt_wr_entry_i, e, RNIC_QPT_ENTRY_SIZE);
    top->qpt_wr_valid_i = 1; top->qpt_wr_qpn_i = qpn | qpt_cmd_bits;
    do cycle(); while (!fire_qpt);
    top->qpt_wr_valid_i = 0;
  }
  struct Sge { uint64_t addr; uint32_t len, lkey; };
  // the SGE list of an rq_desc / rd_desc from byte sge0_off on (16 bytes each, spec-checked)
  // Descriptors are built with the generated accessors in a byte image, then loaded into the
  // port's words (little-endian, as the spec's bit numbering).
  template <typename T> static void load(T& port, const uint8_t* img, unsigned bytes) {
    for (unsigned i = 0; i < bytes / 4; i++) port[i] = rnic_ld_le32(img + 4 * i);
  }
  // The entries past num_sge get junk (the firmware never writes them, so on the card they hold
  // whatever an earlier descriptor left): the engine must not read them.
  static void put_sges(uint8_t* img, unsigned sge0_off, const std::vector<Sge>& sg) {
    for (size_t i = 0; i < RNIC_MAX_SGE; i++) {  // SGE i at sge0 + 16 i (spec: evenly spaced)
      uint8_t* g = img + sge0_off + 16 * i;
      const Sge junk = {0xDEAD0000BEEF0000ull + 0x1111 * i, 0xFFFFF000u - 0x1234u * uint32_t(i),
                        0xA5A5A500u | uint32_t(i)};
      const Sge& e = i < sg.size() ? sg[i] : junk;
      rnic_st_le(g, 8, e.addr);
      rnic_st_le(g + RNIC_RQ_DESC_SGE0_LEN_OFF - RNIC_RQ_DESC_SGE0_ADDR_OFF, 4, e.len);
      rnic_st_le(g + RNIC_RQ_DESC_SGE0_LKEY_OFF - RNIC_RQ_DESC_SGE0_ADDR_OFF, 4, e.lkey);
    }
  }
  void post_rq(uint32_t qpn, uint64_t wr_id, const std::vector<Sge>& sg) {
    uint8_t d[RNIC_RQ_DESC_SIZE] = {0};
    rnic_rq_desc_set_qpn(d, qpn);
    rnic_rq_desc_set_num_sge(d, uint32_t(sg.size()));
    rnic_rq_desc_set_wr_id(d, wr_id);
    put_sges(d, RNIC_RQ_DESC_SGE0_ADDR_OFF, sg);
    load(top->rqd_i, d, RNIC_RQ_DESC_SIZE);
    top->rqd_valid_i = 1;
    do cycle(); while (!fire_rqd);
    top->rqd_valid_i = 0;
  }
  // rd_desc: where the responses of one READ (atomic: the original value of one atomic) go
  // resume >= 0: a retry resuming at PSN resume (rd_desc.resume / resume_psn)
  void set_rdd(uint32_t qpn, uint32_t psn, uint32_t len, const std::vector<Sge>& sg, int64_t resume = -1,
               bool atomic = false) {
    uint8_t d[RNIC_RD_DESC_SIZE] = {0};
    rnic_rd_desc_set_qpn(d, qpn);
    rnic_rd_desc_set_num_sge(d, uint32_t(sg.size()));
    rnic_rd_desc_set_first_psn(d, psn);
    rnic_rd_desc_set_length(d, len);
    if (resume >= 0) {
      rnic_rd_desc_set_resume(d, 1);
      rnic_rd_desc_set_resume_psn(d, uint32_t(resume));
    }
    rnic_rd_desc_set_atomic(d, atomic);
    put_sges(d, RNIC_RD_DESC_SGE0_ADDR_OFF, sg);
    load(top->rdd_i, d, RNIC_RD_DESC_SIZE);
  }
  void post_rdd(uint32_t qpn, uint32_t psn, uint32_t len, const std::vector<Sge>& sg, int64_t resume = -1,
                bool atomic = false) {
    set_rdd(qpn, psn, len, sg, resume, atomic);
    top->rdd_valid_i = 1;
    do cycle(); while (!fire_rdd);
    top->rdd_valid_i = 0;
  }
  uint32_t cnt(int i) { return (uint32_t)vlb::get(top->cnt_o, 32 * i, 32); }
  // READ progress query: -1 when (qpn, first psn) is not outstanding, else the next PSN expected
  // (asked as the firmware does: the read strobe high for the evaluation, low again after)
  int64_t rdq(uint32_t qpn, uint32_t psn) {
    top->rdq_qpn_i = qpn; top->rdq_psn_i = psn; top->rdq_rd_i = 1;
    waves.eval(*top);
    int64_t r = top->rdq_hit_o ? int64_t(top->rdq_nxt_o) : -1;
    top->rdq_rd_i = 0;
    waves.eval(*top);
    return r;
  }

  void send_pkt(const Pkt& p) {
    if (parser) {  // whole frame through roce_rx
      roce_ref::Hdr r;
      r.dst_mac = 0x0200000000BBull; r.src_mac = 0x0200000000AAull; r.src_ip = 0x0A000002; r.dst_ip = 0x0A000001;
      r.ttl = 64; r.ip_id = ip_id++; r.udp_sport = 0xC000; r.pkey = 0xFFFF;
      r.opcode = p.h.opcode; r.se = p.h.se; r.dest_qp = p.h.dest_qp; r.ack_req = p.h.ack_req; r.psn = p.h.psn;
      r.va = p.h.va; r.rkey = p.h.rkey; r.dma_len = p.h.dma_len; r.syndrome = p.h.syndrome; r.msn = p.h.msn;
      r.swap_add = p.h.swap_add; r.compare = p.h.compare; r.orig = p.h.orig; r.imm = p.h.imm;
      r.payload_len = p.h.payload_len;
      r.qkey = uint32_t(p.h.qkey); r.src_qp = uint32_t(p.h.src_qp);
      auto f = roce_ref::build(r, p.pl);
      for (size_t o = 0; o < f.size(); o += NB) {
        FBeat b{std::vector<uint8_t>(NB, 0), unsigned(std::min<size_t>(NB, f.size() - o)), o + NB >= f.size()};
        for (unsigned i = 0; i < b.keep; i++) b.d[i] = f[o + i];
        fbeats.push_back(b);
      }
      return;
    }
    hq.push_back(p);
    for (size_t o = 0; o < p.pl.size(); o += NB) {
      std::vector<uint8_t> b(NB, 0);
      for (size_t i = 0; i < NB && o + i < p.pl.size(); i++) b[i] = p.pl[o + i];
      beats.push_back(b);
    }
  }
  std::vector<uint8_t> rand_bytes(size_t n) {
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(rng());
    return v;
  }
  void clear_out() { acks.clear(); marks.clear(); evts.clear(); rds.clear(); }
};

// Segment a WRITE (imm: with immediate) or SEND into request packets.
static std::vector<Pkt> seg(bool write, uint32_t qpn, uint32_t psn, uint64_t va, uint32_t rkey,
                            const std::vector<uint8_t>& data, unsigned mtu, bool imm = false, uint32_t immv = 0) {
  std::vector<Pkt> v;
  size_t n = std::max<size_t>(1, (data.size() + mtu - 1) / mtu);
  for (size_t i = 0; i < n; i++) {
    Pkt p;
    bool first = i == 0, last = i == n - 1;
    uint8_t op;
    if (write) op = n == 1 ? (imm ? 0x0B : 0x0A) : first ? 0x06 : last ? (imm ? 0x09 : 0x08) : 0x07;
    else op = n == 1 ? (imm ? 0x05 : 0x04) : first ? 0x00 : last ? (imm ? 0x03 : 0x02) : 0x01;
    p.h.opcode = op; p.h.dest_qp = qpn; p.h.psn = (psn + i) & 0xFFFFFF; p.h.ack_req = last;
    if (write && first) { p.h.va = va; p.h.rkey = rkey; p.h.dma_len = data.size(); }
    if (last && imm) p.h.imm = immv;
    size_t o = i * mtu, l = std::min<size_t>(mtu, data.size() - std::min(o, data.size()));
    p.pl.assign(data.begin() + o, data.begin() + o + l);
    p.h.payload_len = l;
    v.push_back(p);
  }
  return v;
}

// READ response packets of a READ of len bytes (AETH syndrome 0x1F + msn on FIRST/LAST/ONLY).
static std::vector<Pkt> seg_rr(uint32_t qpn, uint32_t psn, const std::vector<uint8_t>& data, unsigned mtu,
                               uint32_t msn) {
  std::vector<Pkt> v;
  size_t n = std::max<size_t>(1, (data.size() + mtu - 1) / mtu);
  for (size_t i = 0; i < n; i++) {
    Pkt p;
    bool first = i == 0, last = i == n - 1;
    p.h.opcode = n == 1 ? 0x10 : first ? 0x0D : last ? 0x0F : 0x0E;
    p.h.dest_qp = qpn; p.h.psn = (psn + i) & 0xFFFFFF;
    if (first || last) { p.h.syndrome = 0x1F; p.h.msn = msn; }
    size_t o = i * mtu, l = std::min<size_t>(mtu, data.size() - std::min(o, data.size()));
    p.pl.assign(data.begin() + o, data.begin() + o + l);
    p.h.payload_len = l;
    v.push_back(p);
  }
  return v;
}

static std::string fmt_ack(const Ack& a) {
  char b[96]; snprintf(b, sizeof b, "{qpn %u psn %06x syn %02x msn %u}", a.qpn, a.psn, a.syn, a.msn); return b;
}
static bool acks_eq(const std::vector<Ack>& g, const std::vector<Ack>& e, std::string& why) {
  if (g.size() != e.size()) {
    why = "ack count " + std::to_string(g.size()) + " != " + std::to_string(e.size()) + ":";
    for (auto& a : g) why += " " + fmt_ack(a);
  }
  for (size_t i = 0; i < std::min(g.size(), e.size()); i++)
    if (g[i].qpn != e[i].qpn || g[i].psn != e[i].psn || g[i].syn != e[i].syn || g[i].msn != e[i].msn) {
      why += " ack[" + std::to_string(i) + "] " + fmt_ack(g[i]) + " != " + fmt_ack(e[i]);
      return false;
    }
  return g.size() == e.size();
}
static bool mem_eq(Tb& t, std::string& why) {
  for (size_t i = 0; i < MEM; i++)
    if (t.slave.mem[i] != t.exp[i]) {
      char b[96]; snprintf(b, sizeof b, "mem[0x%zx] = %02x, expected %02x", i, t.slave.mem[i], t.exp[i]);
      why = b; return false;
    }
  return true;
}

int main(int argc, char** argv) {
  waves_setup(argc, argv);
  uint64_t seed = 1;
  bool bench = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
    else if (!strcmp(argv[i], "--bench")) bench = true;
  }
  printf("INFO seed %llu data width %u\n", (unsigned long long)seed, TB_DW);
  Tb t(seed);
  const uint32_t PD = 5;
  // MR 1: remote target, 24 pages mapped in reverse order with gaps, iova not page aligned
  Mr w{1, 0x11, PD, A_LW | A_RW | A_RR | A_RA, 0, 0x123, 0x700000000123ull, 24 * 4096 - 0x123, {}};
  for (int i = 0; i < 24; i++) w.pages.push_back(0x100000 + uint64_t(23 - i) * 0x2000);
  // MR 2: receive buffers (LOCAL_WRITE only)
  Mr rb{2, 0x22, PD, A_LW, 100, 0, 0x500000000000ull, 16 * 4096, {}};
  for (int i = 0; i < 16; i++) rb.pages.push_back(0x400000 + uint64_t(15 - i) * 0x1000);
  Mr ro = w; ro.idx = 3; ro.variant = 0x33; ro.access = A_RR;   // no REMOTE_WRITE
  Mr wp = w; wp.idx = 4; wp.variant = 0x44; wp.pdn = PD + 1;    // other PD
  t.add_mr(w); t.add_mr(rb); t.add_mr(ro); t.add_mr(wp);
  auto exp_write = [&](const Mr& m, uint64_t va, const std::vector<uint8_t>& d) {
    for (size_t i = 0; i < d.size(); i++) t.exp[m.xlate(va + i)] = d[i];
  };
  const uint32_t QP = 1;
  std::string why;

  // ---- 1. WRITE placement at MTU 256/1024/4096 -------------------------------------------------
  {
    const unsigned sizes[] = {0, 1, 63, 64, 4095, 4096, 4097, 65536};
    for (unsigned mtu_log2 : {8u, 10u, 12u}) {
      unsigned mtu = 1u << mtu_log2;
      uint32_t psn = mtu_log2 == 10 ? 0xFFFFF0 : uint32_t(t.rng() & 0xFFFFFF), msn = 0;
      t.qpt_write(QP, psn, mtu_log2, A_RW | A_RR | A_RA, PD, 0, 12);
      t.clear_out();
      std::vector<Ack> ea;
      for (unsigned sz : sizes) {
        uint64_t off = t.rng() % (w.len - sz + 1);
        auto d = t.rand_bytes(sz);
        auto pk = seg(true, QP, psn, w.iova + off, w.key(), d, mtu);
        for (auto& p : pk) t.send_pkt(p);
        psn = (psn + pk.size()) & 0xFFFFFF;
        ea.push_back({QP, (psn - 1) & 0xFFFFFF, 0x1F, ++msn});
        exp_write(w, w.iova + off, d);
      }
      t.run_idle();
      bool ok = acks_eq(t.acks, ea, why);
      R.check(ok, ("write-acks-mtu" + std::to_string(mtu)).c_str(), "%s", why.c_str());
      why.clear();
      R.check(mem_eq(t, why), ("write-placement-mtu" + std::to_string(mtu)).c_str(), "%s", why.c_str());
      why.clear();
      R.check(t.evts.empty(), ("write-no-events-mtu" + std::to_string(mtu)).c_str());
    }
    R.check(t.slave.violations == 0, "axi-protocol-after-writes", "%s", t.slave.first_violation.c_str());
  }
  // ---- 1b. ACK coalescing: every 3 packets without AckReq, plus the last -----------------------
  {
    uint32_t psn = 0x1000;
    t.qpt_write(QP, psn, 8, A_RW, PD, 3, 12);
    t.clear_out();
    auto d = t.rand_bytes(10 * 256);
    auto pk = seg(true, QP, psn, w.iova, w.key(), d, 256);
    for (auto& p : pk) t.send_pkt(p);
    exp_write(w, w.iova, d);
    t.run_idle();
    std::vector<Ack> ea = {{QP, psn + 2, 0x1F, 0}, {QP, psn + 5, 0x1F, 0}, {QP, psn + 8, 0x1F, 0}, {QP, psn + 9, 0x1F, 1}};
    R.check(acks_eq(t.acks, ea, why), "ack-coalesce-3", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "ack-coalesce-placement", "%s", why.c_str()); why.clear();
  }
  // ---- 2. remote access errors: NAK 0x62, RESP_ERROR, nothing written, rest dropped ------------
  {
    struct Case { const char* name; uint32_t key; uint64_t va; uint32_t len; unsigned qp_access; };
    const Case cs[] = {
      {"bad-rkey-variant", (1u << 8) | 0x12, w.iova, 3 * 256, A_RW},
      {"bad-rkey-index", (9u << 8) | 0x11, w.iova, 3 * 256, A_RW},
      {"out-of-bounds", w.key(), w.iova + w.len - 600, 3 * 256, A_RW},
      {"no-remote-write-right", ro.key(), w.iova, 3 * 256, A_RW},
      {"wrong-pd", wp.key(), w.iova, 3 * 256, A_RW},
      {"qp-no-remote-write", w.key(), w.iova, 3 * 256, A_RR},
    };
    for (const Case& c : cs) {
      uint32_t psn = 0x200;
      t.qpt_write(QP, psn, 8, c.qp_access, PD, 0, 12);
      t.clear_out();
      uint32_t acc0 = t.cnt(C_ACCESS), uns0 = t.cnt(C_UNSUP);
      auto pk = seg(true, QP, psn, c.va, c.key, t.rand_bytes(c.len), 256);
      for (auto& p : pk) t.send_pkt(p);
      t.run_idle();
      bool ok = acks_eq(t.acks, {{QP, psn, 0x62, 0}}, why);
      ok = ok && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR && t.evts[0].status == WC_REM_ACCESS_ERR &&
           t.evts[0].psn == psn;
      ok = ok && t.cnt(C_ACCESS) == acc0 + 1 && t.cnt(C_UNSUP) == uns0 + 2;
      R.check(ok, (std::string("nak-access-") + c.name).c_str(), "%s evts %zu", why.c_str(), t.evts.size()); why.clear();
      R.check(mem_eq(t, why), (std::string("nak-access-nothing-written-") + c.name).c_str(), "%s", why.c_str()); why.clear();
    }
  }
  // ---- 3. PSN rules -----------------------------------------------------------------------------
  {
    uint32_t E = 0x777;
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.clear_out();
    auto d1 = t.rand_bytes(100);
    auto p1 = seg(true, QP, E, w.iova + 50, w.key(), d1, 256);
    t.send_pkt(p1[0]);
    exp_write(w, w.iova + 50, d1);
    t.run_idle();
    // duplicate with other data: re-ACK (PSN = ePSN - 1), not placed
    uint32_t dup0 = t.cnt(C_DUP);
    auto p1b = seg(true, QP, E, w.iova + 50, w.key(), t.rand_bytes(100), 256);
    t.send_pkt(p1b[0]);
    // an older duplicate (MIDDLE opcode, PSN E-5)
    Pkt old = p1b[0]; old.h.opcode = 0x07; old.h.psn = E - 5; old.pl.assign(256, 0xEE); old.h.payload_len = 256;
    t.send_pkt(old);
    t.run_idle();
    bool ok = acks_eq(t.acks, {{QP, E, 0x1F, 1}, {QP, E, 0x1F, 1}, {QP, E, 0x1F, 1}}, why);
    R.check(ok && t.cnt(C_DUP) == dup0 + 2, "psn-duplicate-reack", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "psn-duplicate-not-placed", "%s", why.c_str()); why.clear();
    // ahead: one NAK-sequence with ePSN, then silence until ePSN arrives
    t.clear_out();
    uint32_t ooo0 = t.cnt(C_OOO);
    auto d2 = t.rand_bytes(200), d3 = t.rand_bytes(250);
    auto pa = seg(true, QP, E + 3, w.iova + 1000, w.key(), t.rand_bytes(64), 256);
    auto pb = seg(true, QP, E + 4, w.iova + 1000, w.key(), t.rand_bytes(64), 256);
    auto pc = seg(true, QP, E + 1, w.iova + 2000, w.key(), d2, 256);
    auto pd = seg(true, QP, E + 2, w.iova + 3000, w.key(), d3, 256);
    t.send_pkt(pa[0]); t.send_pkt(pb[0]); t.send_pkt(pc[0]); t.send_pkt(pd[0]);
    exp_write(w, w.iova + 2000, d2); exp_write(w, w.iova + 3000, d3);
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E + 1, 0x60, 1}, {QP, E + 1, 0x1F, 2}, {QP, E + 2, 0x1F, 3}}, why);
    R.check(ok && t.cnt(C_OOO) == ooo0 + 2, "psn-ahead-one-nak-then-resume", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "psn-ahead-not-placed", "%s", why.c_str()); why.clear();
    // second gap after resuming gets its own NAK
    t.clear_out();
    auto pe = seg(true, QP, E + 5, w.iova, w.key(), t.rand_bytes(8), 256);
    t.send_pkt(pe[0]);
    t.run_idle();
    R.check(acks_eq(t.acks, {{QP, E + 3, 0x60, 3}}, why), "psn-ahead-new-gap-naks-again", "%s", why.c_str()); why.clear();
    // opcode sequence error: MIDDLE without FIRST -> NAK invalid request
    t.clear_out();
    Pkt mid = old; mid.h.psn = E + 3; mid.h.payload_len = 256; mid.pl.assign(256, 1);
    t.send_pkt(mid);
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E + 3, 0x61, 3}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
         t.evts[0].status == WC_REM_INV_REQ_ERR;
    R.check(ok, "opcode-sequence-nak-invalid-request", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "opcode-sequence-not-placed", "%s", why.c_str()); why.clear();
    // length error: WRITE ONLY payload != RETH length
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.clear_out();
    auto pl = seg(true, QP, E, w.iova, w.key(), t.rand_bytes(40), 256);
    pl[0].h.dma_len = 30;
    t.send_pkt(pl[0]);
    t.run_idle();
    R.check(acks_eq(t.acks, {{QP, E, 0x61, 0}}, why) && mem_eq(t, why), "write-length-mismatch-nak", "%s", why.c_str()); why.clear();
  }
  // ---- 4. SEND / SEND_IMM / WRITE_IMM into posted buffers, RNR --------------------------------
  {
    uint32_t E = 0x10, msn = 0;
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    t.clear_out();
    struct SCase { const char* name; std::vector<uint32_t> sl; unsigned len; bool imm; };
    const SCase sc[] = {{"send-1sge-3pkt", {5000}, 3000, false},
                        {"send-imm-3sge", {100, 2000, 700}, 2800, true},
                        {"send-2sge-zero", {64, 64}, 0, false},
                        {"send-2sge-exact", {1500, 548}, 2048, true},
                        {"send-3sge-small", {1, 2, 3000}, 777, false},
                        {"send-4sge-exact", {1000, 24, 1000, 2048}, 4072, false},
                        {"send-imm-4sge-short", {300, 1, 2500, 900}, 3000, true},
                        {"send-4sge-into-last", {5, 1100, 7, 4000}, 1500, false}};
    uint64_t wr = 0x1000;
    for (const SCase& c : sc) {
      t.clear_out();
      std::vector<Tb::Sge> sg;
      uint64_t o = t.rng() % 8192;
      for (uint32_t l : c.sl) { sg.push_back({rb.iova + o, l, rb.key()}); o += l + (t.rng() % 300); }
      t.post_rq(QP, ++wr, sg);
      auto d = t.rand_bytes(c.len);
      auto pk = seg(false, QP, E, 0, 0, d, 1024, c.imm, 0xCAFE0000u + c.len);
      for (auto& p : pk) t.send_pkt(p);
      E += pk.size();
      size_t k = 0;
      for (auto& s : sg) for (uint32_t i = 0; i < s.len && k < d.size(); i++) t.exp[rb.xlate(s.addr + i)] = d[k++];
      t.run_idle();
      bool ok = acks_eq(t.acks, {{QP, E - 1, 0x1F, ++msn}}, why) && t.evts.size() == 1;
      if (ok) {
        const Evt& e = t.evts[0];
        ok = e.kind == EV_RECV_DONE && e.wr_id == wr && e.byte_len == c.len && e.qpn == QP && e.psn == E - 1 &&
             e.flags == (c.imm ? 1u : 0u) && e.imm == (c.imm ? 0xCAFE0000u + c.len : 0u);
        if (!ok) why = "event fields";
      }
      R.check(ok, c.name, "%s", why.c_str()); why.clear();
      R.check(mem_eq(t, why), (std::string(c.name) + "-placement").c_str(), "%s", why.c_str()); why.clear();
    }
    // RNR: nothing posted -> RNR NAK with the first PSN, RNR_SENT, rest silently dropped
    t.clear_out();
    uint32_t rnr0 = t.cnt(C_RNR);
    auto d = t.rand_bytes(2500);
    auto pk = seg(false, QP, E, 0, 0, d, 1024);
    for (auto& p : pk) t.send_pkt(p);
    t.run_idle();
    bool ok = acks_eq(t.acks, {{QP, E, 0x20 | 12, msn}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RNR_SENT &&
              t.evts[0].psn == E && t.cnt(C_RNR) == rnr0 + 1;
    R.check(ok, "rnr-nak-when-nothing-posted", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "rnr-nothing-written", "%s", why.c_str()); why.clear();
    // retry after a post succeeds with the same PSNs
    t.clear_out();
    t.post_rq(QP, 0xABC, {{rb.iova + 0x3000, 4096, rb.key()}});
    for (auto& p : pk) t.send_pkt(p);
    for (size_t i = 0; i < d.size(); i++) t.exp[rb.xlate(rb.iova + 0x3000 + i)] = d[i];
    E += pk.size();
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E - 1, 0x1F, ++msn}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RECV_DONE &&
         t.evts[0].wr_id == 0xABC && t.evts[0].byte_len == 2500;
    R.check(ok && mem_eq(t, why), "rnr-retry-after-post", "%s", why.c_str()); why.clear();
    // message longer than the buffer -> NAK invalid request, RESP_ERROR LOC_LEN_ERR
    t.clear_out();
    t.post_rq(QP, 0xBAD, {{rb.iova, 100, rb.key()}});
    auto pl = seg(false, QP, E, 0, 0, t.rand_bytes(200), 1024);
    t.send_pkt(pl[0]);
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E, 0x61, msn}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
         t.evts[0].status == WC_LOC_LEN_ERR && t.evts[0].wr_id == 0xBAD;
    R.check(ok && mem_eq(t, why), "send-too-long-loc-len-err", "%s", why.c_str()); why.clear();
    // a continuing packet one byte past the buffer (bytes placed + payload = size + 1, the
    // compare's boundary): FIRST placed, MIDDLE NAKed invalid request with LOC_LEN_ERR and the
    // byte count so far, LAST dropped (QP in error); the exact fit is send-2sge-exact above
    E = 0x40; msn = 0;
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    t.clear_out();
    {
      uint32_t acc0 = t.cnt(C_ACCESS), uns0 = t.cnt(C_UNSUP);
      t.post_rq(QP, 0xB1C, {{rb.iova + 0x100, 2047, rb.key()}});
      auto d3 = t.rand_bytes(2500);
      auto p3 = seg(false, QP, E, 0, 0, d3, 1024);
      for (auto& p : p3) t.send_pkt(p);
      for (size_t i = 0; i < 1024; i++) t.exp[rb.xlate(rb.iova + 0x100 + i)] = d3[i];
      t.run_idle();
      ok = acks_eq(t.acks, {{QP, E + 1, 0x61, msn}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
           t.evts[0].status == WC_LOC_LEN_ERR && t.evts[0].wr_id == 0xB1C && t.evts[0].byte_len == 2048 &&
           t.evts[0].psn == E + 1 && t.cnt(C_ACCESS) == acc0 + 1 && t.cnt(C_UNSUP) == uns0 + 1;
      R.check(ok && mem_eq(t, why), "send-middle-one-past-buffer-loc-len-err", "%s", why.c_str()); why.clear();
    }
    // A SEND past its buffer is decided after the other checks (xport_rx: c_slb): every earlier
    // verdict wins over LOC_LEN_ERR (ahead, duplicate, out of sequence, no buffer, QP in error, not
    // an RC QP); the LOC_LEN_ERR itself leaves the QP's state as it was, in error.
    {
      const uint32_t Q = 9, Q2 = 10, Q3 = 11;
      uint32_t e = 0x70;
      auto only = [&](uint32_t qpn, uint32_t psn, uint8_t op, size_t n) {
        Pkt p; p.h.opcode = op; p.h.dest_qp = qpn; p.h.psn = psn & 0xFFFFFF; p.h.ack_req = true;
        p.pl = t.rand_bytes(n); p.h.payload_len = uint16_t(n);
        t.send_pkt(p); t.run_idle();
      };
      uint32_t ooo0 = t.cnt(C_OOO), dup0 = t.cnt(C_DUP), acc0 = t.cnt(C_ACCESS), uns0 = t.cnt(C_UNSUP), rnr0 = t.cnt(C_RNR);
      t.qpt_write(Q3, e, 8, A_RW, PD, 0, 12);
      t.clear_out();
      only(Q3, e, 0x04, 200);   // no buffer posted: RNR NAK
      ok = acks_eq(t.acks, {{Q3, e, 0x20 | 12, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RNR_SENT &&
           t.cnt(C_RNR) == rnr0 + 1 && t.cnt(C_ACCESS) == acc0;
      R.check(ok, "send-past-buffer-no-buffer-rnr", "%s", why.c_str()); why.clear();
      t.qpt_write(Q, e, 8, A_RW, PD, 0, 12);
      t.post_rq(Q, 0xC01, {{rb.iova + 0x7000, 100, rb.key()}});
      t.clear_out();
      only(Q, e + 3, 0x04, 200);   // ahead: NAK PSN sequence error at the expected PSN
      only(Q, e - 1, 0x04, 200);   // duplicate: ACK of the last PSN
      ok = acks_eq(t.acks, {{Q, e, 0x60, 0}, {Q, e - 1, 0x1F, 0}}, why) && t.evts.empty() &&
           t.cnt(C_OOO) == ooo0 + 1 && t.cnt(C_DUP) == dup0 + 1 && t.cnt(C_ACCESS) == acc0;
      R.check(ok, "send-past-buffer-ahead-dup-no-len-err", "%s", why.c_str()); why.clear();
      t.clear_out();
      only(Q, e, 0x02, 200);       // SEND LAST with no message in progress: invalid request
      ok = acks_eq(t.acks, {{Q, e, 0x61, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
           t.evts[0].status == WC_REM_INV_REQ_ERR && t.evts[0].wr_id == 0 && t.cnt(C_ACCESS) == acc0 + 1;
      R.check(ok, "send-past-buffer-out-of-sequence-inv-req", "%s", why.c_str()); why.clear();
      t.clear_out();
      only(Q, e, 0x04, 200);       // the QP is in error: dropped, counted, no answer
      ok = t.acks.empty() && t.evts.empty() && t.cnt(C_UNSUP) == uns0 + 1 && t.cnt(C_ACCESS) == acc0 + 1;
      R.check(ok && mem_eq(t, why), "send-past-buffer-qp-in-error-dropped", "%s", why.c_str()); why.clear();
      // LOC_LEN_ERR: the state stays (expected PSN, MSN), in error: the same PSN is dropped next
      t.qpt_write(Q, e, 8, A_RW, PD, 0, 12);
      t.post_rq(Q, 0xC02, {{rb.iova + 0x7000, 100, rb.key()}});
      t.clear_out();
      only(Q, e, 0x04, 101);
      only(Q, e, 0x04, 50);
      ok = acks_eq(t.acks, {{Q, e, 0x61, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
           t.evts[0].status == WC_LOC_LEN_ERR && t.evts[0].wr_id == 0xC02 && t.evts[0].byte_len == 101 &&
           t.evts[0].psn == e && t.evts[0].msn == 0 && t.cnt(C_ACCESS) == acc0 + 2 && t.cnt(C_UNSUP) == uns0 + 2;
      R.check(ok && mem_eq(t, why), "send-past-buffer-loc-len-err-state-kept", "%s", why.c_str()); why.clear();
      // not an RC QP (UD; an RC SEND with a buffer too small): unsupported, no answer
      t.qpt_write(Q2, e, 8, A_RW, PD, 0, 12, true, RNIC_QP_TYPE_UD);
      t.post_rq(Q2, 0xC03, {{rb.iova + 0x7000, 100, rb.key()}});
      t.clear_out();
      only(Q2, e, 0x04, 200);
      ok = t.acks.empty() && t.evts.empty() && t.cnt(C_UNSUP) == uns0 + 3 && t.cnt(C_ACCESS) == acc0 + 2;
      R.check(ok && mem_eq(t, why), "send-past-buffer-ud-qp-unsupported", "%s", why.c_str()); why.clear();
    }
    // bad lkey -> NAK remote operational error, LOC_PROT_ERR
    E = 0x50; msn = 0;
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    t.clear_out();
    t.post_rq(QP, 0xB0B, {{rb.iova, 4096, (2u << 8) | 0x23}});
    pl = seg(false, QP, E, 0, 0, t.rand_bytes(200), 1024);
    t.send_pkt(pl[0]);
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E, 0x63, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
         t.evts[0].status == WC_LOC_PROT_ERR && t.evts[0].wr_id == 0xB0B;
    R.check(ok && mem_eq(t, why), "send-bad-lkey-nak", "%s", why.c_str()); why.clear();
    // bad lkey in the fourth SGE: SGEs 0-2 are filled, then NAK 0x63 / LOC_PROT_ERR
    E = 0x60; msn = 0;
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    t.clear_out();
    {
      std::vector<Tb::Sge> sg = {{rb.iova + 0x5003, 100, rb.key()}, {rb.iova + 0x5801, 200, rb.key()},
                                 {rb.iova + 0x5F80, 300, rb.key()}, {rb.iova + 0x6400, 1000, (2u << 8) | 0x23}};
      t.post_rq(QP, 0xB0C, sg);
      auto dd = t.rand_bytes(1000);
      pl = seg(false, QP, E, 0, 0, dd, 1024);
      t.send_pkt(pl[0]);
      size_t k = 0;
      for (size_t j = 0; j < 3; j++)
        for (uint32_t i = 0; i < sg[j].len; i++) t.exp[rb.xlate(sg[j].addr + i)] = dd[k++];
      t.run_idle();
      ok = acks_eq(t.acks, {{QP, E, 0x63, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
           t.evts[0].status == WC_LOC_PROT_ERR && t.evts[0].wr_id == 0xB0C;
      R.check(ok && mem_eq(t, why), "send-4sge-bad-lkey-in-sge3-nak", "%s", why.c_str()); why.clear();
    }
    // WRITE_IMM: ONLY and multi-packet, consumes the posted buffer (no data into it)
    E = 0x90; msn = 0;
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    for (unsigned len : {300u, 3000u}) {
      t.clear_out();
      t.post_rq(QP, 0x5000 + len, {{rb.iova, 64, rb.key()}});
      auto dd = t.rand_bytes(len);
      auto pw = seg(true, QP, E, w.iova + 7, w.key(), dd, 1024, true, 0x12345678);
      for (auto& p : pw) t.send_pkt(p);
      E += pw.size();
      exp_write(w, w.iova + 7, dd);
      t.run_idle();
      ok = acks_eq(t.acks, {{QP, E - 1, 0x1F, ++msn}}, why) && t.evts.size() == 1 &&
           t.evts[0].kind == EV_WRITE_IMM_DONE && t.evts[0].wr_id == 0x5000 + len && t.evts[0].byte_len == len &&
           t.evts[0].imm == 0x12345678 && t.evts[0].flags == 1;
      R.check(ok && mem_eq(t, why), ("write-imm-" + std::to_string(len)).c_str(), "%s", why.c_str()); why.clear();
    }
    // WRITE_IMM ONLY with nothing posted -> RNR, nothing written
    t.clear_out();
    auto pw = seg(true, QP, E, w.iova, w.key(), t.rand_bytes(64), 1024, true, 1);
    t.send_pkt(pw[0]);
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E, 0x20 | 12, msn}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RNR_SENT;
    R.check(ok && mem_eq(t, why), "write-imm-rnr", "%s", why.c_str()); why.clear();
    // two buffers posted ahead: two SENDs back to back land in them in posting order, the third
    // finds the ring empty (RNR)
    t.clear_out();
    t.post_rq(QP, 0x6001, {{rb.iova + 0x100, 2000, rb.key()}});
    t.post_rq(QP, 0x6002, {{rb.iova + 0x1000, 2000, rb.key()}});
    auto d1 = t.rand_bytes(1500), d2 = t.rand_bytes(1800);
    auto s1 = seg(false, QP, E, 0, 0, d1, 1024), s2 = seg(false, QP, E + 2, 0, 0, d2, 1024);
    for (auto& p : s1) t.send_pkt(p);
    for (auto& p : s2) t.send_pkt(p);
    auto s3 = seg(false, QP, E + 4, 0, 0, t.rand_bytes(10), 1024);
    t.send_pkt(s3[0]);
    for (size_t i = 0; i < d1.size(); i++) t.exp[rb.xlate(rb.iova + 0x100 + i)] = d1[i];
    for (size_t i = 0; i < d2.size(); i++) t.exp[rb.xlate(rb.iova + 0x1000 + i)] = d2[i];
    t.run_idle();
    ok = acks_eq(t.acks, {{QP, E + 1, 0x1F, msn + 1}, {QP, E + 3, 0x1F, msn + 2}, {QP, E + 4, 0x20 | 12, msn + 2}}, why) &&
         t.evts.size() == 3 && t.evts[0].kind == EV_RECV_DONE && t.evts[0].wr_id == 0x6001 && t.evts[0].byte_len == 1500 &&
         t.evts[1].kind == EV_RECV_DONE && t.evts[1].wr_id == 0x6002 && t.evts[1].byte_len == 1800 &&
         t.evts[2].kind == EV_RNR_SENT;
    ok = ok && mem_eq(t, why);
    R.check(ok, "send-two-buffers-ahead-in-order", "%s evts %zu", why.c_str(), t.evts.size());
    why.clear();
    E += 4; msn += 2;
  }
  // ---- 4a. entry rewritten with keep_state (a modify of a live QP): new access mask and RNR
  // timer apply at once; expected PSN, MSN and the posted receive buffer are kept -------------
  {
    uint32_t E = 0x5000;
    t.stops.clear();
    t.qpt_write(QP, E, 10, A_RW, PD, 0, 12);
    R.check(t.stops.size() == 1 && t.stops[0] == QP, "qpt-stop-on-init-write", "stops %zu", t.stops.size());
    t.stops.clear();
    t.clear_out();
    auto d1 = t.rand_bytes(300);
    auto p1 = seg(true, QP, E, w.iova + 0x100, w.key(), d1, 1024);
    t.send_pkt(p1[0]);
    exp_write(w, w.iova + 0x100, d1);
    t.post_rq(QP, 0x4A, {{rb.iova + 0x1000, 1024, rb.key()}});
    t.run_idle();
    // the rewrite: REMOTE_READ only, RNR timer 5, and an epsn the keep must ignore
    t.qpt_cmd_bits = 1u << (RNIC_QPT_CMD_KEEP_STATE_OFF * 8 + 7);
    t.qpt_write(QP, 0x123, 10, A_RR, PD, 0, 5);
    t.qpt_cmd_bits = 0;
    // a kept, still receiving QP keeps its atomics in the transmit engine: no stop
    R.check(t.stops.empty(), "qpt-no-stop-on-keep-state-write", "stops %zu", t.stops.size());
    auto d2 = t.rand_bytes(700);
    auto p2 = seg(false, QP, E + 1, 0, 0, d2, 1024);
    t.send_pkt(p2[0]);
    for (size_t i = 0; i < d2.size(); i++) t.exp[rb.xlate(rb.iova + 0x1000 + i)] = d2[i];
    auto p3 = seg(false, QP, E + 2, 0, 0, t.rand_bytes(64), 1024);  // no buffer left: RNR, code 5
    t.send_pkt(p3[0]);
    auto p4 = seg(true, QP, E + 2, w.iova + 0x800, w.key(), t.rand_bytes(64), 1024);  // no REMOTE_WRITE now
    t.send_pkt(p4[0]);
    t.run_idle();
    bool ok = acks_eq(t.acks, {{QP, E, 0x1F, 1}, {QP, E + 1, 0x1F, 2}, {QP, E + 2, 0x20 | 5, 2}, {QP, E + 2, 0x62, 2}}, why);
    ok = ok && t.evts.size() == 3 && t.evts[0].kind == EV_RECV_DONE && t.evts[0].wr_id == 0x4A &&
         t.evts[0].byte_len == 700 && t.evts[1].kind == EV_RNR_SENT && t.evts[2].kind == EV_RESP_ERROR &&
         t.evts[2].status == WC_REM_ACCESS_ERR;
    R.check(ok, "qpt-keep-state-psn-msn-buffer-kept-new-access-and-rnr", "%s evts %zu", why.c_str(), t.evts.size());
    why.clear();
    R.check(mem_eq(t, why), "qpt-keep-state-placement", "%s", why.c_str()); why.clear();
  }
  // ---- 4b. UD receive: Q_Key, GRH area + payload into the posted buffer, RECV_DONE ------------------
  {
    const uint32_t UQ = 5, QK = 0x11111111;
    t.qpt_write(UQ, 0, 12, 0, PD, 0, 12, true, 4, QK);
    // the buffer's first SGE is shorter than the GRH area: the area itself is split
    auto ud_pkt = [&](uint8_t op, uint32_t qkey, const std::vector<uint8_t>& d) {
      Pkt p; p.h.opcode = op; p.h.dest_qp = UQ; p.h.psn = 0x77; p.h.qkey = qkey; p.h.src_qp = 0x1234;
      p.h.imm = op == 0x65 ? 0xA0B0C0D0 : 0; p.h.payload_len = d.size(); p.pl = d;
      return p;
    };
    auto grh = [&](size_t plen, bool imm) {  // what the tb's header fields make of the GRH area
      std::vector<uint8_t> g(40, 0);
      uint8_t* ip = &g[20];
      unsigned len = 20 + 8 + 12 + 8 + (imm ? 4 : 0) + plen + (4 - plen % 4) % 4 + 4;
      ip[0] = 0x45; ip[2] = uint8_t(len >> 8); ip[3] = uint8_t(len); ip[6] = 0x40; ip[8] = 64; ip[9] = 17;
      const uint8_t sd[8] = {0xC0, 0xA8, 0x01, 0x01, 0xC0, 0xA8, 0x01, 0x02};
      std::memcpy(ip + 12, sd, 8);
      uint16_t cs = roce_ref::ip_checksum(ip);
      ip[10] = uint8_t(cs >> 8); ip[11] = uint8_t(cs);
      return g;
    };
    uint32_t ud0 = t.cnt(C_UD), un0 = t.cnt(C_UNSUP);
    for (unsigned len : {1000u, 1u, 4096u}) {
      t.clear_out();
      uint64_t a0 = rb.iova + 0x2000 + 7, a1 = rb.iova + 0x3000 + 5;
      t.post_rq(UQ, 0x7700 + len, {{a0, 30, rb.key()}, {a1, 4200, rb.key()}});
      auto d = t.rand_bytes(len);
      t.send_pkt(ud_pkt(len == 1 ? 0x64 : 0x65, QK, d));
      std::vector<uint8_t> all = grh(len, len != 1);
      all.insert(all.end(), d.begin(), d.end());
      for (size_t i = 0; i < all.size(); i++) t.exp[rb.xlate(i < 30 ? a0 + i : a1 + i - 30)] = all[i];
      t.run_idle();
      bool ok = t.evts.size() == 1 && t.acks.empty() && t.evts[0].kind == EV_RECV_DONE && t.evts[0].status == WC_SUCCESS &&
                t.evts[0].wr_id == 0x7700 + len && t.evts[0].byte_len == len + 40 && t.evts[0].src == 0x1234 &&
                t.evts[0].flags == (len == 1 ? 2u : 3u) && t.evts[0].imm == (len == 1 ? 0u : 0xA0B0C0D0u) &&
                t.evts[0].qpn == UQ;
      ok = ok && mem_eq(t, why);
      R.check(ok, ("ud-recv-grh-and-payload-" + std::to_string(len)).c_str(), "%s evts %zu", why.c_str(), t.evts.size());
      why.clear();
    }
    // wrong Q_Key, then no buffer: dropped silently and counted; a buffer too small: LOC_LEN_ERR
    t.clear_out();
    t.post_rq(UQ, 0x7800, {{rb.iova + 0x2000, 1000, rb.key()}});
    t.send_pkt(ud_pkt(0x64, QK + 1, t.rand_bytes(100)));
    t.run_idle();
    bool ok = t.evts.empty() && t.acks.empty() && t.cnt(C_UD) == ud0 + 1 && mem_eq(t, why);
    R.check(ok, "ud-wrong-qkey-dropped", "%s", why.c_str()); why.clear();
    t.send_pkt(ud_pkt(0x64, QK, t.rand_bytes(2000)));   // the buffer posted above is 1000 bytes
    t.run_idle();
    ok = t.evts.size() == 1 && t.evts[0].kind == EV_RECV_DONE && t.evts[0].status == WC_LOC_LEN_ERR &&
         t.evts[0].wr_id == 0x7800 && t.acks.empty() && mem_eq(t, why);
    R.check(ok, "ud-buffer-too-small-loc-len-err", "%s", why.c_str()); why.clear();
    t.clear_out();
    t.send_pkt(ud_pkt(0x64, QK, t.rand_bytes(10)));
    t.run_idle();
    ok = t.evts.empty() && t.acks.empty() && t.cnt(C_UD) == ud0 + 2 && mem_eq(t, why);
    R.check(ok, "ud-no-buffer-dropped", "%s", why.c_str()); why.clear();
    // a bad L_Key in the buffer: LOC_PROT_ERR completion, no NAK, the QP goes on
    t.post_rq(UQ, 0x7900, {{rb.iova, 1000, (2u << 8) | 0x23}});
    t.send_pkt(ud_pkt(0x64, QK, t.rand_bytes(10)));
    t.run_idle();
    ok = t.evts.size() == 1 && t.evts[0].status == WC_LOC_PROT_ERR && t.evts[0].wr_id == 0x7900 && t.acks.empty() &&
         mem_eq(t, why);
    R.check(ok, "ud-bad-lkey-loc-prot-err", "%s", why.c_str()); why.clear();
    // an RC opcode on the UD QP and a UD opcode on an RC QP: not this QP's type
    t.clear_out();
    Pkt rcs = ud_pkt(0x04, 0, t.rand_bytes(8));
    t.send_pkt(rcs);
    Pkt udrc = ud_pkt(0x64, QK, t.rand_bytes(8)); udrc.h.dest_qp = QP;
    t.send_pkt(udrc);
    t.run_idle();
    ok = t.evts.empty() && t.acks.empty() && t.cnt(C_UNSUP) == un0 + 2 && mem_eq(t, why);
    R.check(ok, "ud-and-rc-opcodes-kept-apart", "%s", why.c_str()); why.clear();
  }
  // ---- 5. requester side: ACK / NAK / RNR NAK / ATOMIC ACK -> events ----------------------------
  {
    t.qpt_write(QP, 0, 10, 0, PD, 0, 12);
    t.clear_out();
    struct A { uint8_t op, syn; uint32_t psn, msn; uint64_t orig; uint32_t kind; };
    const A as[] = {{0x11, 0x1F, 0x123456, 77, 0, EV_ACK}, {0x11, 0x60, 0x10, 3, 0, EV_NAK},
                    {0x11, 0x2C, 0x11, 4, 0, EV_RNR_NAK}, {0x11, 0x62, 0x12, 5, 0, EV_NAK},
                    {0x12, 0x00, 0x13, 6, 0x1122334455667788ull, EV_ATOMIC_ACK}};
    for (const A& a : as) {
      Pkt p; p.h.opcode = a.op; p.h.dest_qp = QP; p.h.psn = a.psn; p.h.syndrome = a.syn; p.h.msn = a.msn; p.h.orig = a.orig;
      t.send_pkt(p);
    }
    t.run_idle();
    bool ok = t.evts.size() == 5 && t.acks.empty();
    for (size_t i = 0; ok && i < 5; i++) {
      const Evt& e = t.evts[i];
      ok = e.kind == as[i].kind && e.syn == as[i].syn && e.psn == as[i].psn && e.msn == as[i].msn &&
           e.qpn == QP && e.swap_add == as[i].orig;
    }
    R.check(ok, "requester-ack-nak-events", "%zu events", t.evts.size());
  }
  // ---- 6. READ request -> read-response job; atomics -> ATOMIC_REQ -----------------------------
  {
    uint32_t E = 0xFFFFFE;
    t.qpt_write(QP, E, 12, A_RW | A_RR | A_RA, PD, 0, 12);
    t.clear_out();
    Pkt r; r.h.opcode = 0x0C; r.h.dest_qp = QP; r.h.psn = E; r.h.va = w.iova + 5; r.h.rkey = w.key(); r.h.dma_len = 10000;
    t.send_pkt(r);
    auto d = t.rand_bytes(10);
    auto pw = seg(true, QP, (E + 3) & 0xFFFFFF, w.iova + 99, w.key(), d, 4096);
    t.send_pkt(pw[0]);
    exp_write(w, w.iova + 99, d);
    Pkt r0 = r; r0.h.psn = (E + 4) & 0xFFFFFF; r0.h.dma_len = 0;
    t.send_pkt(r0);
    Pkt rdup = r;  // duplicate READ: executed again
    t.send_pkt(rdup);
    t.run_idle();
    bool ok = t.rds.size() == 3 && t.rds[0].psn == E && t.rds[0].va == w.iova + 5 && t.rds[0].rkey == w.key() &&
              t.rds[0].len == 10000 && t.rds[0].qpn == QP && t.rds[0].msn == 1 && t.rds[1].psn == ((E + 4) & 0xFFFFFF) &&
              t.rds[1].len == 0 && t.rds[1].msn == 3 && t.rds[2].psn == E;
    R.check(ok, "read-request-jobs", "%zu jobs", t.rds.size());
    R.check(acks_eq(t.acks, {{QP, (E + 3) & 0xFFFFFF, 0x1F, 2}}, why) && mem_eq(t, why), "read-psn-reservation", "%s", why.c_str());
    why.clear();
    // atomics
    t.clear_out();
    uint32_t P = (E + 5) & 0xFFFFFF;
    Pkt a; a.h.opcode = 0x14; a.h.dest_qp = QP; a.h.psn = P; a.h.va = w.iova + 0x1005; a.h.rkey = w.key();
    a.h.swap_add = 42; a.h.compare = 7;
    uint64_t va_al = (w.iova + 0x1005 + 7) & ~7ull; a.h.va = va_al;
    t.send_pkt(a);
    Pkt a2 = a; a2.h.opcode = 0x13; a2.h.psn = (P + 1) & 0xFFFFFF; a2.h.va = va_al + 3;  // misaligned
    t.send_pkt(a2);
    t.run_idle();
    ok = t.evts.size() == 2 && t.evts[0].kind == EV_ATOMIC_REQ && t.evts[0].va == w.xlate(va_al) &&
         t.evts[0].swap_add == 42 && t.evts[0].compare == 7 && t.evts[0].op == 0x14 && t.evts[0].psn == P &&
         t.evts[1].kind == EV_RESP_ERROR && t.evts[1].status == WC_REM_INV_REQ_ERR;
    R.check(ok, "atomic-request-event", "%zu events", t.evts.size());
    R.check(acks_eq(t.acks, {{QP, (P + 1) & 0xFFFFFF, 0x61, 4}}, why), "atomic-misaligned-nak", "%s", why.c_str()); why.clear();
    // the atomic for the firmware: one marker job at its PSN (the transmit engine keeps later
    // responses of the QP behind the firmware's answer), taken before its event; none for the
    // misaligned one (NAKed)
    ok = t.marks.size() == 1 && t.marks[0].qpn == QP && t.marks[0].psn == P && t.marks[0].evts_before == 0;
    R.check(ok, "atomic-marker-before-event", "%zu markers, psn %u, events before %zu", t.marks.size(),
            t.marks.empty() ? 0u : t.marks[0].psn, t.marks.empty() ? (size_t)0 : t.marks[0].evts_before);
    // duplicate atomic (after a QP rewrite with ePSN past it): handed to the firmware, no execution
    t.qpt_write(QP, (P + 10) & 0xFFFFFF, 12, A_RW | A_RR | A_RA, PD, 0, 12);
    t.clear_out();
    t.send_pkt(a);
    t.run_idle();
    ok = t.evts.size() == 1 && t.evts[0].kind == EV_ATOMIC_REQ && t.evts[0].psn == P && t.evts[0].va == va_al &&
         t.acks.empty() && t.marks.size() == 1 && t.marks[0].psn == P && t.marks[0].evts_before == 0;
    R.check(ok, "atomic-duplicate-to-firmware", "%zu events", t.evts.size());
    // a READ failing its R_Key check (key variant, bounds, MR without REMOTE_READ, other PD):
    // NAK 0x62 and RESP_ERROR at its PSN, no READ job, ePSN kept, the QP in error (the WRITE
    // behind it is dropped, not placed)
    struct RC { const char* name; uint64_t va; uint32_t key, len; };
    const RC rcs[] = {{"read-check-bad-rkey-variant", w.iova + 5, w.key() ^ 1, 100},
                      {"read-check-out-of-bounds", w.iova + w.len - 50, w.key(), 100},
                      {"read-check-mr-no-remote-read", rb.iova, rb.key(), 100},
                      {"read-check-mr-other-pd", w.iova, wp.key(), 4096}};
    for (const RC& c : rcs) {
      const uint32_t E2 = 0x7FFFFF;
      t.qpt_write(QP, E2, 12, A_RW | A_RR | A_RA, PD, 0, 12);
      t.clear_out();
      uint32_t acc0 = t.cnt(C_ACCESS), un0 = t.cnt(C_UNSUP);
      Pkt rq; rq.h.opcode = 0x0C; rq.h.dest_qp = QP; rq.h.psn = E2; rq.h.va = c.va; rq.h.rkey = c.key; rq.h.dma_len = c.len;
      t.send_pkt(rq);
      t.send_pkt(seg(true, QP, (E2 + 1) & 0xFFFFFF, w.iova + 0x40, w.key(), t.rand_bytes(32), 4096)[0]);
      t.run_idle();
      ok = t.rds.empty() && acks_eq(t.acks, {{QP, E2, 0x62, 0}}, why) && t.evts.size() == 1 &&
           t.evts[0].kind == EV_RESP_ERROR && t.evts[0].status == WC_REM_ACCESS_ERR && t.evts[0].psn == E2 &&
           t.cnt(C_ACCESS) == acc0 + 1 && t.cnt(C_UNSUP) == un0 + 1;
      R.check(ok && mem_eq(t, why), c.name, "%s jobs %zu evts %zu", why.c_str(), t.rds.size(), t.evts.size());
      why.clear();
    }
    // a zero-length READ is not checked (IBTA): its job goes out, ePSN + 1
    {
      t.qpt_write(QP, 0x100, 12, A_RW | A_RR | A_RA, PD, 0, 12);
      t.clear_out();
      Pkt rq; rq.h.opcode = 0x0C; rq.h.dest_qp = QP; rq.h.psn = 0x100; rq.h.va = 0; rq.h.rkey = 0xDEAD; rq.h.dma_len = 0;
      t.send_pkt(rq);
      auto d0 = t.rand_bytes(16);
      t.send_pkt(seg(true, QP, 0x101, w.iova + 0x40, w.key(), d0, 4096)[0]);
      exp_write(w, w.iova + 0x40, d0);
      t.run_idle();
      ok = t.rds.size() == 1 && t.rds[0].len == 0 && t.rds[0].psn == 0x100 && t.evts.empty() &&
           acks_eq(t.acks, {{QP, 0x101, 0x1F, 2}}, why);
      R.check(ok && mem_eq(t, why), "read-zero-length-not-checked", "%s", why.c_str()); why.clear();
    }
  }
  // ---- 6b. responder resources (max_dest_rd_atomic 2; docs/conformance.md row 22) -------------
  // rsc_cnt_i stands for the transmit engine's count of the QP's unsent READ responses and atomic
  // answers. Below the limit a new READ is a job (new); a duplicate READ is executed again
  // whatever the count (not new: the transmit engine does not count it); a new READ or atomic at
  // the limit is NAKed invalid request (0x61) with RESP_ERROR, no job, no marker
  {
    uint32_t E = 0x200;
    t.rd_res = 2;
    t.qpt_write(QP, E, 12, A_RW | A_RR | A_RA, PD, 0, 12);
    t.rd_res = 16;
    t.clear_out();
    Pkt r; r.h.opcode = 0x0C; r.h.dest_qp = QP; r.h.psn = E; r.h.va = w.iova + 5; r.h.rkey = w.key(); r.h.dma_len = 100;
    t.top->rsc_cnt_i = 1;
    t.send_pkt(r);
    t.run_idle();
    t.top->rsc_cnt_i = 2;
    t.send_pkt(r);  // the duplicate
    t.run_idle();
    bool ok = t.rds.size() == 2 && t.rds[0].psn == E && t.rds[0].fresh && t.rds[1].psn == E && !t.rds[1].fresh &&
              t.acks.empty() && t.evts.empty();
    R.check(ok, "rd-resources-below-limit-and-duplicate-executed", "%zu jobs (%d %d new), %zu acks, %zu events",
            t.rds.size(), t.rds.size() > 0 && t.rds[0].fresh, t.rds.size() > 1 && t.rds[1].fresh, t.acks.size(),
            t.evts.size());
    bool rsc_q = t.top->rsc_qpn_o == QP;
    t.clear_out();
    Pkt r2 = r; r2.h.psn = E + 1;
    t.send_pkt(r2);
    t.run_idle();
    ok = t.rds.empty() && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR && t.evts[0].status == WC_REM_INV_REQ_ERR;
    R.check(ok && acks_eq(t.acks, {{QP, E + 1, 0x61, 1}}, why) && rsc_q, "rd-resources-exceeded-read-nak-invalid-request",
            "%zu jobs, %zu events, rsc_qpn %u, %s", t.rds.size(), t.evts.size(), unsigned(t.top->rsc_qpn_o), why.c_str());
    why.clear();
    // an atomic at the limit (QP written again: the NAK put it in error)
    t.rd_res = 1;
    t.qpt_write(QP, E + 10, 12, A_RW | A_RR | A_RA, PD, 0, 12);
    t.rd_res = 16;
    t.clear_out();
    t.top->rsc_cnt_i = 1;
    Pkt a; a.h.opcode = 0x14; a.h.dest_qp = QP; a.h.psn = E + 10; a.h.va = (w.iova + 0x1000 + 7) & ~7ull; a.h.rkey = w.key();
    a.h.swap_add = 1;
    t.send_pkt(a);
    t.run_idle();
    ok = t.marks.empty() && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR && t.evts[0].status == WC_REM_INV_REQ_ERR;
    R.check(ok && acks_eq(t.acks, {{QP, E + 10, 0x61, 0}}, why), "rd-resources-exceeded-atomic-nak-invalid-request",
            "%zu markers, %zu events, %s", t.marks.size(), t.evts.size(), why.c_str());
    why.clear();
    t.top->rsc_cnt_i = 0;
  }
  // ---- 7. DMA error -> NAK remote operational error ---------------------------------------------
  {
    uint32_t E = 0x300;
    t.qpt_write(QP, E, 12, A_RW, PD, 0, 12);
    t.clear_out();
    uint64_t va = w.iova + 0x2000;
    uint64_t pg = w.xlate(va) >> 12;
    t.slave.err_pages[pg] = 2;
    auto pw = seg(true, QP, E, va, w.key(), t.rand_bytes(100), 4096);
    t.send_pkt(pw[0]);
    t.run_idle();
    t.slave.err_pages.clear();
    bool ok = acks_eq(t.acks, {{QP, E, 0x63, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR &&
              t.evts[0].status == WC_REM_OP_ERR;
    R.check(ok && mem_eq(t, why), "dma-error-nak-remote-op", "%s", why.c_str()); why.clear();
    // the error hits the FIRST packet (not waited for): detected at the LAST (same QP)
    uint64_t va1 = w.iova - w.fpo + 0x3F00;  // FIRST in page 3, MIDDLE and LAST in page 4
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.clear_out();
    t.slave.err_pages[w.xlate(va1) >> 12] = 3;
    auto d = t.rand_bytes(768);
    pw = seg(true, QP, E, va1, w.key(), d, 256);
    for (auto& p : pw) t.send_pkt(p);
    exp_write(w, va1 + 256, std::vector<uint8_t>(d.begin() + 256, d.end()));
    t.run_idle();
    t.slave.err_pages.clear();
    ok = acks_eq(t.acks, {{QP, E + 2, 0x63, 0}}, why) && t.evts.size() == 1 && t.evts[0].status == WC_REM_OP_ERR;
    R.check(ok && mem_eq(t, why), "dma-error-detected-at-message-end", "%s", why.c_str()); why.clear();
    // the error hits a FIRST packet of QP 1, then a packet of QP 2 arrives: QP 1 is NAKed first
    const uint32_t Q2 = 2;
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.qpt_write(Q2, 0x55, 8, A_RW, PD, 0, 12);
    t.clear_out();
    uint32_t uns0 = t.cnt(C_UNSUP);
    t.slave.err_pages[w.xlate(va1) >> 12] = 2;
    pw = seg(true, QP, E, va1, w.key(), d, 256);
    auto d2 = t.rand_bytes(64);
    auto p2 = seg(true, Q2, 0x55, w.iova + 0x8000, w.key(), d2, 256);
    exp_write(w, w.iova + 0x8000, d2);
    t.send_pkt(pw[0]); t.send_pkt(p2[0]); t.send_pkt(pw[1]); t.send_pkt(pw[2]);
    t.run_idle();
    t.slave.err_pages.clear();
    ok = acks_eq(t.acks, {{QP, E, 0x63, 0}, {Q2, 0x55, 0x1F, 1}}, why) && t.evts.size() == 1 &&
         t.evts[0].status == WC_REM_OP_ERR && t.evts[0].qpn == QP && t.evts[0].psn == E && t.cnt(C_UNSUP) == uns0 + 2;
    R.check(ok && mem_eq(t, why), "dma-error-reported-before-other-qp", "%s", why.c_str()); why.clear();
    // ... and with nothing following, the error is reported from idle
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.clear_out();
    t.slave.err_pages[w.xlate(va1) >> 12] = 2;
    t.send_pkt(pw[0]);
    t.run_idle();
    t.slave.err_pages.clear();
    ok = acks_eq(t.acks, {{QP, E, 0x63, 0}}, why) && t.evts.size() == 1 && t.evts[0].kind == EV_RESP_ERROR;
    R.check(ok && mem_eq(t, why), "dma-error-reported-when-idle", "%s", why.c_str()); why.clear();
    // a FIRST without error and nothing after it: no output, data placed, the engine settles
    t.qpt_write(QP, E, 8, A_RW, PD, 0, 12);
    t.clear_out();
    t.send_pkt(pw[0]);
    exp_write(w, va1, std::vector<uint8_t>(d.begin(), d.begin() + 256));
    t.run_idle();
    R.check(t.acks.empty() && t.evts.empty() && mem_eq(t, why), "write-first-alone-no-output", "%s", why.c_str()); why.clear();
  }
  // ---- 8. invalid QPs, tx read port -------------------------------------------------------------
  {
    t.clear_out();
    uint32_t b0 = t.cnt(C_BADQP);
    for (uint32_t q : {7u, 1000u, 0xFFFFFFu}) {
      auto pw = seg(true, q, 0, w.iova, w.key(), t.rand_bytes(300), 256);
      for (auto& p : pw) t.send_pkt(p);
    }
    t.qpt_write(9, 0, 8, A_RW, PD, 0, 0, false);  // written but not valid
    auto pw = seg(true, 9, 0, w.iova, w.key(), t.rand_bytes(10), 256);
    t.send_pkt(pw[0]);
    t.run_idle();
    R.check(t.acks.empty() && t.evts.empty() && t.cnt(C_BADQP) == b0 + 7 && mem_eq(t, why), "invalid-qp-dropped",
            "bad %u %s", t.cnt(C_BADQP) - b0, why.c_str());
    why.clear();
    t.qpt_write(5, 0x4242, 11, A_RR, 77, 0, 0);
    t.top->tx_rd_en_i = 1; t.top->tx_rd_qpn_i = 5;
    t.cycle();
    t.top->tx_rd_en_i = 0;
    t.cycle();
    auto& e = t.top->tx_rd_entry_o;
    bool ok = vlb::get(e, 0, 3) == 7 && vlb::get(e, 16, 8) == 11 && vlb::get(e, 32, 32) == 77 &&
              vlb::get(e, 64, 32) == 0x105 && vlb::get(e, 96, 32) == 0x4242 && vlb::get(e, 320, 16) == 0xC123 &&
              vlb::get(e, 128, 48) == 0x0200000000AAull;
    t.top->tx_rd_en_i = 1; t.top->tx_rd_qpn_i = 100;
    t.cycle();
    t.top->tx_rd_en_i = 0;
    ok = ok && vlb::get(e, 0, 32) == 0;
    R.check(ok, "tx-read-port");
  }
  // ---- 9. random mixed traffic over several QPs (writes and sends, polite and hostile) ---------
  {
    const uint32_t NQ = 4;
    uint32_t epsn[NQ], msn[NQ];
    unsigned mtul[NQ];
    std::vector<Ack> ea;
    std::vector<uint64_t> ewr;
    t.clear_out();
    for (uint32_t q = 0; q < NQ; q++) {
      epsn[q] = uint32_t(t.rng() & 0xFFFFFF); msn[q] = 0; mtul[q] = 8 + t.rng() % 5;
      t.qpt_write(10 + q, epsn[q], mtul[q], A_RW, PD, 0, 12);
    }
    // disjoint windows per QP so the expected image does not depend on the order
    for (int m = 0; m < 60; m++) {
      uint32_t q = t.rng() % NQ, qpn = 10 + q;
      unsigned mtu = 1u << mtul[q];
      if (t.rng() % 3 == 0) {
        uint32_t len = t.rng() % 3000;
        uint64_t base = rb.iova + q * 0x3000 + (t.rng() % 512);
        t.post_rq(qpn, 0x9000 + m, {{base, 1500, rb.key()}, {base + 1600, 1500, rb.key()}});
        t.run_idle();
        auto d = t.rand_bytes(len);
        auto pk = seg(false, qpn, epsn[q], 0, 0, d, mtu);
        for (auto& p : pk) t.send_pkt(p);
        for (size_t i = 0; i < d.size(); i++)
          t.exp[rb.xlate(base + (i < 1500 ? i : i + 100))] = d[i];
        epsn[q] = (epsn[q] + pk.size()) & 0xFFFFFF;
        ea.push_back({qpn, (epsn[q] - 1) & 0xFFFFFF, 0x1F, ++msn[q]});
        ewr.push_back(0x9000 + m);
        t.run_idle();  // one receive buffer per QP
      } else {
        uint32_t len = t.rng() % 9000;
        uint64_t va = w.iova + t.rng() % (w.len - len);  // overlaps are fine: one engine, in order
        auto d = t.rand_bytes(len);
        auto pk = seg(true, qpn, epsn[q], va, w.key(), d, mtu);
        for (auto& p : pk) t.send_pkt(p);
        exp_write(w, va, d);
        epsn[q] = (epsn[q] + pk.size()) & 0xFFFFFF;
        ea.push_back({qpn, (epsn[q] - 1) & 0xFFFFFF, 0x1F, ++msn[q]});
      }
      if (m == 30) t.slave.cfg = AxiSlaveCfg::polite(30);
    }
    t.run_idle();
    t.slave.cfg = AxiSlaveCfg::hostile();
    R.check(acks_eq(t.acks, ea, why), "random-mixed-acks", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "random-mixed-placement", "%s", why.c_str()); why.clear();
    bool ok = true;
    size_t k = 0;
    for (auto& e : t.evts) ok = ok && e.kind == EV_RECV_DONE && k < ewr.size() && e.wr_id == ewr[k++];
    R.check(ok && k == ewr.size(), "random-mixed-recv-events");
    R.check(t.slave.violations == 0, "axi-protocol-final", "%s", t.slave.first_violation.c_str());
  }
  // ---- 10. interleaved multi-packet WRITEs of several QPs (packets of different QPs mixed) ------
  {
    const uint32_t NQ = 4;
    std::vector<std::deque<Pkt>> per(NQ);
    std::vector<Ack> ea;
    t.clear_out();
    for (uint32_t q = 0; q < NQ; q++) {
      uint32_t psn = uint32_t(t.rng() & 0xFFFFFF), msn = 0;
      unsigned ml = 8 + t.rng() % 3;
      t.qpt_write(20 + q, psn, ml, A_RW, PD, t.rng() % 4, 12);
      for (int m = 0; m < 5; m++) {
        uint32_t len = t.rng() % 5000;
        uint64_t va = w.iova + q * 0x5800 + t.rng() % (0x5800 - len);  // disjoint per QP
        auto d = t.rand_bytes(len);
        auto pk = seg(true, 20 + q, psn, va, w.key(), d, 1u << ml);
        for (auto& p : pk) per[q].push_back(p);
        exp_write(w, va, d);
        psn = (psn + pk.size()) & 0xFFFFFF;
        msn++;
      }
    }
    std::vector<uint32_t> last(NQ, 0), lmsn(NQ, 0);
    std::vector<Ack> got_last;
    while (true) {
      std::vector<uint32_t> ne;
      for (uint32_t q = 0; q < NQ; q++) if (!per[q].empty()) ne.push_back(q);
      if (ne.empty()) break;
      uint32_t q = ne[t.rng() % ne.size()];
      t.send_pkt(per[q].front()); per[q].pop_front();
    }
    t.run_idle();
    // per QP: ACK PSNs increase, the last one is the last packet with MSN 5
    bool ok = true;
    for (uint32_t q = 0; q < NQ; q++) {
      int64_t prev = -1; const Ack* la = nullptr;
      for (auto& a : t.acks) if (a.qpn == 20 + q) {
        ok = ok && a.syn == 0x1F && int64_t((a.psn - (prev < 0 ? a.psn : uint32_t(prev))) & 0xFFFFFF) < 0x800000;
        prev = a.psn; la = &a;
      }
      ok = ok && la && la->msn == 5;
    }
    R.check(ok, "interleaved-qps-acks");
    R.check(mem_eq(t, why), "interleaved-qps-placement", "%s", why.c_str()); why.clear();
  }
  // ---- 10b. requester side: READ responses placed through an rd_desc (READ_RESP_DONE) ---------
  {
    const uint32_t QP2 = 2;
    // disjoint SGEs at unaligned addresses in MR w (LOCAL_WRITE), sized to sum to len + extra
    auto mk_sges = [&](uint32_t len, unsigned n, uint32_t extra, uint64_t& cur) {
      std::vector<Tb::Sge> sg;
      uint32_t left = len + extra;
      for (unsigned i = 0; i < n; i++) {
        uint32_t l = i == n - 1 ? left : (left ? uint32_t(t.rng() % (left + 1)) : 0);
        left -= l;
        cur += 1 + t.rng() % 61;
        sg.push_back({cur, l, w.key()});
        cur += l;
      }
      return sg;
    };
    auto exp_sg = [&](const std::vector<Tb::Sge>& sg, const std::vector<uint8_t>& d, size_t n) {
      size_t o = 0;
      for (auto& g : sg)
        for (uint32_t i = 0; i < g.len && o < n; i++, o++) t.exp[w.xlate(g.addr + i)] = d[o];
    };
    auto evt_ok = [&](const Evt& e, uint32_t qpn, uint32_t psn, uint32_t msn, uint32_t bl, uint32_t st) {
      return e.kind == EV_READ_RESP_DONE && e.qpn == qpn && e.psn == psn && e.msn == msn && e.byte_len == bl &&
             e.status == st;
    };
    std::string why2;
    auto evts_str = [&]() {
      std::string r;
      for (auto& e : t.evts) {
        char b[128];
        snprintf(b, sizeof b, " {k %u st %u qpn %u psn %06x msn %u len %u}", e.kind, e.status, e.qpn, e.psn, e.msn, e.byte_len);
        r += b;
      }
      return r;
    };
    const unsigned sizes[] = {0, 1, 63, 4095, 4096, 4097, 65536};
    for (unsigned mtu_log2 : {8u, 10u, 12u}) {
      unsigned mtu = 1u << mtu_log2;
      uint32_t psn = mtu_log2 == 10 ? 0xFFFFF8 : uint32_t(t.rng() & 0xFFFFFF);
      t.qpt_write(QP, 0x10, mtu_log2, A_RW, PD, 0, 12);
      t.clear_out();
      struct E { uint32_t psn, msn, len; };
      std::vector<E> ee;
      bool ok = true;
      unsigned k = 0;
      for (unsigned sz : sizes) {
        uint64_t cur = w.iova + t.rng() % 300;
        auto sg = mk_sges(sz, 1 + k % 4, k % 2 ? 0 : uint32_t(t.rng() % 20), cur);
        auto d = t.rand_bytes(sz);
        auto pk = seg_rr(QP, psn, d, mtu, 0x400 + k);
        t.post_rdd(QP, psn, sz, sg);
        for (auto& p : pk) t.send_pkt(p);
        exp_sg(sg, d, sz);
        psn = (psn + pk.size()) & 0xFFFFFF;
        ee.push_back({(psn - 1) & 0xFFFFFF, 0x400 + k, sz});
        k++;
        t.run_idle();  // the buffers of the reads overlap: one read at a time
        ok = ok && mem_eq(t, why);
      }
      ok = ok && t.evts.size() == ee.size() && t.acks.empty() && t.rds.empty();
      for (size_t i = 0; ok && i < ee.size(); i++) ok = evt_ok(t.evts[i], QP, ee[i].psn, ee[i].msn, ee[i].len, WC_SUCCESS);
      R.check(ok, ("read-resp-placement-mtu" + std::to_string(mtu)).c_str(), "%s evts:%s acks %zu", why.c_str(),
              evts_str().c_str(), t.acks.size());
      why.clear();
    }
    // two reads outstanding on one QP and one on another QP, responses of the QPs interleaved
    {
      t.qpt_write(QP, 0x10, 10, A_RW, PD, 0, 12);
      t.qpt_write(QP2, 0x10, 10, A_RW, PD, 0, 12);
      t.clear_out();
      uint64_t cur = w.iova + 5;
      auto sa = mk_sges(3000, 2, 0, cur), sb = mk_sges(2000, 3, 7, cur), sc = mk_sges(2500, 1, 0, cur);
      auto da = t.rand_bytes(3000), db = t.rand_bytes(2000), dc = t.rand_bytes(2500);
      uint32_t pa = 0x100, pb = 0x103, pc = 0xFFFFFF;
      t.post_rdd(QP, pa, 3000, sa); t.post_rdd(QP, pb, 2000, sb); t.post_rdd(QP2, pc, 2500, sc);
      auto ka = seg_rr(QP, pa, da, 1024, 7), kb = seg_rr(QP, pb, db, 1024, 8), kc = seg_rr(QP2, pc, dc, 1024, 3);
      const Pkt* order[] = {&ka[0], &kc[0], &ka[1], &kc[1], &ka[2], &kb[0], &kc[2], &kb[1]};
      for (auto* p : order) t.send_pkt(*p);
      exp_sg(sa, da, 3000); exp_sg(sb, db, 2000); exp_sg(sc, dc, 2500);
      t.run_idle();
      bool ok = t.evts.size() == 3 && evt_ok(t.evts[0], QP, pa + 2, 7, 3000, 0) && evt_ok(t.evts[1], QP2, 1, 3, 2500, 0) &&
                evt_ok(t.evts[2], QP, pb + 1, 8, 2000, 0) && t.acks.empty();
      R.check(ok && mem_eq(t, why), "read-resp-two-outstanding-two-qps-interleaved", "%s evts:%s", why.c_str(),
              evts_str().c_str());
      why.clear();
    }
    // a lost MIDDLE: the LAST is dropped and counted, no DONE but one READ_GAP naming the missing
    // PSN (not again for later responses, nor after a re-post); re-post + replay completes it
    {
      t.qpt_write(QP, 0x10, 8, A_RW, PD, 0, 12);
      t.clear_out();
      uint64_t cur = w.iova + 0x4000 + 17;
      auto sg = mk_sges(1024, 2, 0, cur);
      auto d = t.rand_bytes(1024);
      uint32_t ps = 0x2000;
      auto pk = seg_rr(QP, ps, d, 256, 11);
      uint32_t c0 = t.cnt(C_RDRSP), u0 = t.cnt(C_UNSUP);
      t.post_rdd(QP, ps, 1024, sg);
      t.send_pkt(pk[0]); t.send_pkt(pk[1]); t.send_pkt(pk[3]);
      Pkt stray = pk[0]; stray.h.psn = 0x7000;  // nobody expects this PSN
      t.send_pkt(stray);
      t.run_idle();
      R.check(t.evts.size() == 1 && t.evts[0].kind == EV_READ_GAP && t.evts[0].psn == ps + 2 && t.evts[0].qpn == QP &&
                  t.acks.empty() && t.cnt(C_RDRSP) == c0 + 2 && t.cnt(C_UNSUP) == u0,
              "read-resp-lost-middle-dropped-counted-one-gap-event", "evts:%s cnt %u", evts_str().c_str(), t.cnt(C_RDRSP) - c0);
      t.evts.clear();
      // replay without re-post: the duplicates of placed PSNs are dropped too
      t.send_pkt(pk[0]);
      t.run_idle();
      R.check(t.evts.empty() && t.cnt(C_RDRSP) == c0 + 3, "read-resp-duplicate-dropped");
      t.post_rdd(QP, ps, 1024, sg);  // the firmware resends the READ
      t.send_pkt(pk[3]);              // the old stream's tail, still ahead: no second report
      t.run_idle();
      R.check(t.evts.empty(), "read-gap-not-reported-again-after-repost", "evts:%s", evts_str().c_str());
      for (auto& p : pk) t.send_pkt(p);
      exp_sg(sg, d, 1024);
      t.run_idle();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, ps + 3, 11, 1024, 0);
      R.check(ok && mem_eq(t, why), "read-resp-repost-replay-completes", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // a lost MIDDLE, then a resumed retry: the query tells where the READ stands, the retry's
    // responses restart there with FIRST (and ONLY for a one-packet rest) and complete it; or
    // (replay) they go on with the original message's MIDDLE/LAST, as Linux rxe answers a
    // duplicate READ (docs/interop.md), and complete it too
    for (int variant = 0; variant < 4; variant++) {
      const int rest_pkts = variant % 2 ? 1 : 2;
      const bool replay = variant >= 2;
      t.qpt_write(QP, 0x10, 8, A_RW, PD, 0, 12);
      t.clear_out();
      uint64_t cur = w.iova + 0x5000 + 29;
      auto sg = mk_sges(1100, 2, 0, cur);
      auto d = t.rand_bytes(1100);  // 5 packets at MTU 256: 256 * 4 + 76
      uint32_t ps = 0x2800;
      auto pk = seg_rr(QP, ps, d, 256, 31);
      t.post_rdd(QP, ps, 1100, sg);
      unsigned got = 5 - rest_pkts;  // responses placed before the loss
      for (unsigned i = 0; i < got; i++) t.send_pkt(pk[i]);
      t.run_idle();
      int64_t q0 = t.rdq(QP, ps), qn = t.rdq(QP, ps + 1), qo = t.rdq(QP2, ps);
      R.check(q0 == int64_t(ps + got) && qn == -1 && qo == -1, ((replay ? "read-progress-query-r" : "read-progress-query-") + std::to_string(got)).c_str(),
              "got %lld / %lld / %lld", (long long)q0, (long long)qn, (long long)qo);
      // the responder re-executes the READ from PSN ps + got: the rest of the data, new opcodes
      std::vector<uint8_t> rest(d.begin() + 256 * got, d.end());
      auto rk = replay ? std::vector<Pkt>(pk.begin() + got, pk.end()) : seg_rr(QP, ps + got, rest, 256, 32);
      t.post_rdd(QP, ps, 1100, sg, ps + got);
      R.check(t.rdq(QP, ps) == int64_t(ps + got), ((replay ? "read-resume-post-r" : "read-resume-post-") + std::to_string(got)).c_str());
      for (auto& p : rk) t.send_pkt(p);
      exp_sg(sg, d, 1100);
      t.run_idle();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, ps + 4, replay ? 31 : 32, 1100, 0) && t.rdq(QP, ps) == -1;
      R.check(ok && mem_eq(t, why),
              ((replay ? "read-resume-replay-completes-" : "read-resume-completes-") + std::to_string(rest_pkts) + "-left").c_str(),
              "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // bad lkey in the second SGE: LOC_PROT_ERR, what was placed before stays, nothing after
    {
      t.clear_out();
      uint64_t cur = w.iova + 0x6000 + 3;
      auto sg = mk_sges(600, 2, 0, cur);
      sg[0].len = 300; sg[1].len = 300; sg[1].lkey = (9u << 8) | 0x11;
      auto d = t.rand_bytes(600);
      auto pk = seg_rr(QP, 0x3000, d, 256, 12);
      t.post_rdd(QP, 0x3000, 600, sg);
      for (auto& p : pk) t.send_pkt(p);
      exp_sg({sg[0]}, d, 300);
      t.run_idle();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, 0x3002, 12, 300, WC_LOC_PROT_ERR) && t.acks.empty();
      R.check(ok && mem_eq(t, why), "read-resp-bad-lkey-loc-prot-err", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // four SGEs, each used, longer than the READ (the last one partly filled), MTU 256; then a
    // bad lkey in the fourth: SGEs 0-2 filled, LOC_PROT_ERR, nothing after
    {
      for (bool bad : {false, true}) {
        t.clear_out();
        uint64_t b = w.iova + 0xB000 + (bad ? 0x3000 : 0);
        std::vector<Tb::Sge> sg = {{b + 3, 1000, w.key()}, {b + 0x801, 1500, w.key()}, {b + 0xE3F, 37, w.key()},
                                   {b + 0x1201, 2563, bad ? (9u << 8) | 0x11 : w.key()}};
        auto d = t.rand_bytes(5000);
        auto pk = seg_rr(QP, 0x3080, d, 256, 14);
        t.post_rdd(QP, 0x3080, 5000, sg);
        for (auto& p : pk) t.send_pkt(p);
        if (bad) exp_sg({sg[0], sg[1], sg[2]}, d, 2537);
        else exp_sg(sg, d, 5000);
        t.run_idle();
        bool ok = t.evts.size() == 1 && t.acks.empty() &&
                  evt_ok(t.evts[0], QP, 0x3093, 14, bad ? 2537 : 5000, bad ? WC_LOC_PROT_ERR : WC_SUCCESS);
        R.check(ok && mem_eq(t, why), bad ? "read-resp-4sge-bad-lkey-in-sge3-loc-prot-err" : "read-resp-4sge-shorter-than-sges",
                "%s evts:%s", why.c_str(), evts_str().c_str());
        why.clear();
      }
    }
    // SGEs shorter than the READ: LOC_LEN_ERR, the SGEs filled, the rest dropped
    {
      t.clear_out();
      uint64_t cur = w.iova + 0x7000 + 9;
      auto sg = mk_sges(700, 2, 0, cur);
      auto d = t.rand_bytes(1000);
      auto pk = seg_rr(QP, 0x3100, d, 256, 13);
      t.post_rdd(QP, 0x3100, 1000, sg);
      for (auto& p : pk) t.send_pkt(p);
      exp_sg(sg, d, 700);
      t.run_idle();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, 0x3103, 13, 700, WC_LOC_LEN_ERR);
      R.check(ok && mem_eq(t, why), "read-resp-sges-short-loc-len-err", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // DMA error while placing: GENERAL_ERR, no NAK
    {
      t.clear_out();
      uint64_t va = w.iova + 0x9000 + 40;
      t.slave.err_pages[w.xlate(va) >> 12] = 2;
      auto d = t.rand_bytes(100);
      t.post_rdd(QP, 0x3200, 100, {{va, 100, w.key()}});
      t.send_pkt(seg_rr(QP, 0x3200, d, 256, 14)[0]);
      t.run_idle();
      t.slave.err_pages.clear();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, 0x3200, 14, 100, WC_GENERAL_ERR) && t.acks.empty();
      R.check(ok && mem_eq(t, why), "read-resp-dma-error-general-err", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // the responses of one READ do not wait for each other's writes: a failed write of the FIRST
    // is found at the LAST (GENERAL_ERR), nothing else is reported
    {
      t.clear_out();
      uint64_t va = w.iova + 0x9000 + 40;
      t.slave.err_pages[w.xlate(va) >> 12] = 2;
      auto d = t.rand_bytes(700);
      t.post_rdd(QP, 0x3300, 700, {{va, 700, w.key()}});
      for (auto& p : seg_rr(QP, 0x3300, d, 256, 15)) t.send_pkt(p);
      t.run_idle();
      t.slave.err_pages.clear();
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, 0x3302, 15, 700, WC_GENERAL_ERR) && t.acks.empty();
      R.check(ok && mem_eq(t, why), "read-resp-pending-dma-error-at-last", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // ... and when a packet of another QP comes between, the failed writes are settled first and
    // charged to the READ (its DONE says GENERAL_ERR), not to the other QP's WRITE (ACKed)
    {
      t.qpt_write(QP2, 0x40, 10, A_RW, PD, 0, 12);
      t.clear_out();
      uint64_t va = w.iova + 0x9000 + 40, wva = w.iova + 0xB000 + 5;
      t.slave.err_pages[w.xlate(va) >> 12] = 2;
      auto d = t.rand_bytes(700), wd = t.rand_bytes(300);
      auto pk = seg_rr(QP, 0x3400, d, 256, 16);
      t.post_rdd(QP, 0x3400, 700, {{va, 700, w.key()}});
      t.send_pkt(pk[0]); t.send_pkt(pk[1]);
      t.send_pkt(seg(true, QP2, 0x40, wva, w.key(), wd, 1024)[0]);
      t.run_idle();
      t.slave.err_pages.clear();
      t.send_pkt(pk[2]);
      t.run_idle();
      exp_write(w, wva, wd);
      // (the LAST is not placed: a READ that has failed places nothing more)
      bool ok = t.evts.size() == 1 && evt_ok(t.evts[0], QP, 0x3402, 16, 512, WC_GENERAL_ERR);
      R.check(ok && acks_eq(t.acks, {{QP2, 0x40, 0x1F, 1}}, why) && mem_eq(t, why),
              "read-resp-pending-dma-error-settled-before-other-qp", "%s evts:%s", why.c_str(), evts_str().c_str());
      why.clear();
    }
    // a full table holds the firmware back; a completion frees a context; a QP-table write frees its QP's
    {
      t.clear_out();
      for (uint32_t i = 0; i < 16; i++) t.post_rdd(QP, 0x5000 + i, 0, {});
      t.set_rdd(QP2, 0x6000, 0, {});
      t.top->rdd_valid_i = 1;
      bool held = true;
      for (int i = 0; i < 50; i++) { t.cycle(); held = held && !t.fire_rdd; }
      // re-posting an outstanding one (same qpn/first_psn) replaces it even when full
      t.set_rdd(QP, 0x5003, 0, {});
      bool rep = false;
      for (int i = 0; i < 50 && !rep; i++) { t.cycle(); rep = t.fire_rdd; }
      t.set_rdd(QP2, 0x6000, 0, {});
      t.send_pkt(seg_rr(QP, 0x5007, {}, 256, 1)[0]);
      bool got = false;
      for (int i = 0; i < 2000 && !got; i++) { t.cycle(); got = t.fire_rdd; }
      t.top->rdd_valid_i = 0;
      t.run_idle();
      R.check(held && rep && got && t.evts.size() == 1, "read-desc-full-backpressure", "held %d rep %d got %d evts %zu",
              held, rep, got, t.evts.size());
      t.qpt_write(QP, 0x10, 8, A_RW, PD, 0, 12);  // frees the 15 contexts of QP
      unsigned n = 0;
      for (uint32_t i = 0; i < 15; i++) {
        t.set_rdd(QP2, 0x7000 + i, 0, {});
        t.top->rdd_valid_i = 1;
        for (int c = 0; c < 20; c++) { t.cycle(); if (t.fire_rdd) { n++; break; } }
      }
      t.top->rdd_valid_i = 0;
      t.qpt_write(QP2, 0x10, 8, A_RW, PD, 0, 12);
      R.check(n == 15, "read-desc-freed-by-qp-write", "%u of 15 accepted", n);
    }
    // ATOMIC ACKNOWLEDGE of an atomic's context: the original value (little-endian) through the
    // SGEs, then ATOMIC_ACK with the status; the context is freed
    {
      const uint64_t orig = 0x8877665544332211ull;
      auto le = [](uint64_t v) {
        std::vector<uint8_t> b(8);
        for (int i = 0; i < 8; i++) b[i] = uint8_t(v >> (8 * i));
        return b;
      };
      auto aack = [&](uint32_t psn, uint64_t o, uint32_t msn) {
        Pkt p; p.h.opcode = 0x12; p.h.dest_qp = QP; p.h.psn = psn; p.h.syndrome = 0; p.h.msn = msn; p.h.orig = o;
        t.send_pkt(p);
      };
      auto aevt_ok = [&](const Evt& e, uint32_t psn, uint64_t o, uint32_t msn, uint32_t st, uint32_t bl) {
        return e.kind == EV_ATOMIC_ACK && e.qpn == QP && e.psn == psn && e.msn == msn && e.swap_add == o &&
               e.status == st && e.byte_len == bl;
      };
      t.qpt_write(QP, 0x10, 10, A_RW, PD, 0, 12);
      struct AC { const char* name; std::vector<Tb::Sge> sg; uint32_t st, placed; };
      const uint64_t pg = w.iova - w.fpo + 0x5000;  // a page boundary of MR w
      const AC acs[] = {
          {"atomic-ack-value-placed", {{w.iova + 0x4808, 8, w.key()}}, WC_SUCCESS, 8},
          {"atomic-ack-value-across-page", {{pg - 3, 8, w.key()}}, WC_SUCCESS, 8},
          {"atomic-ack-value-sge-longer", {{w.iova + 0x4901, 64, w.key()}}, WC_SUCCESS, 8},
          {"atomic-ack-value-two-sges", {{w.iova + 0x4A00 + 5, 3, w.key()}, {w.iova + 0x4B00 + 1, 5, w.key()}},
           WC_SUCCESS, 8},
          {"atomic-ack-bad-lkey-loc-prot-err", {{w.iova + 0x4C00, 8, (9u << 8) | 0x11}}, WC_LOC_PROT_ERR, 0},
          {"atomic-ack-mr-no-local-write-loc-prot-err", {{w.iova + 0x4C00, 8, ro.key()}}, WC_LOC_PROT_ERR, 0},
          {"atomic-ack-sge-short-loc-len-err", {{w.iova + 0x4D00, 5, w.key()}}, WC_LOC_LEN_ERR, 5},
      };
      uint32_t psn = 0xFFFFFE;
      for (const AC& c : acs) {
        t.clear_out();
        uint64_t o = orig ^ (uint64_t(psn) << 20);
        t.post_rdd(QP, psn, 8, c.sg, -1, true);
        aack(psn, o, 3);
        exp_sg(c.sg, le(o), c.placed);
        t.run_idle();
        bool ok = t.evts.size() == 1 && aevt_ok(t.evts[0], psn, o, 3, c.st, c.placed) && t.acks.empty() &&
                  t.rdq(QP, psn) < 0;
        R.check(ok && mem_eq(t, why), c.name, "%s evts:%s", why.c_str(), evts_str().c_str()); why.clear();
        psn = (psn + 1) & 0xFFFFFF;
      }
      // no context: a duplicate (the context is gone), a PSN without an rd_desc, a READ's
      // context at that PSN (not an atomic's: kept): the event only, nothing written
      {
        t.clear_out();
        uint32_t p0 = (psn - 1) & 0xFFFFFF, rd0 = t.cnt(C_RDRSP);
        std::vector<Tb::Sge> sg = {{w.iova + 0x4E00, 8, w.key()}};
        t.post_rdd(QP, 0x2222, 8, sg);                    // a READ's context
        aack(p0, 1, 4); aack(0x1111, 2, 5); aack(0x2222, 3, 6);
        t.run_idle();
        bool ok = t.evts.size() == 3 && aevt_ok(t.evts[0], p0, 1, 4, WC_SUCCESS, 0) &&
                  aevt_ok(t.evts[1], 0x1111, 2, 5, WC_SUCCESS, 0) && aevt_ok(t.evts[2], 0x2222, 3, 6, WC_SUCCESS, 0) &&
                  t.rdq(QP, 0x2222) == 0x2222 && t.cnt(C_RDRSP) == rd0;
        R.check(ok && mem_eq(t, why), "atomic-ack-no-context-event-only", "%s evts:%s", why.c_str(),
                evts_str().c_str());
        why.clear();
        // and a READ response at an atomic's context PSN is not taken by it (it is beyond the
        // READ at 0x2222, whose response it shows lost: one READ_GAP for that one)
        t.clear_out();
        t.post_rdd(QP, 0x3333, 8, sg, -1, true);
        t.send_pkt(seg_rr(QP, 0x3333, t.rand_bytes(8), 1024, 7)[0]);
        t.run_idle();
        ok = t.evts.size() == 1 && t.evts[0].kind == EV_READ_GAP && t.evts[0].psn == 0x2222 &&
             t.cnt(C_RDRSP) == rd0 + 1 && t.rdq(QP, 0x3333) == 0x3333;
        R.check(ok && mem_eq(t, why), "atomic-context-not-matched-by-read-response", "%s", why.c_str()); why.clear();
      }
      // a retransmission re-posts the context (new SGE replaces the old); the value goes to the new one
      {
        t.clear_out();
        std::vector<Tb::Sge> s1 = {{w.iova + 0x5100, 8, w.key()}}, s2 = {{w.iova + 0x5200 + 3, 8, w.key()}};
        t.post_rdd(QP, 0x4444, 8, s1, -1, true);
        t.post_rdd(QP, 0x4444, 8, s2, -1, true);
        aack(0x4444, orig, 8);
        exp_sg(s2, le(orig), 8);
        t.run_idle();
        bool ok = t.evts.size() == 1 && aevt_ok(t.evts[0], 0x4444, orig, 8, WC_SUCCESS, 8);
        R.check(ok && mem_eq(t, why), "atomic-ack-reposted-context", "%s evts:%s", why.c_str(), evts_str().c_str());
        why.clear();
      }
      // DMA error while writing the value: GENERAL_ERR
      {
        t.clear_out();
        uint64_t va = w.iova + 0x9000 + 80;
        t.slave.err_pages[w.xlate(va) >> 12] = 2;
        t.post_rdd(QP, 0x5555, 8, {{va, 8, w.key()}}, -1, true);
        aack(0x5555, orig, 9);
        t.run_idle();
        t.slave.err_pages.clear();
        bool ok = t.evts.size() == 1 && aevt_ok(t.evts[0], 0x5555, orig, 9, WC_GENERAL_ERR, 8) && t.acks.empty();
        R.check(ok && mem_eq(t, why), "atomic-ack-dma-error-general-err", "%s evts:%s", why.c_str(),
                evts_str().c_str());
        why.clear();
      }
      t.qpt_write(QP, 0x10, 8, A_RW, PD, 0, 12);  // frees the contexts left
    }
  }
  // ---- 11. the same traffic as frames through a real roce_rx (integration of the two blocks) ----
  {
    t.parser = true;
    uint32_t psn = 0xFFFFF8, msn = 0;
    t.qpt_write(QP, psn, 10, A_RW | A_RR, PD, 0, 12);
    t.clear_out();
    std::vector<Ack> ea;
    for (unsigned sz : {0u, 1u, 63u, 1024u, 4097u, 9000u}) {
      uint64_t off = t.rng() % (w.len - sz + 1);
      auto d = t.rand_bytes(sz);
      auto pk = seg(true, QP, psn, w.iova + off, w.key(), d, 1024);
      for (auto& p : pk) t.send_pkt(p);
      psn = (psn + pk.size()) & 0xFFFFFF;
      ea.push_back({QP, (psn - 1) & 0xFFFFFF, 0x1F, ++msn});
      exp_write(w, w.iova + off, d);
    }
    t.run_idle();
    R.check(acks_eq(t.acks, ea, why), "parser-write-acks", "%s", why.c_str()); why.clear();
    R.check(mem_eq(t, why), "parser-write-placement", "%s", why.c_str()); why.clear();
    // SEND with immediate into 2 SGEs, an ACK packet and a READ request
    t.clear_out();
    t.post_rq(QP, 0x77, {{rb.iova + 5, 1000, rb.key()}, {rb.iova + 3000, 2000, rb.key()}});
    auto d = t.rand_bytes(2500);
    auto pk = seg(false, QP, psn, 0, 0, d, 1024, true, 0xA1B2C3D4);
    for (auto& p : pk) t.send_pkt(p);
    for (size_t i = 0; i < d.size(); i++) t.exp[rb.xlate(i < 1000 ? rb.iova + 5 + i : rb.iova + 3000 + i - 1000)] = d[i];
    psn = (psn + pk.size()) & 0xFFFFFF;
    Pkt a; a.h.opcode = 0x11; a.h.dest_qp = QP; a.h.psn = 0x345; a.h.syndrome = 0x1F; a.h.msn = 9;
    t.send_pkt(a);
    Pkt r; r.h.opcode = 0x0C; r.h.dest_qp = QP; r.h.psn = psn; r.h.va = w.iova; r.h.rkey = w.key(); r.h.dma_len = 3000;
    t.send_pkt(r);
    t.run_idle();
    bool ok = t.evts.size() == 2 && t.evts[0].kind == EV_RECV_DONE && t.evts[0].wr_id == 0x77 &&
              t.evts[0].byte_len == 2500 && t.evts[0].imm == 0xA1B2C3D4 && t.evts[0].flags == 1 &&
              t.evts[1].kind == EV_ACK && t.evts[1].psn == 0x345 && t.evts[1].msn == 9 &&
              t.rds.size() == 1 && t.rds[0].psn == psn && t.rds[0].len == 3000;
    R.check(ok && acks_eq(t.acks, {{QP, (psn - 1) & 0xFFFFFF, 0x1F, ++msn}}, why) && mem_eq(t, why),
            "parser-send-ack-read", "%s", why.c_str());
    why.clear();
    // READ responses (FIRST/MIDDLE/LAST with AETH on FIRST and LAST) into 2 SGEs
    {
      t.clear_out();
      std::vector<Tb::Sge> sg = {{w.iova + 0x8003, 1500, w.key()}, {w.iova + 0xA011, 1100, w.key()}};
      auto dr = t.rand_bytes(2600);
      t.post_rdd(QP, 0x4440, 2600, sg);
      for (auto& p : seg_rr(QP, 0x4440, dr, 1024, 21)) t.send_pkt(p);
      for (size_t i = 0; i < dr.size(); i++) t.exp[w.xlate(i < 1500 ? sg[0].addr + i : sg[1].addr + i - 1500)] = dr[i];
      t.run_idle();
      bool okr = t.evts.size() == 1 && t.evts[0].kind == EV_READ_RESP_DONE && t.evts[0].psn == 0x4442 &&
                 t.evts[0].msn == 21 && t.evts[0].byte_len == 2600 && t.evts[0].status == 0 && t.acks.empty();
      R.check(okr && mem_eq(t, why), "parser-read-response", "%s evts %zu", why.c_str(), t.evts.size());
      why.clear();
    }
    // Malformed frames: WRITEs, SENDs and READ responses aimed at this QP and MR (a good copy
    // would be placed), each damaged so that roce_rx must drop it (the reference parser says so):
    // none of them reaches the engine, no DMA write is issued, host memory stays as it was; the
    // good WRITE sent afterwards is placed and ACKed.
    {
      psn = 0x600000; msn = 0;
      t.qpt_write(QP, psn, 10, A_RW | A_RR, PD, 0, 12);
      t.clear_out();
      t.post_rq(QP, 0x99, {{rb.iova, 4096, rb.key()}});
      t.post_rdd(QP, 0x5550, 3000, {{w.iova + 0x100, 3000, w.key()}});
      const long nf = TB_DW == 512 ? 20000 : 5000;
      uint64_t aw0 = t.slave.aw_count;
      uint32_t bq0 = t.cnt(C_BADQP);
      std::map<std::string, long> kinds;
      long sent = 0, badqp = 0;
      for (long i = 0; i < nf; i++) {
        roce_ref::Hdr r;
        r.dst_mac = 0x0200000000BBull; r.src_mac = 0x0200000000AAull; r.src_ip = 0x0A000002; r.dst_ip = 0x0A000001;
        r.ttl = 64; r.ip_id = t.ip_id++; r.udp_sport = 0xC000; r.pkey = 0xFFFF; r.dest_qp = QP;
        static const uint8_t ops[] = {0x0A, 0x06, 0x04, 0x00, 0x10, 0x0D, 0x0B};
        r.opcode = ops[t.rng() % sizeof ops];
        r.psn = psn; r.ack_req = 1;
        uint16_t plen = uint16_t(1 + t.rng() % 1024);
        if (r.opcode == 0x0D || r.opcode == 0x06 || r.opcode == 0x00) plen = 1024;
        if (r.opcode == 0x10 || r.opcode == 0x0D) { r.psn = 0x5550; r.syndrome = 0x1F; }
        if (r.opcode == 0x0A || r.opcode == 0x06 || r.opcode == 0x0B) {
          r.va = w.iova + t.rng() % 4096; r.rkey = w.key(); r.dma_len = r.opcode == 0x06 ? 2048 : plen;
        }
        r.payload_len = plen;
        auto f = roce_ref::build(r, t.rand_bytes(plen));
        bool unknown = false;
        switch (t.rng() % 7) {
          case 0: f[54 + t.rng() % (f.size() - 54)] ^= uint8_t(1u << (t.rng() % 8)); kinds["bad_icrc"]++; break;
          case 1: f[24 + (t.rng() & 1)] ^= uint8_t(1 + t.rng() % 255); kinds["bad_ip_csum"]++; break;
          case 2: f.resize(1 + t.rng() % (f.size() - 1)); kinds["truncated"]++; break;
          case 3: f[36] ^= uint8_t(1 + t.rng() % 255); kinds["bad_udp_port"]++; break;
          case 4: f[12] = 0x86; f[13] = 0xDD; kinds["bad_ethertype"]++; break;
          case 5: f = t.rand_bytes(1 + t.rng() % 700); kinds["random_bytes"]++; break;
          default: {  // well-formed, but for a QP that does not exist: reaches the engine, counted there
            roce_ref::Hdr q = r;
            q.dest_qp = 0x300 + uint32_t(t.rng() % 0x1000);
            f = roce_ref::build(q, t.rand_bytes(plen));
            kinds["unknown_qp"]++;
            unknown = true;
            break;
          }
        }
        if ((roce_ref::parse(f, 0, 0xFFFFFF, 4352).reason < 0) != unknown) {  // the damage left a good frame
          kinds["skipped_still_good"]++;
          continue;
        }
        badqp += unknown;
        for (size_t o = 0; o < f.size(); o += NB) {
          Tb::FBeat b{std::vector<uint8_t>(NB, 0), unsigned(std::min<size_t>(NB, f.size() - o)), o + NB >= f.size()};
          for (unsigned k = 0; k < b.keep; k++) b.d[k] = f[o + k];
          t.fbeats.push_back(b);
        }
        sent++;
        if (t.fbeats.size() > 4096) t.run_idle();
      }
      t.run_idle();
      bool quiet = t.slave.aw_count == aw0 && t.acks.empty() && t.evts.empty() && t.rds.empty() &&
                   t.cnt(C_BADQP) - bq0 == uint32_t(badqp);
      std::string k;
      for (auto& kv : kinds) k += " " + kv.first + " " + std::to_string(kv.second);
      printf("INFO malformed frames through roce_rx + xport_rx: %ld sent;%s\n", sent, k.c_str());
      quiet = quiet && sent > nf * 9 / 10 && mem_eq(t, why);
      R.check(quiet, "parser-malformed-frames-nothing-written",
              "%s aw %llu acks %zu evts %zu", why.c_str(), (unsigned long long)(t.slave.aw_count - aw0), t.acks.size(),
              t.evts.size());
      why.clear();
      uint64_t off = 0x200;
      auto d = t.rand_bytes(777);
      for (auto& p : seg(true, QP, psn, w.iova + off, w.key(), d, 1024)) t.send_pkt(p);
      exp_write(w, w.iova + off, d);
      t.run_idle();
      bool okg = acks_eq(t.acks, {{QP, psn, 0x1F, ++msn}}, why) && mem_eq(t, why);
      R.check(okg, "parser-good-frame-after-malformed", "%s", why.c_str());
      psn = (psn + 1) & 0xFFFFFF;
      why.clear();
      t.qpt_write(QP, psn, 10, A_RW | A_RR, PD, 0, 12);  // drops the posted buffer and READ context
    }
    t.parser = false;
  }
  // ---- throughput ---------------------------------------------------------------------------------
  {
    t.slave.cfg = AxiSlaveCfg::polite(40);
    t.in_p = 1.0; t.out_p = 1.0;
    for (unsigned mtu_log2 : {10u, 12u}) {
      unsigned mtu = 1u << mtu_log2;
      t.qpt_write(QP, 0, mtu_log2, A_RW, PD, 0, 12);
      t.clear_out();
      auto d = t.rand_bytes(65536);
      auto pk = seg(true, QP, 0, w.iova, w.key(), d, mtu);
      exp_write(w, w.iova, d);
      uint64_t c0 = t.cycles;
      for (auto& p : pk) t.send_pkt(p);
      t.run_idle();
      uint64_t c = t.cycles - c0 - 300;
      printf("INFO throughput WRITE 64 KiB MTU %u: %llu cycles, %.1f cycles/packet, %.2f bytes/cycle\n", mtu,
             (unsigned long long)c, double(c) / pk.size(), 65536.0 / c);
      R.check(mem_eq(t, why) && t.acks.size() == 1, ("throughput-run-mtu" + std::to_string(mtu)).c_str(), "%s", why.c_str());
      why.clear();
    }
    // message rate: 200 WRITE ONLY of 64 bytes, each acknowledged (write response latency 40 / 4)
    for (unsigned lat : {40u, 4u}) {
    t.slave.cfg = AxiSlaveCfg::polite(lat);
    t.qpt_write(QP, 0, 12, A_RW, PD, 0, 12);
    t.clear_out();
    uint64_t c0 = t.cycles;
    for (uint32_t i = 0; i < 200; i++) {
      auto d = t.rand_bytes(64);
      uint64_t va = w.iova + 64 * i;
      auto pk = seg(true, QP, i, va, w.key(), d, 4096);
      exp_write(w, va, d);
      t.send_pkt(pk[0]);
    }
    t.run_idle();
    uint64_t c = t.cycles - c0 - 300;
    printf("INFO message rate WRITE ONLY 64 B, B latency %u: %.1f cycles/message (%.1f M msg/s at 250 MHz)\n", lat,
           double(c) / 200, 250.0 * 200 / c);
    R.check(t.acks.size() == 200 && mem_eq(t, why), ("throughput-write-only-64-lat" + std::to_string(lat)).c_str(),
            "%s", why.c_str());
    why.clear();
    }
    (void)bench;
  }
  printf("INFO %d passed, %d failed, %llu cycles\n", R.passed, R.failed, (unsigned long long)t.cycles);
#if VM_COVERAGE
  if (const char* f = getenv("XRX_COV_FILE")) t.ctx->coveragep()->write(f);
#endif
  return R.exit_code();
}
