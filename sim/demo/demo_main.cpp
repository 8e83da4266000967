// `make demo`: brings up the simulated NICs under the SystemC harness and reports, in simulated
// time, what the host driver's discovery code reads from each one over BAR0.
#include <systemc.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "host/sim_os.h"
#include "main/sim_program.h"
#include "nic/rnic_node.h"
extern "C" {
#include "rnic_discover.h"
#include "rnic_fw.h"
#include "rnic_spec.h"
}

struct HostProbe : sc_module {
  SC_HAS_PROCESS(HostProbe);
  HostProbe(sc_module_name n, std::vector<RnicNode *> nics) : sc_module(n), nics_(nics) { SC_THREAD(run); }
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
    sc_stop();
  }
  std::vector<RnicNode *> nics_;
};

static int demo_main(int argc, char **argv) {
  int n = 2;
  for (int i = 1; i < argc; i++)
    if (!std::strcmp(argv[i], "--nics") && i + 1 < argc) n = std::atoi(argv[++i]);
  if (n < 1 || n > 16) {
    std::fprintf(stderr, "demo: --nics must be 1..16\n");
    return 2;
  }
  std::vector<std::unique_ptr<RnicNode>> nics;
  std::vector<RnicNode *> ptrs;
  for (int i = 0; i < n; i++) {
    nics.emplace_back(new RnicNode(("nic" + std::to_string(i)).c_str()));
    ptrs.push_back(nics.back().get());
  }
  HostProbe host("host", ptrs);
  std::printf("demo: %d simulated NIC(s), 250 MHz, verilated rnic_core under SystemC\n", n);
  sc_start();
  std::printf("demo: done at %.3f us simulated, %llu cycles per NIC\n", sc_time_stamp().to_seconds() * 1e6,
              (unsigned long long)ptrs[0]->cycles());
  return host.failures ? 1 : 0;
}

static SimProgram reg("demo", "bring up the simulated NICs and report what the driver discovers", demo_main);
