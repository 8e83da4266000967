#include <systemc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "main/sim_program.h"

std::map<std::string, std::pair<SimProgramFn, std::string>> &sim_programs() {
  static std::map<std::string, std::pair<SimProgramFn, std::string>> progs;
  return progs;
}

// On a terminal, long runs show a status line on stderr (program, wall time, simulated time
// reached, simulated time per wall second), redrawn every second after the first two and erased
// at the end. Logs (CI) get nothing: stderr is not a terminal there. A wall-clock thread, not a
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
      for (int tick = 0; !done.load(); tick++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (tick % 10 != 9) continue;
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double us = ctx->time_stamp().to_seconds() * 1e6;
        if (wall >= 2.0) {
          // ends at column 0, so the program's own next line writes over it
          std::fprintf(stderr, "\r\033[K[%s] %.0f s, simulated %.1f us (%.1f us/s)\r", prog.c_str(), wall, us, us - last_us);
          shown = true;
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
  if (argc < 2 || !sim_programs().count(argv[1])) {
    std::fprintf(stderr, "usage: %s PROGRAM [args]\nprograms:\n", argv[0]);
    for (auto &p : sim_programs()) std::fprintf(stderr, "  %-16s %s\n", p.first.c_str(), p.second.second.c_str());
    return 2;
  }
  Progress progress(argv[1]);
  return sim_programs()[argv[1]].first(argc - 1, argv + 1);
}
