// `rnic_sim demo-hosts`: two simulated NICs, each behind its own host (memory and PCIe model), joined by a
// 100G link. The hosts discover their NICs over BAR0, read the firmware's boot log, then do RDMA
// through the driver core and the provider's data path; the report is in simulated time.
#include <systemc.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "host/pcie_model.h"
#include "host/sim_os.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "nic/rnic_node.h"
#include "sys/rdma_host.h"
extern "C" {
#include "rnic_discover.h"
#include "rnic_fw.h"
#include "rnic_spec.h"
}
#include "sys/two_nics.h"

struct HostProbe : sc_module {
  SC_HAS_PROCESS(HostProbe);
  HostProbe(sc_module_name n, std::vector<RnicNode *> nics, RdmaHost *a, RdmaHost *b)
      : sc_module(n), nics_(nics), a_(a), b_(b) {
    SC_THREAD(run);
  }
  int failures = 0;

 private:
  void run() {
    for (RnicNode *nic : nics_) {
      SimOsCtx osc{nic, nullptr};
    rnic_os os = sim_os_for(&osc);
      rnic_dev_info info;
      sc_time t0 = sc_time_stamp();
      int rc = rnic_discover(&os, &info);
      if (rc) {
        std::printf("%s: discovery failed (%d)\n", nic->name(), rc);
        failures++;
        continue;
      }
      std::printf("%s: PCI %04x:%04x  hw %u.%u  spec 0x%08x (host 0x%08x)  %u MHz  %u-bit datapath  %u core(s)\n",
                  nic->name(), info.vendor_id, info.device_id, info.hw_version >> 16, info.hw_version & 0xffff,
                  info.spec_hash, RNIC_SPEC_HASH, info.clock_mhz, info.data_width, info.num_cores);
      std::printf("%s: register blocks:", nic->name());
      for (unsigned i = 0; i < info.num_blocks; i++) {
        char nm[5];
        rnic_block_name(info.blocks[i].type, nm);
        std::printf(" %s@0x%03x", nm, info.blocks[i].base);
      }
      std::printf("\n%s: discovery took %.0f ns of simulated time\n", nic->name(),
                  (sc_time_stamp() - t0).to_seconds() * 1e9);
      // The firmware boots from the baked-in image; wait for it to report READY.
      while (rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY && sc_time_stamp() < sc_time(1, SC_MS))
        wait(sc_time(1, SC_US));
      uint32_t fwv = rnic_rd32(&os, RNIC_REG_CPU_FW_VERSION);
      char logbuf[256];
      int n = rnic_fw_log_read(&os, logbuf, sizeof(logbuf));
      if (rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY || n <= 0) {
        std::printf("%s: firmware did not come up (cpu_status 0x%x)\n", nic->name(),
                    rnic_rd32(&os, RNIC_REG_CPU_CPU_STATUS));
        failures++;
        continue;
      }
      std::printf("%s: firmware %u.%u ready by %.2f us (heartbeat %u); log read over BAR0:\n", nic->name(),
                  fwv >> 16, fwv & 0xffff, sc_time_stamp().to_seconds() * 1e6,
                  rnic_rd32(&os, RNIC_REG_CPU_HEARTBEAT));
      for (char *line = std::strtok(logbuf, "\n"); line; line = std::strtok(nullptr, "\n"))
        std::printf("%s:   | %s\n", nic->name(), line);
    }
    if (!failures) rdma();
    sc_stop();
  }

  void report(bool ok, const char *what, sc_time t0) {
    std::printf("rdma: %-44s %s  (%.2f us)\n", what, ok ? "ok" : "FAILED", (sc_time_stamp() - t0).to_seconds() * 1e6);
    failures += !ok;
  }

  // The hosts open their NICs, register 1 MiB each, connect an RC QP pair, and move data.
  void rdma() {
    sc_time t0 = sc_time_stamp();
    bool ok = a_->open() && b_->open();
    uint64_t abuf = a_->mem->alloc(1u << 20, 1u << 21), bbuf = b_->mem->alloc(1u << 20, 1u << 21);
    uint32_t akey = 0, bkey = 0;
    ok = ok && a_->reg_mr(abuf, 1u << 20, &akey, 21) && b_->reg_mr(bbuf, 1u << 20, &bkey, 21);
    ok = ok && a_->connect(*b_, 0x10, 0x20) && b_->connect(*a_, 0x20, 0x10);
    report(ok, "open, register 1 MiB, connect QPs (commands)", t0);
    if (!ok) {
      std::printf("rdma: %s%s\n", a_->err.c_str(), b_->err.c_str());
      return;
    }
    std::vector<uint8_t> pat(65536);
    for (size_t i = 0; i < pat.size(); i++) pat[i] = uint8_t(i * 13 + 1);
    a_->mem->write(abuf, pat.data(), pat.size());
    rnicp_wc wc, bw;

    t0 = sc_time_stamp();
    rnicp_sge sge{abuf, 65536, akey};
    rnicp_send_wr wr{};
    wr.wr_id = 1;
    wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
    wr.flags = RNICP_WR_SIGNALED;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.remote_addr = bbuf;
    wr.rkey = bkey;
    ok = a_->post_send(wr) > 0 && a_->poll(&wc, 1, sc_time(1, SC_MS)) == 1 && wc.status == 0 &&
         b_->mem->read_vec(bbuf, 65536) == pat;
    report(ok, "nic0 RDMA WRITE 64 KiB to nic1, data checked", t0);

    t0 = sc_time_stamp();
    rnicp_sge rs{bbuf + 0x80000, 4096, bkey};
    rnicp_recv_wr rwr{7, &rs, 1};
    sge.length = 4096;
    wr.wr_id = 2;
    wr.opcode = RNIC_WQE_OP_SEND_WITH_IMM;
    wr.imm_data = 0xC0FFEE;
    ok = b_->post_recv(rwr) == 0 && a_->post_send(wr) > 0 && a_->poll(&wc, 1, sc_time(1, SC_MS)) == 1 &&
         b_->poll(&bw, 1, sc_time(1, SC_MS)) == 1 && wc.status == 0 && bw.status == 0 && bw.byte_len == 4096 &&
         bw.imm_data == 0xC0FFEE && b_->mem->read_vec(bbuf + 0x80000, 4096) ==
                                        std::vector<uint8_t>(pat.begin(), pat.begin() + 4096);
    report(ok, "nic0 SEND_WITH_IMM 4 KiB into nic1's receive", t0);

    t0 = sc_time_stamp();
    rnicp_sge rd{abuf + 0x80000, 4096, akey};
    wr.wr_id = 5;
    wr.opcode = RNIC_WQE_OP_RDMA_READ;
    wr.sg_list = &rd;
    wr.remote_addr = bbuf;  // the 64 KiB written above
    ok = a_->post_send(wr) > 0 && a_->poll(&wc, 1, sc_time(1, SC_MS)) == 1 && wc.status == 0 &&
         wc.opcode == RNIC_WC_OPCODE_RDMA_READ &&
         a_->mem->read_vec(abuf + 0x80000, 4096) == std::vector<uint8_t>(pat.begin(), pat.begin() + 4096);
    report(ok, "nic0 RDMA READ 4 KiB from nic1, data checked", t0);
    wr.sg_list = &sge;

    t0 = sc_time_stamp();
    wr.wr_id = 3;
    wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
    sge.length = 8;
    ok = a_->post_send(wr) > 0 && a_->poll(&wc, 1, sc_time(1, SC_MS)) == 1 && wc.status == 0;
    report(ok, "nic0 RDMA WRITE 8 B, doorbell to CQE", t0);

    t0 = sc_time_stamp();
    wr.wr_id = 4;
    wr.rkey = bkey ^ 0x1;  // a key variant that was never issued
    ok = a_->post_send(wr) > 0 && a_->poll(&wc, 1, sc_time(5, SC_MS)) == 1 &&
         wc.status == RNIC_WC_STATUS_REM_ACCESS_ERR;
    report(ok, "WRITE with a bad rkey: REM_ACCESS_ERR completion", t0);
    uint32_t txf = rnic_rd32(&a_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_TX_FRAMES);
    uint32_t rxf = rnic_rd32(&b_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_FRAMES);
    std::printf("rdma: nic0 sent %u frames, nic1 received %u; link capture in build/demo-hosts.pcap\n", txf, rxf);
  }
  std::vector<RnicNode *> nics_;
  RdmaHost *a_, *b_;
};

static int demo_main(int, char **) {
  EthLinkCfg lc;
  lc.pcap_path = "build/demo-hosts.pcap";
  TwoNics<RdmaHost> s(lc);
  HostProbe host("host", {&s.na, &s.nb}, &s.a, &s.b);
  std::printf("demo: two simulated NICs (verilated rnic_core, 250 MHz, 512-bit) under SystemC, each behind a\n"
              "      host with a PCIe model (500 ns reads), joined by a 100 Gb/s link\n");
  sc_start();
  std::printf("demo: %s at %.3f us simulated, %llu cycles per NIC\n", host.failures ? "FAILED" : "done",
              sc_time_stamp().to_seconds() * 1e6, (unsigned long long)s.na.cycles());
  return host.failures ? 1 : 0;
}

static SimProgram reg("demo-hosts", "two NICs driven by the testbench hosts: discovery, firmware boot, RDMA WRITE/SEND/READ", demo_main);
