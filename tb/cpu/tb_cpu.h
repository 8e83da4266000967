// tb_cpu.h: harness around the verilated rv_cpu: clocking, host load port, an MMIO target with
// random grant/response delays, a RAM on the tightly coupled port answering loads 1..N cycles
// later, simulation-only registers (exit, putchar, irq control), and the retirement trace hook.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <vector>
#include "Vrv_cpu.h"
#include "main/sim_waves.h"
#include "verilated.h"

// Simulation-only MMIO registers decoded by this testbench.
enum : uint32_t {
  kMmioRamBase  = 0x40000000u,  // 4 KiB scratch RAM behind the (slow) MMIO port
  kMmioRamBytes = 0x1000u,
  kTcRamBase    = 0x30000000u,  // 4 KiB RAM behind the tightly coupled port
  kTcRamBytes   = 0x1000u,
  kSimIrqSet    = 0x4FFFFFE0u,  // write N: raise irq_ext_i N cycles later (stays up)
  kSimIrqClr    = 0x4FFFFFE4u,  // write: lower irq_ext_i
  kSimLatency   = 0x4FFFFFE8u,  // write (G<<16)|R: max grant delay G, max response delay R
  kSimCycle     = 0x4FFFFFECu,  // read: testbench cycle counter
  kSimExit      = 0x4FFFFFF0u,  // write: exit code, ends the run
  kSimPutc      = 0x4FFFFFF4u,  // write: character to stdout
};

struct Retire {
  uint32_t pc, insn, rd, wdata;
  bool we, trap;
};

class CpuHarness {
 public:
  explicit CpuHarness(uint64_t seed) : rng_(seed) {
    m_ = new Vrv_cpu;
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->ld_req_i = 0;
    m_->dbg_req_i = 0;
    m_->irq_ext_i = 0;
    waves_.open(m_, "cpu");
    m_->mmio_gnt_i = 0;
    m_->mmio_rvalid_i = 0;
    m_->mmio_rdata_i = 0;
    m_->tc_rvalid_i = 0;
    m_->tc_rdata_i = 0;
    for (int i = 0; i < 4; i++) cycle();
    gnt_wait_ = pick(max_gnt_);
  }
  ~CpuHarness() { waves_.close(); m_->final(); delete m_; }

  // ---- host load port (core held in reset)
  void host_write(uint32_t addr, uint32_t data) {
    m_->ld_req_i = 1; m_->ld_we_i = 1; m_->ld_addr_i = addr; m_->ld_wdata_i = data;
    cycle();
    m_->ld_req_i = 0; m_->ld_we_i = 0;
  }
  uint32_t host_read(uint32_t addr) {
    m_->ld_req_i = 1; m_->ld_we_i = 0; m_->ld_addr_i = addr;
    cycle();
    m_->ld_req_i = 0;
    m_->eval();
    uint32_t v = m_->ld_rvalid_o ? m_->ld_rdata_o : 0xDEADBEEFu;
    return v;
  }
  void release_reset() { m_->rst_ni = 1; }
  void hold_reset() { m_->rst_ni = 0; }
  // debug read port onto DMEM (works whether the core runs or not)
  uint32_t dbg_read(uint32_t addr) {
    m_->dbg_req_i = 1; m_->dbg_addr_i = addr;
    cycle();
    m_->dbg_req_i = 0;
    m_->eval();
    return m_->dbg_rvalid_o ? m_->dbg_rdata_o : 0xDEADBEEFu;
  }

  // raise irq_ext_i again 1..max cycles after each clear (0: only on request)
  void set_auto_irq(unsigned max) { auto_irq_ = max; }
  void set_latency(unsigned g, unsigned r) { max_gnt_ = g; max_rsp_ = r; gnt_wait_ = pick(g); }
  // tightly coupled loads answered 1..n cycles after their request (rnic_fw_subsys: 1 or 2)
  void set_tc_latency(unsigned n) { max_tc_ = n ? n : 1; }
  const uint8_t* tc_ram() const { return reinterpret_cast<const uint8_t*>(tc_ram_); }

  // ---- one clock cycle
  void cycle() {
    m_->clk_i = 0;
    if (auto_irq_ && m_->rst_ni && !irq_ && !irq_at_) irq_at_ = cyc_ + 1 + pick(auto_irq_);
    if (irq_at_ && cyc_ >= irq_at_) { irq_ = true; irq_at_ = 0; }
    m_->irq_ext_i = irq_;
    m_->mmio_rvalid_i = 0;
    if (pend_ && rsp_wait_ == 0) { m_->mmio_rvalid_i = 1; m_->mmio_rdata_i = pend_data_; }
    m_->mmio_gnt_i = 0;
    m_->tc_rvalid_i = tc_pend_ && tc_wait_ == 0;
    m_->tc_rdata_i = m_->tc_rvalid_i ? tc_data_ : 0xBADC0DE1u;
    m_->eval();
    bool gnt = false;
    if (m_->rst_ni && m_->mmio_req_o) {
      if (gnt_wait_ == 0) gnt = true; else gnt_wait_--;
      m_->mmio_gnt_i = gnt;
      m_->eval();
    }
    waves_.sample(false);
    if (m_->mmio_rvalid_i) pend_ = false;
    else if (pend_) rsp_wait_--;
    if (m_->tc_rvalid_i) tc_pend_ = false;
    else if (tc_pend_) tc_wait_--;
    // tc_go_o: every accepted data request (any address); tc_req_o is it with a tc address
    if (m_->rst_ni && m_->tc_req_o != (m_->tc_go_o && (m_->tc_addr_o >> 28) == (kTcRamBase >> 28))) {
      std::fprintf(stderr, "FAIL tc port: tc_req_o %d, tc_go_o %d, address %08x at cycle %llu\n",
                   m_->tc_req_o, m_->tc_go_o, m_->tc_addr_o, (unsigned long long)cyc_);
      std::exit(1);
    }
    if (m_->rst_ni && m_->tc_req_o) {   // a store takes effect at its request, a load is read there
      uint32_t& w = tc_ram_[(m_->tc_addr_o - kTcRamBase) % kTcRamBytes / 4];
      if (m_->tc_we_o) {
        for (int i = 0; i < 4; i++)
          if (m_->tc_be_o & (1u << i)) w = (w & ~(0xFFu << (8 * i))) | (m_->tc_wdata_o & (0xFFu << (8 * i)));
      } else {
        tc_pend_ = true; tc_data_ = w; tc_wait_ = pick(max_tc_ - 1);
      }
    }
    if (gnt) {
      uint32_t a = m_->mmio_addr_o;
      if (m_->mmio_we_o) mmio_write(a, m_->mmio_wdata_o, m_->mmio_be_o);
      else { pend_ = true; pend_data_ = mmio_read(a); rsp_wait_ = pick(max_rsp_ ? max_rsp_ - 1 : 0); }
      gnt_wait_ = pick(max_gnt_);
    }
    if (m_->rst_ni && m_->ret_valid_o && on_retire) {
      Retire r{m_->ret_pc_o, m_->ret_insn_o, m_->ret_rd_o, m_->ret_rd_wdata_o,
               (bool)m_->ret_rd_we_o, (bool)m_->ret_trap_o};
      on_retire(r);
    }
    m_->clk_i = 1;
    m_->eval();
    waves_.sample(true);
    cyc_++;
  }

  Vrv_cpu* m_;
  Waves waves_;  // FST when asked for (sim/main/sim_waves.h)
  uint64_t cyc_ = 0;
  bool exited_ = false;
  uint32_t exit_code_ = 0;
  std::string out_;
  std::function<void(const Retire&)> on_retire;

 private:
  unsigned pick(unsigned max) { return max ? (unsigned)(rng_() % (max + 1)) : 0; }
  uint32_t mmio_read(uint32_t a) {
    if (a >= kMmioRamBase && a < kMmioRamBase + kMmioRamBytes) return ram_[(a - kMmioRamBase) / 4];
    if (a == kSimCycle) return (uint32_t)cyc_;
    return 0xBADC0DE0u;
  }
  void mmio_write(uint32_t a, uint32_t d, unsigned be) {
    if (a >= kMmioRamBase && a < kMmioRamBase + kMmioRamBytes) {
      uint32_t& w = ram_[(a - kMmioRamBase) / 4];
      for (int i = 0; i < 4; i++)
        if (be & (1u << i)) w = (w & ~(0xFFu << (8 * i))) | (d & (0xFFu << (8 * i)));
      return;
    }
    switch (a & ~3u) {
      case kSimIrqSet: irq_at_ = cyc_ + (d ? d : 1); break;
      case kSimIrqClr: irq_ = false; irq_at_ = 0; break;
      case kSimLatency: set_latency(d >> 16, d & 0xFFFF); break;
      case kSimExit: exited_ = true; exit_code_ = d; break;
      case kSimPutc: {
        char c = (char)(d >> (8 * (a & 3)));
        putchar(c); if (c == '\n') fflush(stdout);
        break;
      }
      default: break;
    }
  }

  std::mt19937_64 rng_;
  unsigned max_gnt_ = 0, max_rsp_ = 1;
  unsigned gnt_wait_ = 0, rsp_wait_ = 0;
  bool pend_ = false;
  uint32_t pend_data_ = 0;
  unsigned max_tc_ = 1, tc_wait_ = 0;
  bool tc_pend_ = false;
  uint32_t tc_data_ = 0;
  uint32_t tc_ram_[kTcRamBytes / 4] = {};
  bool irq_ = false;
  unsigned auto_irq_ = 0;
  uint64_t irq_at_ = 0;
  uint32_t ram_[kMmioRamBytes / 4] = {};
};
