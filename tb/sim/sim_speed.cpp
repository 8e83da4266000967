// Simulation speed: N idle NICs (firmware running, PCIe models and links attached in pairs),
// simulated NIC clock cycles per wall-clock second. Wall time is only measured, never fed back.
#include <systemc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "host/host_mem.h"
#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "nic/rnic_node.h"

namespace {

int sim_speed(int argc, char **argv) {
  int n = 2;
  double us = 400;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--nics") && i + 1 < argc) n = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--us") && i + 1 < argc) us = std::atof(argv[++i]);
  }
  if (n < 1 || n > 16 || us <= 0) {
    std::fprintf(stderr, "usage: sim-speed [--nics N] [--us SIM_MICROSECONDS]\n");
    return 2;
  }
  std::vector<std::unique_ptr<HostMem>> mem;
  std::vector<std::unique_ptr<PcieModel>> pcie;
  std::vector<std::unique_ptr<RnicNode>> nics;
  std::vector<std::unique_ptr<EthLink>> links;
  for (int i = 0; i < n; i++) {
    mem.emplace_back(new HostMem);
    pcie.emplace_back(new PcieModel(*mem.back()));
    nics.emplace_back(new RnicNode(("nic" + std::to_string(i)).c_str()));
    nics.back()->attach_pcie(pcie.back().get());
  }
  for (int i = 0; i + 1 < n; i += 2)
    links.emplace_back(new EthLink(("link" + std::to_string(i / 2)).c_str(), nics[i].get(), nics[i + 1].get()));
  sc_start(sc_time(1, SC_US));  // elaboration and reset out of the measurement
  uint64_t c0 = nics[0]->cycles();
  auto w0 = std::chrono::steady_clock::now();
  sc_start(sc_time(us, SC_US));
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  uint64_t cyc = nics[0]->cycles() - c0;
  std::printf("INFO sim-speed %d idle NICs: %llu cycles each in %.3f s wall = %.0f NIC cycles/s per NIC "
              "(%.0f node-cycles/s, %.1f us simulated per wall second)\n",
              n, (unsigned long long)cyc, wall, cyc / wall, n * cyc / wall, us / wall);
  return 0;
}

SimProgram reg("sim-speed", "idle NICs: simulated cycles per wall-clock second [--nics N --us T]", sim_speed);

}  // namespace
