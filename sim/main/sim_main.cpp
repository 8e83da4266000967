#include <systemc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "main/sim_program.h"
#include "main/sim_waves.h"
#include "nic/rnic_node.h"

std::map<std::string, std::pair<SimProgramFn, std::string>> &sim_programs() {
  static std::map<std::string, std::pair<SimProgramFn, std::string>> progs;
  return progs;
}

// On a terminal, long runs show their progress on stderr (program, wall time, simulated time
// reached, simulated time per wall second): a status line redrawn every second when stdout goes
// elsewhere, else (the program's own lines share the terminal) a full line every 10 s. Nothing
// before 2 s. Logs (CI) get nothing: stderr is not a terminal there. A wall-clock thread, not a
// SystemC process, so it adds no event to the simulation; it only reads the current time for
// display. `run` is left out: its COMMAND owns the terminal. RNIC_NO_PROGRESS=1 turns it off.
namespace {
struct Progress {
  std::atomic<bool> done{false};
  std::thread th;
  explicit Progress(const std::string &prog) {
    if (prog == "run" || !isatty(2) || std::getenv("RNIC_NO_PROGRESS")) return;
    sc_simcontext *ctx = sc_get_curr_simcontext();  // created here, on the main thread
    th = std::thread([this, prog, ctx] {
      auto t0 = std::chrono::steady_clock::now();
      double last_us = 0;
      bool shown = false;
      const bool inplace = !isatty(1);
      const int every = inplace ? 10 : 100;  // ticks of 100 ms
      for (int tick = 1; !done.load(); tick++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (tick % every) continue;
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double us = ctx->time_stamp().to_seconds() * 1e6;
        if (wall >= 2.0) {
          std::fprintf(stderr, "%s[%s] %.0f s, simulated %.1f us (%.1f us/s)%s", inplace ? "\r\033[K" : "", prog.c_str(),
                       wall, us, (us - last_us) / (every / 10.0), inplace ? "" : "\n");
          shown = inplace;
        }
        last_us = us;
      }
      if (shown) std::fprintf(stderr, "\r\033[K");
    });
  }
  ~Progress() {
    done = true;
    if (th.joinable()) th.join();
  }
};
}  // namespace

int sc_main(int argc, char **argv) {
  waves_setup(argc, argv);  // --waves FILE, --waves-from/--waves-to, WAVES=1: for every program
  if (argc < 2 || !sim_programs().count(argv[1])) {
    std::fprintf(stderr, "usage: %s PROGRAM [args]\nprograms:\n", argv[0]);
    for (auto &p : sim_programs()) std::fprintf(stderr, "  %-16s %s\n", p.first.c_str(), p.second.second.c_str());
    return 2;
  }
  Progress progress(argv[1]);
  int rc = sim_programs()[argv[1]].first(argc - 1, argv + 1);
  // The nodes' port monitors printed their FAIL lines when the nodes went; a run with any
  // protocol violation fails whatever the program's own checks said.
  if (rnic_protocol_violations()) {
    std::printf("FAIL protocol-monitors %llu port protocol violations\n", (unsigned long long)rnic_protocol_violations());
    rc = rc ? rc : 1;
  }
  return rc;
}
