// elf_runner: loads an RV32 ELF into rv_cpu through the host load port (core in reset), runs it
// until it writes the simulation exit register, and returns the exit code.
//   Vrv_cpu elf FILE [--max-cycles N] [--seed S] [--lat G,R] [--quiet]
//   Vrv_cpu random ...   (lock-step random test, see lockstep.cpp)
#include <cstdlib>
#include <cstring>
#include <string>
#include "tb_rerun.h"
#include "elf32.h"
#include "tb_cpu.h"

int lockstep_main(int argc, char** argv);

static int elf_main(int argc, char** argv) {
  const char* file = nullptr;
  uint64_t max_cycles = 20000000, seed = 1;
  unsigned lat_g = 0, lat_r = 1;
  bool quiet = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) max_cycles = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--lat") && i + 1 < argc) sscanf(argv[++i], "%u,%u", &lat_g, &lat_r);
    else if (!strcmp(argv[i], "--quiet")) quiet = true;
    else file = argv[i];
  }
  if (!file) { fprintf(stderr, "usage: Vrv_cpu elf FILE [--max-cycles N] [--seed S] [--lat G,R]\n"); return 2; }
  std::string name = file;
  name = name.substr(name.find_last_of('/') + 1);
  Elf32Image img;
  if (!img.load(file)) { printf("FAIL elf:%s load: %s\n", name.c_str(), img.error.c_str()); tb_print_rerun(); return 1; }
  if (!quiet) printf("# %s seed=%llu mmio-latency=%u,%u\n", name.c_str(), (unsigned long long)seed, lat_g, lat_r);

  CpuHarness h(seed);
  h.set_latency(lat_g, lat_r);
  for (auto& kv : img.words) h.host_write(kv.first, kv.second);
  // read back through the host port
  unsigned bad = 0, checked = 0;
  for (auto& kv : img.words) {
    if (checked++ >= 64) break;
    if (h.host_read(kv.first) != kv.second) bad++;
  }
  if (bad) { printf("FAIL elf:%s host-port readback: %u mismatches\n", name.c_str(), bad); tb_print_rerun(); return 1; }
  h.release_reset();
  uint64_t retired = 0, start = h.cyc_;
  h.on_retire = [&](const Retire&) { retired++; };
  while (!h.exited_ && h.cyc_ - start < max_cycles) h.cycle();
  fflush(stdout);
  if (!h.exited_) {
    printf("FAIL elf:%s timeout after %llu cycles (pc trace last retired %llu)\n", name.c_str(),
           (unsigned long long)max_cycles, (unsigned long long)retired); tb_print_rerun();
    return 1;
  }
  if (!quiet)
    printf("# %s: exit=%u cycles=%llu retired=%llu\n", name.c_str(), h.exit_code_,
           (unsigned long long)(h.cyc_ - start), (unsigned long long)retired);
  if (h.exit_code_ != 0) {
    printf("FAIL elf:%s exit code %u\n", name.c_str(), h.exit_code_); tb_print_rerun();
    return (int)(h.exit_code_ & 0x7F) ? (int)(h.exit_code_ & 0x7F) : 1;
  }
  printf("PASS elf:%s\n", name.c_str());
  return 0;
}

int main(int argc, char** argv) {
  waves_setup(argc, argv);
  Verilated::commandArgs(argc, argv);
  if (argc >= 2 && !strcmp(argv[1], "elf")) return elf_main(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "random")) return lockstep_main(argc - 2, argv + 2);
  fprintf(stderr, "usage: Vrv_cpu elf FILE ... | random ...\n");
  return 2;
}
