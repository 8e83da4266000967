// `rnic_sim ivshmem --sock PATH --shm PATH --ram PATH [options]`: one simulated NIC served to a
// QEMU guest (ivs_front.h). Start it first, then QEMU with
//   -object memory-backend-file,id=mem,size=RAM,mem-path=RAMPATH,share=on -machine q35,memory-backend=mem
//   -chardev socket,path=SOCK,id=ivs -device ivshmem-doorbell,chardev=ivs,vectors=N
// It runs until QEMU disconnects (or --timeout) and prints what it served.
#include <systemc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/pcie_model.h"
#include "ivshmem/ivs_front.h"
#include "main/sim_program.h"

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "rnic_sim ivshmem: %s\n"
               "usage: rnic_sim ivshmem --sock PATH --shm PATH --ram PATH [--ram-size BYTES] [--shm-size BYTES]\n"
               "                        [--vectors N] [--idle-ms MS] [--timeout SECONDS]\n"
               "  one simulated NIC for a QEMU guest's ivshmem-doorbell device (docs/kernel-module.md):\n"
               "  SOCK the ivshmem server socket, SHM the shared memory it hands out (created),\n"
               "  RAM the guest's memory-backend-file (created at --ram-size, default 1 GiB);\n"
               "  SIGUSR1: the device is removed from then on (reads all-ones, writes dropped).\n",
               why);
  return 2;
}

uint64_t parse_size(const char *s, bool *ok) {
  char *end = nullptr;
  uint64_t v = std::strtoull(s, &end, 0);
  uint64_t mul = 1;
  if (*end == 'K' || *end == 'k') mul = 1ull << 10, end++;
  else if (*end == 'M') mul = 1ull << 20, end++;
  else if (*end == 'G') mul = 1ull << 30, end++;
  *ok = *end == 0 && v > 0;
  return v * mul;
}

int ivs_main(int argc, char **argv) {
  IvsFrontCfg cfg;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (i + 1 >= argc) return usage((a + " needs a value").c_str());
    const char *v = argv[++i];
    bool ok = true;
    if (a == "--sock") cfg.sock = v;
    else if (a == "--shm") cfg.shm_path = v;
    else if (a == "--ram") cfg.ram_path = v;
    else if (a == "--ram-size") cfg.ram_bytes = parse_size(v, &ok);
    else if (a == "--shm-size") cfg.shm_bytes = parse_size(v, &ok);
    else if (a == "--vectors") cfg.vectors = unsigned(std::strtoul(v, nullptr, 0));
    else if (a == "--idle-ms") cfg.idle_ms = std::strtod(v, nullptr);
    else if (a == "--timeout") cfg.timeout_s = std::strtod(v, nullptr);
    else return usage(("unknown option " + a).c_str());
    if (!ok) return usage(("bad size " + std::string(v)).c_str());
  }
  if (cfg.sock.empty() || cfg.shm_path.empty() || cfg.ram_path.empty()) return usage("--sock, --shm and --ram are needed");
  if (cfg.vectors < 1 || cfg.vectors > RnicNode::kMsixVectors) return usage("--vectors takes 1..32");
  // q35 keeps guest RAM below the PCI hole only up to 2 GiB: beyond it file offset != address.
  if (cfg.ram_bytes > (2ull << 30)) return usage("--ram-size at most 2G (guest-physical == file offset)");
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  auto wall0 = std::chrono::steady_clock::now();

  HostMem mem;
  RnicNode node("nic0");
  IvsFront *fp = nullptr;
  PcieCfg pc;
  // DMA outside the guest's RAM answers SLVERR, as a host bridge would for an unbacked address.
  pc.err_fn = [&fp](uint64_t a, uint64_t len, bool) { return fp && fp->ram().outside(a, len) ? 2u : 0u; };
  PcieModel pcie(mem, pc);
  node.attach_pcie(&pcie);
  IvsFront front("ivs", &node, cfg);
  if (!front.ok()) {
    std::fprintf(stderr, "rnic_sim ivshmem: %s\n", front.error().c_str());
    return 2;
  }
  fp = &front;
  ivs_remove_on_sigusr1();
  mem.map_base(&front.ram());
  std::printf("rnic_sim ivshmem: listening on %s (%u vectors, %llu MiB guest RAM %s)\n", cfg.sock.c_str(), cfg.vectors,
              (unsigned long long)(cfg.ram_bytes >> 20), cfg.ram_path.c_str());
  std::fflush(stdout);
  sc_start();
  mem.map_base(nullptr);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("rnic_sim ivshmem: %s; simulated %.3f ms, %llu NIC cycles, wall %.1f s\n",
              front.timed_out ? "wall-clock timeout" : front.guest_seen ? "guest disconnected" : "no guest",
              sc_time_stamp().to_seconds() * 1e3, (unsigned long long)node.cycles(), wall);
  std::printf("rnic_sim ivshmem: %llu register requests (%llu reads, %llu writes, %llu doorbells, %llu SLVERR), "
              "%llu doorbell rings, %llu MSI-X forwarded; DMA %llu bytes read, %llu written, %llu refused\n",
              (unsigned long long)front.requests, (unsigned long long)front.reads, (unsigned long long)front.writes,
              (unsigned long long)front.doorbells, (unsigned long long)front.slverr, (unsigned long long)front.rings,
              (unsigned long long)front.msix, (unsigned long long)front.ram().read_bytes,
              (unsigned long long)front.ram().written_bytes, (unsigned long long)front.ram().refused);
  std::printf("rnic_sim ivshmem: %llu doorbells from the mmapped pages", (unsigned long long)front.page_doorbells);
  if (front.page_doorbells)
    std::printf(", the last page %u offset 0x%03x value 0x%08x", front.last_db_page, front.last_db_off, front.last_db_val);
  std::printf("\n");
  if (front.removed) std::printf("rnic_sim ivshmem: the device was removed (SIGUSR1) during the run\n");
  if (!front.error().empty()) std::printf("rnic_sim ivshmem: error: %s\n", front.error().c_str());
  return front.timed_out || !front.error().empty() ? 1 : 0;
}

}  // namespace

static SimProgram reg("ivshmem", "one simulated NIC for a QEMU guest's kernel module (ivshmem-doorbell)", ivs_main);
