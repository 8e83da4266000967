// One simulated NIC: the verilated rnic_core (a --cc model, ticked directly by this module)
// plus the transactors on its standard ports. Host threads call bar_read/bar_write from their
// own SC_THREADs; those calls take simulated time like a PCIe MMIO access would.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <deque>
#include <memory>

class Vrnic_core;
class VerilatedContext;

struct BarAccess {
  bool write;
  uint32_t addr;
  uint32_t data;
  uint8_t strb;
  int resp = -1;  // AXI response code once done
  sc_event done;
};

class RnicNode : public sc_module {
 public:
  SC_HAS_PROCESS(RnicNode);
  RnicNode(sc_module_name name, sc_time period = sc_time(4, SC_NS));
  ~RnicNode() override;

  // BAR0 accesses from a host SC_THREAD. resp gets the AXI response (0 OKAY, 2 SLVERR).
  uint32_t bar_read(uint32_t addr, int *resp = nullptr);
  void bar_write(uint32_t addr, uint32_t data, uint8_t strb = 0xF, int *resp = nullptr);

  // Hands one Ethernet frame to the RX port (queued; sent beat by beat).
  void rx_frame(const std::vector<uint8_t> &frame);

  uint64_t cycles() const { return cycle_; }
  const sc_time &period() const { return period_; }

 private:
  void clock_thread();
  void drive_inputs();
  void sample_handshakes();

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vrnic_core> core_;
  sc_time period_;
  uint64_t cycle_ = 0;

  std::deque<BarAccess *> bar_queue_;
  BarAccess *bar_cur_ = nullptr;
  bool aw_done_ = false, w_done_ = false, ar_done_ = false;

  std::deque<std::vector<uint8_t>> rx_queue_;
  size_t rx_off_ = 0;
};
