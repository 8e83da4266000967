// Two RnicNodes with host memory, PCIe models and an Ethernet link between them: frames put on
// the link at model level reach the far node's RX port and its BAR0 RX counters (delivery into
// the RTL), after the link's timing; a firmware panic raises the EQ's MSI-X vector, which reaches
// the host through the PCIe model as an sc_event (masked: held pending until unmasked).
#include <systemc.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "host/host_mem.h"
#include "host/pcie_model.h"
#include "host/sim_os.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "nic/rnic_node.h"
#include "tb_check.h"
extern "C" {
#include "rnic_fw.h"
#include "rnic_spec.h"
}

namespace {

struct NodesTest : sc_module {
  SC_HAS_PROCESS(NodesTest);
  NodesTest(sc_module_name n, RnicNode *a, RnicNode *b, EthLink *l, std::vector<uint8_t> trap)
      : sc_module(n), nic_{a, b}, link_(l), trap_(std::move(trap)) {
    SC_THREAD(run);
  }
  TbResults r;

 private:
  uint32_t cnt(int n, unsigned idx) { return nic_[n]->bar_read(RNIC_COUNTER_BASE + 4 * idx); }

  void run() {
    // 1. Frames from side 0 reach nic1's RX, counted there only, after serialization + delay.
    uint32_t f1 = cnt(1, RNIC_CNT_RX_FRAMES), b1 = cnt(1, RNIC_CNT_RX_BYTES), f0 = cnt(0, RNIC_CNT_RX_FRAMES);
    const size_t sizes[] = {60, 64, 130, 1500, 4154};
    uint32_t total = 0;
    sc_time t0 = sc_time_stamp();
    for (size_t s : sizes) {
      std::vector<uint8_t> f(s);
      for (size_t i = 0; i < s; i++) f[i] = uint8_t(i * 7 + s);
      link_->send(0, f);
      total += s;
    }
    wait(sc_time(300, SC_NS));  // the first frame is still on its way (>= 500 ns propagation)
    uint32_t early = cnt(1, RNIC_CNT_RX_FRAMES) - f1;
    wait(sc_time(5, SC_US));
    uint32_t df = cnt(1, RNIC_CNT_RX_FRAMES) - f1, db = cnt(1, RNIC_CNT_RX_BYTES) - b1;
    r.check(early == 0 && df == 5 && db == total && cnt(0, RNIC_CNT_RX_FRAMES) == f0, "nodes-link-frames-into-nic1-rtl",
            "early %u frames %u bytes %u/%u", early, df, db, total);
    uint32_t g0 = cnt(0, RNIC_CNT_RX_FRAMES), h0 = cnt(0, RNIC_CNT_RX_BYTES);
    for (int i = 0; i < 3; i++) link_->send(1, std::vector<uint8_t>(1000 + i, uint8_t(i)));
    wait(sc_time(3, SC_US));
    r.check(cnt(0, RNIC_CNT_RX_FRAMES) - g0 == 3 && cnt(0, RNIC_CNT_RX_BYTES) - h0 == 3003 &&
                cnt(1, RNIC_CNT_RX_FRAMES) - f1 == 5,
            "nodes-link-reverse-direction");
    r.check(link_->stats(0).delivered == 5 && link_->stats(1).delivered == 3 && nic_[0]->tx_frames_out().empty(),
            "nodes-link-counters");
    (void)t0;
    // A bounded RX FIFO drops what does not fit (8 KiB: five 1500-byte frames).
    nic_[1]->set_rx_fifo_bytes(8192);
    uint32_t f2 = cnt(1, RNIC_CNT_RX_FRAMES);
    for (int i = 0; i < 20; i++) nic_[1]->rx_frame(std::vector<uint8_t>(1500, uint8_t(i)));
    wait(sc_time(2, SC_US));
    r.check(cnt(1, RNIC_CNT_RX_FRAMES) - f2 == 5 && nic_[1]->rx_dropped() == 15, "nodes-rx-fifo-limit-drops",
            "took %u dropped %llu", cnt(1, RNIC_CNT_RX_FRAMES) - f2, (unsigned long long)nic_[1]->rx_dropped());
    nic_[1]->set_rx_fifo_bytes(0);

    // 2. MSI-X: a firmware panic raises the EQ vector; it reaches the host after the PCIe model.
    SimOsCtx osc{nic_[0], nullptr};
    rnic_os os = sim_os_for(&osc);
    nic_[0]->bar_write(RNIC_REG_EQ_EQ_MSIX_VECTOR, 5);
    uint64_t seen5 = nic_[0]->msix_count(5);
    int rc = rnic_fw_load(&os, trap_.data(), trap_.size(), 2000);
    bool got = nic_[0]->wait_msix(5, &seen5, sc_time(1, SC_MS));
    r.check(rc == 0 && got && seen5 == 1 && nic_[1]->msix_count(5) == 0, "nodes-msix-panic-vector-event",
            "rc %d got %d count %llu", rc, got, (unsigned long long)seen5);
    // Masked vector: stays pending, delivered once unmasked.
    nic_[0]->bar_write(RNIC_REG_EQ_EQ_MSIX_VECTOR, 7);
    nic_[0]->bar_write(RNIC_REG_MSIX_MSIX_MASK, 1u << 7);
    uint64_t seen7 = 0;
    rc = rnic_fw_load(&os, trap_.data(), trap_.size(), 2000);
    bool early7 = nic_[0]->wait_msix(7, &seen7, sc_time(300, SC_US));
    uint32_t pend = nic_[0]->bar_read(RNIC_REG_MSIX_MSIX_PENDING);
    nic_[0]->bar_write(RNIC_REG_MSIX_MSIX_MASK, 0);
    bool got7 = nic_[0]->wait_msix(7, &seen7, sc_time(10, SC_US));
    r.check(rc == 0 && !early7 && (pend >> 7 & 1) && got7 && seen7 == 1, "nodes-msix-masked-then-delivered",
            "rc %d early %d pending 0x%x got %d", rc, early7, pend, got7);
    sc_stop();
  }
  RnicNode *nic_[2];
  EthLink *link_;
  std::vector<uint8_t> trap_;
};

int test_nodes(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: test-nodes TRAP.img\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<uint8_t> trap((std::istreambuf_iterator<char>(in)), {});
  if (trap.empty()) {
    std::printf("FAIL nodes-trap-image-readable %s\n", argv[1]);
    return 1;
  }
  HostMem m0, m1;
  PcieCfg hostile;  // nic0 behind a hostile PCIe model: MSI-X acknowledged at random cycles
  hostile.hostile = true;
  hostile.seed = 3;
  PcieModel p0(m0, hostile), p1(m1);
  RnicNode n0("nic0"), n1("nic1");
  n0.attach_pcie(&p0);
  n1.attach_pcie(&p1);
  EthLink link("link", &n0, &n1);
  NodesTest t("nodes_test", &n0, &n1, &link, trap);
  sc_start();
  return t.r.exit_code();
}

SimProgram reg("test-nodes", "two NICs joined by the link model; RX delivery into the RTL; MSI-X events TRAP.img",
               test_nodes);

}  // namespace
