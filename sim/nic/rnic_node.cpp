#include "rnic_node.h"

#include "Vrnic_core.h"
#include "Vrnic_core___024root.h"
#include "host/pcie_model.h"
#include "main/sim_waves.h"
#include "monitors/port_monitors.h"
#include "rnic_spec.h"
#include "verilated.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

static constexpr size_t kPcProfWords = 65536 / 4;  // IMEM words (RNIC_PC_PROFILE)

// The rising edge without the input region. Verilator 5.006's eval() runs the input region
// (ico: logic fed by top-level inputs) on its first iteration whether an input changed or not,
// then the active/NBA loop. clock_thread has just run eval() on this cycle's inputs with clk_i
// low, and only clk_i changed since, which no input-region logic reads (the region's only
// trigger is the first iteration): the second run would recompute the same values. So the edge
// runs the generated active/NBA loop alone, the same calls in the same order as eval() makes
// them (docs/sim-speed.md, step 12). Other Verilator versions keep plain eval(), and so does the
// trace build (WAVES=1), whose eval() also marks the activity its waveform dump looks for.
#if VERILATOR_VERSION_INTEGER == 5006000 && !VM_TRACE
void Vrnic_core___024root___eval_triggers__act(Vrnic_core___024root *vlSelf);
void Vrnic_core___024root___eval_act(Vrnic_core___024root *vlSelf);
void Vrnic_core___024root___eval_nba(Vrnic_core___024root *vlSelf);
// The model's only triggers are edges of clk_i and rst_ni (two, checked below; a design with
// another trigger fails to compile here). Of the three trigger computations of an edge only the
// first finds one: the model never writes its inputs, so after it both levels equal the ones it
// recorded, and the computation would clear the triggers and record the same levels again. That
// case is a compare instead of the call (docs/sim-speed.md, step 19).
static_assert(std::is_same<decltype(Vrnic_core___024root::__VactTriggered), VlTriggerVec<2>>::value,
              "eval_edge assumes the triggers posedge clk_i and (posedge clk_i or negedge rst_ni)");
static inline bool triggers_steady(const Vrnic_core___024root *r) {
  return r->clk_i == r->__Vtrigrprev__TOP__clk_i && r->rst_ni == r->__Vtrigrprev__TOP__rst_ni;
}
static void eval_edge(Vrnic_core &c) {
  Vrnic_core___024root *r = c.rootp;
  for (unsigned nba_iter = 0;; nba_iter++) {
    r->__VnbaTriggered.clear();
    r->__VactIterCount = 0;
    for (;;) {
      if (triggers_steady(r)) {
        r->__VactTriggered.clear();
        break;
      }
      Vrnic_core___024root___eval_triggers__act(r);
      if (!r->__VactTriggered.any()) break;
      if (++r->__VactIterCount > 101) VL_FATAL_MT(__FILE__, __LINE__, "", "Active region did not converge.");
      r->__VnbaTriggered.set(r->__VactTriggered);
      Vrnic_core___024root___eval_act(r);
    }
    if (!r->__VnbaTriggered.any()) return;
    if (nba_iter > 100) VL_FATAL_MT(__FILE__, __LINE__, "", "NBA region did not converge.");
    Vrnic_core___024root___eval_nba(r);
  }
}
// The low phase (clk_i just set to 0) evaluates the input region and the active triggers. When
// no input changed since the last evaluation, every value the input region would compute is the
// one the model holds already: logic that reads inputs and state alone is evaluated in both the
// input and the NBA region (Verilator replicates it), so the last edge's NBA region left it at
// the current inputs, and logic that reads inputs alone has not changed. The triggers would find
// no edge (clk_i fell, rst_ni is steady) and only record clk_i's new level, which the next
// rising edge is detected against: that is what a skipped evaluation does instead.
static void eval_low(Vrnic_core &c, bool inputs_changed) {
  if (inputs_changed) c.eval();
  else c.rootp->__Vtrigrprev__TOP__clk_i = c.clk_i;
}
#else
static void eval_edge(Vrnic_core &c) { c.eval(); }
static void eval_low(Vrnic_core &c, bool) { c.eval(); }
#endif

// The model bakes in only the names "imem.hex" and "dmem.hex" (sim/block.mk): $readmemh reads them
// relative to the working directory during the first eval(), which clock_thread makes inside
// this directory: RNIC_FW_DIR if set, else "fw" next to this binary. So a moved or copied build
// runs its own firmware image, never the one of the tree it was built in.
static const std::string &fw_image_dir() {
  static const std::string dir = [] {
    if (const char *e = std::getenv("RNIC_FW_DIR")) return std::string(e);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    std::string p = n > 0 ? std::string(exe, size_t(n)) : std::string(".");
    return p.substr(0, p.find_last_of('/') + 1) + "fw";
  }();
  return dir;
}

struct NodeMonitors {
  AxiMonitor dma, db;
  AxilMonitor bar0;
  AxisMonitor tx, rx;
  ReqAckMonitor msix;
  explicit NodeMonitors(const std::string &n)
      : dma(n + ".m_axi"), db(n + ".s_axi_db"), bar0(n + ".s_axil"), tx(n + ".m_axis_tx", RnicNode::kDataBytes),
        rx(n + ".s_axis_rx", RnicNode::kDataBytes), msix(n + ".msix") {}
  uint64_t count() const {
    return dma.violation_count() + db.violation_count() + bar0.violation_count() + tx.violation_count() + rx.violation_count() +
           msix.violation_count();
  }
};
static uint64_t g_protocol_violations = 0;
uint64_t rnic_protocol_violations() { return g_protocol_violations; }
uint64_t RnicNode::protocol_violations() const { return mon_ ? mon_->count() : 0; }
const AxiFigures *RnicNode::dma_figures() const { return mon_ ? &mon_->dma.figures() : nullptr; }

RnicNode::RnicNode(sc_module_name name, sc_time period)
    : sc_module(name), ctx_(new VerilatedContext), period_(period) {
  core_.reset(new Vrnic_core(ctx_.get(), basename()));
  // A missing image is only a warning to Verilator (the NIC would run from zeroed memories).
  for (const char *f : {"/imem.hex", "/dmem.hex"})
    if (access((fw_image_dir() + f).c_str(), R_OK) != 0) {
      std::fprintf(stderr, "%s: firmware image %s%s not readable (set RNIC_FW_DIR or rebuild)\n", sc_module::name(),
                   fw_image_dir().c_str(), f);
      std::exit(2);
    }
  trace_ = std::getenv("RNIC_TRACE_HASH") != nullptr;
  if (const char *p = std::getenv("RNIC_PC_PROFILE")) {
    pc_prof_path_ = std::string(p) + "." + basename();
    pc_prof_.assign(kPcProfWords, 0);
  }
  waves_.reset(new Waves);
  waves_->open(core_.get(), basename());
  if (!std::getenv("RNIC_NO_MONITORS")) mon_.reset(new NodeMonitors(basename()));
  dbp_.reset(new AxiPorts(kDataBytes));
  stamps_.reset(new HandshakeStamps);
  SC_THREAD(clock_thread);
}

RnicNode::~RnicNode() {
  core_->final();
  if (!pc_prof_.empty()) {
    if (FILE *f = std::fopen(pc_prof_path_.c_str(), "w")) {
      for (size_t i = 0; i < pc_prof_.size(); i++)
        if (pc_prof_[i]) std::fprintf(f, "%08zx %llu\n", i * 4, (unsigned long long)pc_prof_[i]);
      std::fclose(f);
    }
  }
  waves_->close();
  if (mon_ && std::getenv("RNIC_DMA_FIGURES")) {  // what docs/dma.md quotes
    const AxiFigures &f = mon_->dma.figures();
    std::string ar, aw;
    for (auto &h : f.ar_beats_hist) ar += " " + std::to_string(h.first) + ":" + std::to_string(h.second);
    for (auto &h : f.aw_beats_hist) aw += " " + std::to_string(h.first) + ":" + std::to_string(h.second);
    std::printf("INFO %s DMA: %llu reads (max %u beats, max %u outstanding), %llu writes (max %u beats, max %u "
                "outstanding), error responses R %llu B %llu; read bursts beats:count%s; write bursts beats:count%s\n",
                name(), (unsigned long long)f.ar, f.max_ar_beats, f.max_rd_outstanding, (unsigned long long)f.aw,
                f.max_aw_beats, f.max_wr_outstanding, (unsigned long long)f.r_err, (unsigned long long)f.b_err,
                ar.c_str(), aw.c_str());
  }
  if (mon_ && mon_->count()) {
    g_protocol_violations += mon_->count();
    for (const MonitorBase *m : {static_cast<const MonitorBase *>(&mon_->dma), static_cast<const MonitorBase *>(&mon_->db),
                                 static_cast<const MonitorBase *>(&mon_->bar0),
                                 static_cast<const MonitorBase *>(&mon_->tx), static_cast<const MonitorBase *>(&mon_->rx),
                                 static_cast<const MonitorBase *>(&mon_->msix)})
      for (const PortViolation &v : m->violations())
        std::printf("FAIL protocol-%s cycle %llu: %s (%llu violations on this port)\n", v.port.c_str(),
                    (unsigned long long)v.cycle, v.msg.c_str(), (unsigned long long)m->violation_count());
    std::fflush(stdout);
  }
  if (trace_)
    std::printf("INFO %s port trace hash %016llx over %llu cycles\n", name(), (unsigned long long)trace_hash_,
                (unsigned long long)cycle_);
}

uint32_t RnicNode::bar_read(uint32_t addr, int *resp) {
  BarAccess a{false, addr, 0, 0xF};
  bar_queue_.push_back(&a);
  wait(a.done);
  if (resp) *resp = a.resp;
  return a.data;
}

void RnicNode::bar_write(uint32_t addr, uint32_t data, uint8_t strb, int *resp) {
  BarAccess a{true, addr, data, strb};
  bar_queue_.push_back(&a);
  wait(a.done);
  if (resp) *resp = a.resp;
}

void RnicNode::db_write(uint32_t addr, const void *data, unsigned bytes) {
  if (!bytes) return;
  const uint8_t *src = static_cast<const uint8_t *>(data);
  uint32_t first = addr & ~(kDataBytes - 1), last = (addr + bytes - 1) & ~(kDataBytes - 1);
  if (bytes > 4096 || (addr >> 12) != ((addr + bytes - 1) >> 12) || addr + bytes > RNIC_DB_BAR_SIZE) {
    SC_REPORT_ERROR(name(), "db_write: more than a page, or outside the doorbell BAR");
    return;
  }
  DbBurst b;
  b.addr = addr;
  b.beats = (last - first) / kDataBytes + 1;
  b.data.assign(b.beats * kDataBytes, 0);
  b.strb.assign(b.beats * kDataBytes, 0);
  for (unsigned i = 0; i < bytes; i++) {
    size_t lane = addr + i - first;
    b.data[lane] = src[i];
    b.strb[lane] = 1;
  }
  db_queue_.push_back(std::move(b));
  uint64_t mine = ++db_issued_;
  while (db_taken_ < mine) wait(db_taken_ev_);
}

void RnicNode::db_write32(uint32_t addr, uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  db_write(addr, b, 4);
}

void RnicNode::rx_frame(const std::vector<uint8_t> &frame) {
  if (frame.empty()) return;
  if (rx_limit_ && rx_bytes_ + frame.size() > rx_limit_) {
    rx_dropped_++;
    return;
  }
  rx_bytes_ += frame.size();
  rx_queue_.push_back(frame);
}

void RnicNode::attach_pcie(PcieModel *p) {
  pcie_ = p;
  if (p && !axi_) axi_.reset(new AxiPorts(kDataBytes));
  if (p && (sc_time(double(p->cfg().clk_ps), SC_PS) != period_ || p->cfg().data_bytes != kDataBytes))
    SC_REPORT_WARNING(name(), "PCIe model clock period or data width differs from the node's");
}

void RnicNode::wait_msix(unsigned v, uint64_t *seen) {
  while (msix_count(v) <= *seen) wait(msix_event(v));
  *seen = msix_count(v);
}

bool RnicNode::wait_msix(unsigned v, uint64_t *seen, const sc_time &timeout) {
  sc_time end = sc_time_stamp() + timeout;
  while (msix_count(v) <= *seen) {
    if (sc_time_stamp() >= end) return false;
    wait(end - sc_time_stamp(), msix_event(v));
  }
  *seen = msix_count(v);
  return true;
}

void RnicNode::deliver_msix(unsigned v) {
  v %= kMsixVectors;
  msix_cnt_[v]++;
  msix_ev_[v].notify(SC_ZERO_TIME);
}

static constexpr uint64_t kKeepAll = RnicNode::kDataBytes == 64 ? ~0ull : (1ull << RnicNode::kDataBytes) - 1;

// DataWidth-bit Verilator words <-> byte lanes, byte 0 in bits [7:0]: on a little-endian host the
// words' bytes are already in lane order, so one copy.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "wide_to_bytes/bytes_to_wide copy words as bytes");
static inline void wide_to_bytes(const uint32_t *w, uint8_t *b) { std::memcpy(b, w, RnicNode::kDataBytes); }
static inline void bytes_to_wide(const uint8_t *b, uint32_t *w) { std::memcpy(w, b, RnicNode::kDataBytes); }
// A strobe word -> one byte (0/1) per lane, 8 lanes per table entry.
static const std::array<uint64_t, 256> kStrbBytes = [] {
  std::array<uint64_t, 256> t{};
  for (unsigned v = 0; v < 256; v++)
    for (unsigned i = 0; i < 8; i++) t[v] |= uint64_t(v >> i & 1) << (8 * i);
  return t;
}();
static inline void strobe_to_bytes(uint64_t s, uint8_t *b) {
  for (unsigned i = 0; i < RnicNode::kDataBytes; i += 8) {
    uint64_t e = kStrbBytes[(s >> i) & 0xFF];
    std::memcpy(b + i, &e, std::min<unsigned>(8, RnicNode::kDataBytes - i));
  }
}

void RnicNode::drive_inputs() {
  Vrnic_core &c = *core_;
  // Every input is written through put/put_wide, which note whether its value changed: the low
  // phase's evaluation is skipped when none did (eval_low).
  bool &dirty = in_dirty_;
  auto put = [&dirty](auto &dst, auto v) {
    auto t = static_cast<std::remove_reference_t<decltype(dst)>>(v);
    if (dst != t) dst = t, dirty = true;
  };
  auto put_wide = [&dirty](const uint8_t *b, uint32_t *w) {
    if (std::memcmp(w, b, kDataBytes) != 0) bytes_to_wide(b, w), dirty = true;
  };
  if (!bar_cur_ && !bar_queue_.empty()) {
    bar_cur_ = bar_queue_.front();
    bar_queue_.pop_front();
    aw_done_ = w_done_ = ar_done_ = false;
  }
  BarAccess *b = bar_cur_;
  put(c.s_axil_awvalid_i, b && b->write && !aw_done_);
  put(c.s_axil_awaddr_i, b ? b->addr : 0);
  put(c.s_axil_wvalid_i, b && b->write && !w_done_);
  put(c.s_axil_wdata_i, b ? b->data : 0);
  put(c.s_axil_wstrb_i, b ? b->strb : 0);
  put(c.s_axil_bready_i, 1);
  put(c.s_axil_arvalid_i, b && !b->write && !ar_done_);
  put(c.s_axil_araddr_i, b ? b->addr : 0);
  put(c.s_axil_rready_i, 1);

  // Doorbell BAR: the oldest queued burst, AW then its W beats; B always taken; never a read.
  if (!db_cur_ && !db_queue_.empty()) db_cur_ = true, db_aw_done_ = false, db_wbeat_ = 0;
  const DbBurst *d = db_cur_ ? &db_queue_.front() : nullptr;
  put(c.s_axi_db_awvalid_i, d && !db_aw_done_);
  put(c.s_axi_db_awid_i, 0);
  put(c.s_axi_db_awaddr_i, d ? d->addr : 0);
  put(c.s_axi_db_awlen_i, d ? d->beats - 1 : 0);
  put(c.s_axi_db_awsize_i, __builtin_ctz(kDataBytes));
  put(c.s_axi_db_awburst_i, 1);
  put(c.s_axi_db_wvalid_i, d != nullptr);
  if (d) {
    put_wide(&d->data[db_wbeat_ * kDataBytes], c.s_axi_db_wdata_i.data());
    uint64_t s = 0;
    for (unsigned i = 0; i < kDataBytes; i++) s |= uint64_t(d->strb[db_wbeat_ * kDataBytes + i]) << i;
    put(c.s_axi_db_wstrb_i, s);
    put(c.s_axi_db_wlast_i, db_wbeat_ + 1 == d->beats);
  }
  put(c.s_axi_db_bready_i, 1);
  put(c.s_axi_db_arvalid_i, 0);
  put(c.s_axi_db_rready_i, 1);

  if (pcie_) {
    AxiPorts &p = *axi_;
    pcie_->drive(p);
    put(c.m_axi_awready_i, p.awready);
    put(c.m_axi_wready_i, p.wready);
    put(c.m_axi_arready_i, p.arready);
    put(c.m_axi_bvalid_i, p.bvalid);
    put(c.m_axi_bid_i, p.bid);
    put(c.m_axi_bresp_i, p.bresp);
    put(c.m_axi_rvalid_i, p.rvalid);
    if (p.rvalid) {
      put(c.m_axi_rid_i, p.rid);
      put(c.m_axi_rresp_i, p.rresp);
      put(c.m_axi_rlast_i, p.rlast);
      put_wide(p.rdata.data(), c.m_axi_rdata_i.data());
    }
    put(c.msix_ack_i, pcie_->msix_ack());
  } else {  // tied off: always ready, never a response
    put(c.m_axi_awready_i, 1);
    put(c.m_axi_wready_i, 1);
    put(c.m_axi_arready_i, 1);
    put(c.m_axi_bvalid_i, 0);
    put(c.m_axi_rvalid_i, 0);
    put(c.msix_ack_i, 1);
  }
  bool tx_ready = true;
  uint8_t tx_paused = 0;
  if (eth_) eth_->tx_state(&tx_ready, &tx_paused);
  put(c.m_axis_tx_tready_i, tx_ready);
  put(c.tx_pause_i, tx_paused);

  // RX: one beat of the current frame, byte 0 in the lowest lane.
  if (!rx_queue_.empty()) {
    const auto &f = rx_queue_.front();
    size_t n = std::min<size_t>(kDataBytes, f.size() - rx_off_);
    uint64_t keep = n == 64 ? ~0ull : ((1ull << n) - 1);  // n <= kDataBytes
    uint8_t lanes[kDataBytes] = {};
    std::memcpy(lanes, f.data() + rx_off_, n);
    put_wide(lanes, c.s_axis_rx_tdata_i.data());
    put(c.s_axis_rx_tkeep_i, keep);
    put(c.s_axis_rx_tlast_i, rx_off_ + n >= f.size());
    put(c.s_axis_rx_tvalid_i, 1);
  } else {
    put(c.s_axis_rx_tvalid_i, 0);
  }
}

void RnicNode::sample_handshakes() {
  Vrnic_core &c = *core_;
  if (mon_) monitor_cycle();
  const bool st = stamps_->on;
  const double now_ns = st ? sc_time_stamp().to_seconds() * 1e9 : 0;
  if (c.s_axis_rx_tvalid_i && c.s_axis_rx_tready_o) {
    rx_off_ += kDataBytes;
    if (c.s_axis_rx_tlast_i) {
      if (st) stamps_->rx_last.push_back(now_ns);
      rx_bytes_ -= rx_queue_.front().size();
      rx_queue_.pop_front();
      rx_off_ = 0;
    }
  }
  // TX: collect the kept bytes of each beat; tlast hands the frame on.
  if (c.m_axis_tx_tvalid_o && c.m_axis_tx_tready_i) {
    if (st && tx_cur_.empty()) stamps_->tx_first.push_back(now_ns);
    uint8_t lanes[kDataBytes];
    wide_to_bytes(c.m_axis_tx_tdata_o.data(), lanes);
    uint64_t keep = c.m_axis_tx_tkeep_o;
    if (keep == kKeepAll)  // a full beat (most of them): one copy
      tx_cur_.insert(tx_cur_.end(), lanes, lanes + kDataBytes);
    else
      for (unsigned i = 0; i < kDataBytes; i++)
        if (keep >> i & 1) tx_cur_.push_back(lanes[i]);
    if (c.m_axis_tx_tlast_o) {
      if (st) stamps_->tx_last.push_back(now_ns);
      if (eth_) eth_->tx_frame(std::move(tx_cur_));
      else tx_out_.push_back(std::move(tx_cur_));
      tx_cur_.clear();
    }
  }
  // Flow control: the pause request goes to the link (the MAC) when it changes.
  if (bool(c.rx_pause_req_o) != pause_req_) {
    pause_req_ = c.rx_pause_req_o;
    if (eth_) eth_->rx_pause(pause_req_);
  }
  pause_cycles_ += pause_req_;
  // MSI-X: a request is taken when req and ack meet.
  if (c.msix_req_o && c.msix_ack_i) {
    if (pcie_) pcie_->post_msix(c.msix_vector_o);
    else deliver_msix(c.msix_vector_o);
  }
  if (pcie_) {
    AxiPorts &p = *axi_;
    p.awvalid = c.m_axi_awvalid_o;
    if (p.awvalid) {
      p.awid = c.m_axi_awid_o, p.awaddr = c.m_axi_awaddr_o, p.awlen = c.m_axi_awlen_o;
      p.awsize = c.m_axi_awsize_o, p.awburst = c.m_axi_awburst_o;
    }
    p.wvalid = c.m_axi_wvalid_o;
    if (p.wvalid) {
      wide_to_bytes(c.m_axi_wdata_o.data(), p.wdata.data());
      strobe_to_bytes(c.m_axi_wstrb_o, p.wstrb.data());
      p.wlast = c.m_axi_wlast_o;
    }
    p.bready = c.m_axi_bready_o;
    p.arvalid = c.m_axi_arvalid_o;
    if (p.arvalid) {
      p.arid = c.m_axi_arid_o, p.araddr = c.m_axi_araddr_o, p.arlen = c.m_axi_arlen_o;
      p.arsize = c.m_axi_arsize_o, p.arburst = c.m_axi_arburst_o;
    }
    p.rready = c.m_axi_rready_o;
    if (mon_) mon_->dma.cycle(cycle_, p);
    if (st && p.awvalid && c.m_axi_awready_i) stamps_->dma_aw.push_back(now_ns);
    pcie_->commit(p);
    unsigned v;
    while (pcie_->take_msix(&v)) deliver_msix(v);
  }
  // Doorbell BAR handshakes: the host's write is done (posted) with its last W beat.
  if (db_cur_) {
    if (c.s_axi_db_awvalid_i && c.s_axi_db_awready_o) db_aw_done_ = true;
    if (c.s_axi_db_wvalid_i && c.s_axi_db_wready_o && ++db_wbeat_ == db_queue_.front().beats) {
      if (st) stamps_->db_write.push_back(now_ns);
      db_queue_.pop_front();
      db_cur_ = false;
      db_taken_++;
      db_b_pending_++;
      db_taken_ev_.notify(SC_ZERO_TIME);
    }
  }
  if (c.s_axi_db_bvalid_o && c.s_axi_db_bready_i) {
    if (c.s_axi_db_bresp_o) db_err_++;
    if (db_b_pending_) db_b_pending_--;
  }
  BarAccess *b = bar_cur_;
  if (!b) return;
  if (c.s_axil_awvalid_i && c.s_axil_awready_o) aw_done_ = true;
  if (c.s_axil_wvalid_i && c.s_axil_wready_o) w_done_ = true;
  if (c.s_axil_arvalid_i && c.s_axil_arready_o) ar_done_ = true;
  if (b->write && c.s_axil_bvalid_o) {
    b->resp = c.s_axil_bresp_o;
    bar_cur_ = nullptr;
    b->done.notify(SC_ZERO_TIME);
  } else if (!b->write && c.s_axil_rvalid_o) {
    b->resp = c.s_axil_rresp_o;
    b->data = c.s_axil_rdata_o;
    bar_cur_ = nullptr;
    b->done.notify(SC_ZERO_TIME);
  }
}

// The port checkers other than the DMA master's (which sees the AxiPorts the PCIe model sees).
void RnicNode::monitor_cycle() {
  const Vrnic_core &c = *core_;
  // The two BARs are quiet nearly always: a cycle without VALID on them and without a stall
  // going on would check nothing (AxilMonitor/AxiMonitor::stalled), so their signals are not
  // even gathered then.
  if (c.s_axil_awvalid_i || c.s_axil_wvalid_i || c.s_axil_bvalid_o || c.s_axil_arvalid_i || c.s_axil_rvalid_o ||
      mon_->bar0.stalled())
    monitor_bar0();
  if (c.s_axi_db_awvalid_i || c.s_axi_db_wvalid_i || c.s_axi_db_bvalid_o || c.s_axi_db_arvalid_i ||
      c.s_axi_db_rvalid_o || mon_->db.stalled())
    monitor_db();
  // A stream port likewise: its beat is gathered (and hashed) only when the monitor needs it.
  uint8_t lanes[kDataBytes];
  auto stream = [&](AxisMonitor &m, bool valid, bool ready, uint64_t keep, bool last, const uint32_t *data) {
    if (!valid && !m.stalled()) return;
    AxisSignals s;
    s.tvalid = valid, s.tready = ready;
    if (valid) {
      s.tkeep = keep, s.tlast = last;
      if (m.needs_data(valid, ready)) wide_to_bytes(data, lanes), s.tdata = lanes;
    }
    m.cycle(cycle_, s);
  };
  stream(mon_->tx, c.m_axis_tx_tvalid_o, c.m_axis_tx_tready_i, c.m_axis_tx_tkeep_o, c.m_axis_tx_tlast_o,
         c.m_axis_tx_tdata_o.data());
  stream(mon_->rx, c.s_axis_rx_tvalid_i, c.s_axis_rx_tready_o, c.s_axis_rx_tkeep_i, c.s_axis_rx_tlast_i,
         c.s_axis_rx_tdata_i.data());
  if (c.msix_req_o || mon_->msix.stalled()) mon_->msix.cycle(cycle_, c.msix_req_o, c.msix_ack_i, c.msix_vector_o);
}

void RnicNode::monitor_bar0() {
  const Vrnic_core &c = *core_;
  AxilSignals l;
  l.awvalid = c.s_axil_awvalid_i, l.awready = c.s_axil_awready_o, l.awaddr = c.s_axil_awaddr_i;
  l.wvalid = c.s_axil_wvalid_i, l.wready = c.s_axil_wready_o, l.wdata = c.s_axil_wdata_i, l.wstrb = c.s_axil_wstrb_i;
  l.bvalid = c.s_axil_bvalid_o, l.bready = c.s_axil_bready_i, l.bresp = c.s_axil_bresp_o;
  l.arvalid = c.s_axil_arvalid_i, l.arready = c.s_axil_arready_o, l.araddr = c.s_axil_araddr_i;
  l.rvalid = c.s_axil_rvalid_o, l.rready = c.s_axil_rready_i, l.rdata = c.s_axil_rdata_o, l.rresp = c.s_axil_rresp_o;
  mon_->bar0.cycle(cycle_, l);
}

void RnicNode::monitor_db() {
  const Vrnic_core &c = *core_;
  AxiPorts &p = *dbp_;
  p.awvalid = c.s_axi_db_awvalid_i, p.awready = c.s_axi_db_awready_o;
  if (p.awvalid) {
    p.awid = c.s_axi_db_awid_i, p.awaddr = c.s_axi_db_awaddr_i, p.awlen = c.s_axi_db_awlen_i;
    p.awsize = c.s_axi_db_awsize_i, p.awburst = c.s_axi_db_awburst_i;
  }
  p.wvalid = c.s_axi_db_wvalid_i, p.wready = c.s_axi_db_wready_o;
  if (p.wvalid) {
    wide_to_bytes(c.s_axi_db_wdata_i.data(), p.wdata.data());
    strobe_to_bytes(c.s_axi_db_wstrb_i, p.wstrb.data());
    p.wlast = c.s_axi_db_wlast_i;
  }
  p.bvalid = c.s_axi_db_bvalid_o, p.bready = c.s_axi_db_bready_i, p.bid = c.s_axi_db_bid_o, p.bresp = c.s_axi_db_bresp_o;
  p.arvalid = c.s_axi_db_arvalid_i, p.arready = c.s_axi_db_arready_o;
  p.rvalid = c.s_axi_db_rvalid_o, p.rready = c.s_axi_db_rready_i;
  if (p.rvalid) p.rid = c.s_axi_db_rid_o, p.rresp = c.s_axi_db_rresp_o, p.rlast = c.s_axi_db_rlast_o;
  mon_->db.cycle(cycle_, p);
}

// Mixes what the transactors see this cycle (inputs as driven, outputs before the edge):
// handshake bits always, payloads only on valid. Cycles with nothing valid add nothing.
void RnicNode::trace_cycle() {
  const Vrnic_core &c = *core_;
  uint32_t v = c.s_axil_awvalid_i | c.s_axil_wvalid_i << 1 | c.s_axil_bvalid_o << 2 | c.s_axil_arvalid_i << 3 |
               c.s_axil_rvalid_o << 4 | c.m_axi_awvalid_o << 5 | c.m_axi_wvalid_o << 6 | c.m_axi_bvalid_i << 7 |
               c.m_axi_arvalid_o << 8 | c.m_axi_rvalid_i << 9 | c.msix_req_o << 10 | c.m_axis_tx_tvalid_o << 11 |
               c.s_axis_rx_tvalid_i << 12 | c.rx_pause_req_o << 13 | uint32_t(c.tx_pause_i != 0) << 14 |
               c.s_axi_db_awvalid_i << 15 | c.s_axi_db_wvalid_i << 16 | c.s_axi_db_bvalid_o << 17 |
               uint32_t(c.tx_pause_i != 0 && c.tx_pause_i != 0xFF) << 18;  // PFC: some priorities only
  if (!v) return;
  uint32_t r = c.s_axil_awready_o | c.s_axil_wready_o << 1 | c.s_axil_arready_o << 2 | c.m_axi_awready_i << 3 |
               c.m_axi_wready_i << 4 | c.m_axi_bready_o << 5 | c.m_axi_arready_i << 6 | c.m_axi_rready_o << 7 |
               c.msix_ack_i << 8 | c.m_axis_tx_tready_i << 9 | c.s_axis_rx_tready_o << 10 |
               c.s_axi_db_awready_o << 11 | c.s_axi_db_wready_o << 12;
  uint64_t &h = trace_hash_;
  auto mix = [&h](uint64_t x) { h = (h ^ x) * 1099511628211ull; };
  auto mixw = [&mix](const uint32_t *w) { for (unsigned i = 0; i < kDataBytes / 4; i++) mix(w[i]); };
  mix(cycle_), mix(v), mix(r);
  if (c.s_axil_awvalid_i) mix(c.s_axil_awaddr_i);
  if (c.s_axil_wvalid_i) mix(c.s_axil_wdata_i), mix(c.s_axil_wstrb_i);
  if (c.s_axil_bvalid_o) mix(c.s_axil_bresp_o);
  if (c.s_axil_arvalid_i) mix(c.s_axil_araddr_i);
  if (c.s_axi_db_awvalid_i) mix(c.s_axi_db_awaddr_i), mix(c.s_axi_db_awlen_i);
  if (c.s_axi_db_wvalid_i) mixw(c.s_axi_db_wdata_i.data()), mix(c.s_axi_db_wstrb_i), mix(c.s_axi_db_wlast_i);
  if (c.s_axi_db_bvalid_o) mix(c.s_axi_db_bresp_o);
  if (c.s_axil_rvalid_o) mix(c.s_axil_rdata_o), mix(c.s_axil_rresp_o);
  if (c.m_axi_awvalid_o) mix(c.m_axi_awaddr_o), mix(c.m_axi_awid_o | c.m_axi_awlen_o << 8 | c.m_axi_awsize_o << 16 | c.m_axi_awburst_o << 24);
  if (c.m_axi_wvalid_o) mixw(c.m_axi_wdata_o.data()), mix(c.m_axi_wstrb_o), mix(c.m_axi_wlast_o);
  if (c.m_axi_bvalid_i) mix(c.m_axi_bid_i | c.m_axi_bresp_i << 8);
  if (c.m_axi_arvalid_o) mix(c.m_axi_araddr_o), mix(c.m_axi_arid_o | c.m_axi_arlen_o << 8 | c.m_axi_arsize_o << 16 | c.m_axi_arburst_o << 24);
  if (c.m_axi_rvalid_i) mixw(c.m_axi_rdata_i.data()), mix(c.m_axi_rid_i | c.m_axi_rresp_i << 8 | c.m_axi_rlast_i << 16);
  if (c.msix_req_o) mix(c.msix_vector_o);
  if (c.m_axis_tx_tvalid_o) mixw(c.m_axis_tx_tdata_o.data()), mix(c.m_axis_tx_tkeep_o), mix(c.m_axis_tx_tlast_o);
  if (c.s_axis_rx_tvalid_i) mixw(c.s_axis_rx_tdata_i.data()), mix(c.s_axis_rx_tkeep_i), mix(c.s_axis_rx_tlast_i);
}

void RnicNode::clock_thread() {
  Vrnic_core &c = *core_;
  c.clk_i = 0;
  c.rst_ni = 0;
  {  // the first eval() runs the initial blocks: $readmemh of the firmware image (see fw_image_dir)
    char cwd[4096];
    bool back = getcwd(cwd, sizeof(cwd)) != nullptr;
    if (chdir(fw_image_dir().c_str()) != 0) {
      std::fprintf(stderr, "%s: cannot enter firmware image directory %s\n", name(), fw_image_dir().c_str());
      std::exit(2);
    }
    c.eval();
    if (back && chdir(cwd) != 0) std::exit(2);
  }
  // Waves: the low phase (inputs as driven) at the cycle's start, the rising edge half a period
  // later, in simulated ps (a no-op unless this is the trace build and waves were asked for).
  const sc_time ps(1, SC_PS);
  const uint64_t half_ps = uint64_t(period_ / ps) / 2;
  auto now_ps = [&ps] { return uint64_t(sc_time_stamp() / ps); };
  for (int i = 0; i < 4; i++) {  // reset for a few cycles
    c.clk_i = 1;
    c.eval();
    if (waves_->on()) waves_->dump(now_ps() + half_ps);
    c.clk_i = 0;
    c.eval();
    wait(period_);
    if (waves_->on()) waves_->dump(now_ps());
  }
  c.rst_ni = 1;
  in_dirty_ = true;  // rst_ni rose
  for (;;) {
    drive_inputs();
    c.clk_i = 0;
    eval_low(c, in_dirty_);
    in_dirty_ = false;
    if (waves_->on()) waves_->dump(now_ps());
    if (trace_) trace_cycle();
    sample_handshakes();  // ready/valid as seen just before the rising edge
    c.clk_i = 1;
    eval_edge(c);
    if (!pc_prof_.empty())
      pc_prof_[(c.rootp->rnic_core__DOT__u_fw__DOT__u_tile__DOT__u_cpu__DOT__u_core__DOT__ex_pc_q >> 2) % kPcProfWords]++;
    if (waves_->on()) waves_->dump(now_ps() + half_ps);
    ctx_->timeInc(1);
    cycle_++;
    wait(period_);
  }
}
