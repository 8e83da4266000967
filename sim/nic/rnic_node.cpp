#include "rnic_node.h"

#include "Vrnic_core.h"
#include "verilated.h"

static constexpr int kDataBytes = 64;  // rnic_core default DataWidth 512

RnicNode::RnicNode(sc_module_name name, sc_time period)
    : sc_module(name), ctx_(new VerilatedContext), period_(period) {
  core_.reset(new Vrnic_core(ctx_.get(), basename()));
  SC_THREAD(clock_thread);
}

RnicNode::~RnicNode() { core_->final(); }

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

void RnicNode::rx_frame(const std::vector<uint8_t> &frame) { rx_queue_.push_back(frame); }

void RnicNode::drive_inputs() {
  Vrnic_core &c = *core_;
  if (!bar_cur_ && !bar_queue_.empty()) {
    bar_cur_ = bar_queue_.front();
    bar_queue_.pop_front();
    aw_done_ = w_done_ = ar_done_ = false;
  }
  BarAccess *b = bar_cur_;
  c.s_axil_awvalid_i = b && b->write && !aw_done_;
  c.s_axil_awaddr_i = b ? b->addr : 0;
  c.s_axil_wvalid_i = b && b->write && !w_done_;
  c.s_axil_wdata_i = b ? b->data : 0;
  c.s_axil_wstrb_i = b ? b->strb : 0;
  c.s_axil_bready_i = 1;
  c.s_axil_arvalid_i = b && !b->write && !ar_done_;
  c.s_axil_araddr_i = b ? b->addr : 0;
  c.s_axil_rready_i = 1;

  // DMA master, MSI-X and TX: always ready until the host-memory and link models attach.
  c.m_axi_awready_i = 1;
  c.m_axi_wready_i = 1;
  c.m_axi_arready_i = 1;
  c.m_axi_bvalid_i = 0;
  c.m_axi_rvalid_i = 0;
  c.msix_ack_i = 1;
  c.m_axis_tx_tready_i = 1;

  // RX: one beat of the current frame, byte 0 in the lowest lane.
  if (!rx_queue_.empty()) {
    const auto &f = rx_queue_.front();
    size_t n = std::min<size_t>(kDataBytes, f.size() - rx_off_);
    uint64_t keep = n == 64 ? ~0ull : ((1ull << n) - 1);
    for (int w = 0; w < kDataBytes / 4; w++) {
      uint32_t v = 0;
      for (int k = 0; k < 4; k++) {
        size_t i = rx_off_ + w * 4 + k;
        if (w * 4 + k < (int)n) v |= uint32_t(f[i]) << (8 * k);
      }
      c.s_axis_rx_tdata_i[w] = v;
    }
    c.s_axis_rx_tkeep_i = keep;
    c.s_axis_rx_tlast_i = rx_off_ + n >= f.size();
    c.s_axis_rx_tvalid_i = 1;
  } else {
    c.s_axis_rx_tvalid_i = 0;
  }
}

void RnicNode::sample_handshakes() {
  Vrnic_core &c = *core_;
  if (c.s_axis_rx_tvalid_i && c.s_axis_rx_tready_o) {
    rx_off_ += kDataBytes;
    if (c.s_axis_rx_tlast_i) {
      rx_queue_.pop_front();
      rx_off_ = 0;
    }
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

void RnicNode::clock_thread() {
  Vrnic_core &c = *core_;
  c.clk_i = 0;
  c.rst_ni = 0;
  c.eval();
  for (int i = 0; i < 4; i++) {  // reset for a few cycles
    c.clk_i = 1;
    c.eval();
    c.clk_i = 0;
    c.eval();
    wait(period_);
  }
  c.rst_ni = 1;
  for (;;) {
    drive_inputs();
    c.clk_i = 0;
    c.eval();
    sample_handshakes();  // ready/valid as seen just before the rising edge
    c.clk_i = 1;
    c.eval();
    ctx_->timeInc(1);
    cycle_++;
    wait(period_);
  }
}
