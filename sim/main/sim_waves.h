// Waveforms on demand (issue 11): an FST of a verilated model, written only by the trace build.
//
// Asking for waves: `--waves FILE`, or WAVES=1 in the environment (file named after the program
// and its arguments, in $WAVES_DIR, default ./waves), or WAVES=FILE.fst. A window in simulated
// time: `--waves-from T` / `--waves-to T` (or WAVES_FROM / WAVES_TO), T a number with an optional
// unit ps/ns/us/ms/s (default ns). The normal build (no --trace-fst) compiles every call here to
// nothing, so it pays nothing and its cycle counts stay as they are; asked for waves, it runs
// `make WAVES=1 build/waves/<its own path>` in its checkout (the trace build of the same model,
// see docs/development.md "Waveforms") and replaces itself by that binary, same arguments.
// Used by the simulator (sim/nic/rnic_node.cpp) and by the block testbenches (tb/<block>/).
#pragma once
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>

#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

struct WavesConfig {
  bool on = false;
  std::string file;        // of the first model; further models insert ".N-TAG" before ".fst"
  uint64_t from_ps = 0;    // dump only from..to, in simulated picoseconds
  uint64_t to_ps = UINT64_MAX;
  unsigned opened = 0;     // models traced so far in this process
};

inline WavesConfig &waves_config() {
  static WavesConfig c;
  return c;
}

// "12", "12ns", "3.5us", "2ms": simulated time in ps; false if it is not one.
inline bool waves_parse_time(const char *s, uint64_t *ps) {
  char *end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || v < 0) return false;
  std::string u(end);
  double mul = u.empty() || u == "ns" ? 1e3 : u == "ps" ? 1 : u == "us" ? 1e6 : u == "ms" ? 1e9 : u == "s" ? 1e12 : -1;
  if (mul < 0) return false;
  *ps = uint64_t(v * mul + 0.5);
  return true;
}

// The normal build cannot trace: build the trace build of this very binary and run that instead.
// Returns only if that is impossible (then the caller stops with a message).
inline void waves_exec_trace_build(char **argv) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return;
  std::string p(exe, size_t(n));
  size_t b = p.rfind("/build/");
  if (b == std::string::npos || std::getenv("RNIC_WAVES_EXEC")) return;  // not from a checkout, or a loop
  std::string root = p.substr(0, b), rel = p.substr(b + 7);
  struct stat st;
  if (stat((root + "/Makefile").c_str(), &st) != 0) return;
  std::string target = "build/waves/" + rel;
  std::fprintf(stderr, "waves: this build has no tracing; building %s (make WAVES=1)\n", target.c_str());
  std::string cmd = "make -C '" + root + "' --no-print-directory WAVES=1 " + target + " 1>&2";
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "waves: the trace build failed: %s\n", cmd.c_str());
    std::exit(2);
  }
  setenv("RNIC_WAVES_EXEC", "1", 1);
  std::string bin = root + "/" + target;
  execv(bin.c_str(), argv);
  std::fprintf(stderr, "waves: cannot run %s\n", bin.c_str());
  std::exit(2);
}

// Takes the waves options out of argv (before the program parses it) and reads the environment.
// Call first thing in main/sc_main, before any model is constructed.
inline void waves_setup(int &argc, char **argv) {
  WavesConfig &c = waves_config();
  bool bad = false;
  auto time_opt = [&](const char *name, const char *v, uint64_t *ps) {
    if (!v || !waves_parse_time(v, ps)) {
      std::fprintf(stderr, "waves: %s needs a simulated time (e.g. 10us, 2500ns), got '%s'\n", name, v ? v : "");
      bad = true;
    }
  };
  if (const char *w = std::getenv("WAVES"))
    if (*w && std::strcmp(w, "0") != 0) {
      c.on = true;
      if (std::strcmp(w, "1") != 0) c.file = w;
    }
  if (const char *e = std::getenv("WAVES_FROM")) time_opt("WAVES_FROM", e, &c.from_ps);
  if (const char *e = std::getenv("WAVES_TO")) time_opt("WAVES_TO", e, &c.to_ps);
  int o = 1;
  std::string name_args;  // the arguments that remain, for the default file name
  bool rest = false;  // after "--" (rnic_sim run -- COMMAND): the command's own arguments
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (rest || !std::strcmp(a, "--")) {
      rest = true;
      name_args += std::string("_") + a;
      argv[o++] = argv[i];
    } else if (!std::strcmp(a, "--waves")) {
      if (!v) { std::fprintf(stderr, "waves: --waves needs a file name\n"); bad = true; }
      else c.on = true, c.file = v;
      i++;
    } else if (!std::strcmp(a, "--waves-from")) {
      time_opt(a, v, &c.from_ps), i++;
    } else if (!std::strcmp(a, "--waves-to")) {
      time_opt(a, v, &c.to_ps), i++;
    } else {
      name_args += std::string("_") + a;
      argv[o++] = argv[i];
    }
  }
  if (bad) std::exit(2);
  if (!c.on) {
    argc = o, argv[o] = nullptr;
    return;
  }
#if !VM_TRACE_FST
  waves_exec_trace_build(argv);  // with the options still in argv; returns only on failure
  std::fprintf(stderr, "waves: this binary was built without --trace-fst; build it with make WAVES=1\n");
  std::exit(2);
#endif
  argc = o, argv[o] = nullptr;
  if (c.file.empty()) {  // WAVES=1: DIR/<binary's folder>-<binary>_<args>.fst
    std::string p(argv[0]);
    size_t s = p.rfind('/');
    std::string base = s == std::string::npos ? p : p.substr(s + 1);
    std::string dir = s == std::string::npos ? "" : p.substr(0, s);
    size_t s2 = dir.rfind('/');
    if (!dir.empty()) base = (s2 == std::string::npos ? dir : dir.substr(s2 + 1)) + "-" + base;
    std::string n = base + name_args;
    for (char &ch : n)
      if (!(std::isalnum((unsigned char)ch) || ch == '.' || ch == '-' || ch == '_' || ch == '=')) ch = '_';
    if (n.size() > 120) n.resize(120);
    const char *d = std::getenv("WAVES_DIR");
    std::string dirname = d && *d ? d : "waves";
    mkdir(dirname.c_str(), 0777);
    c.file = dirname + "/" + n + ".fst";
  }
}

// One model's FST. open() after the model exists; dump(t) after each eval() that should show;
// the file is complete when the object is destroyed (or close() is called).
class Waves {
 public:
  // tag names the model when a process traces more than one (the simulator's nodes).
  template <class Model>
  void open(Model *m, const std::string &tag) {
#if VM_TRACE_FST
    WavesConfig &c = waves_config();
    if (!c.on) return;
    file_ = c.file;
    if (c.opened) {
      size_t dot = file_.rfind(".fst");
      std::string ins = "." + std::to_string(c.opened) + "-" + tag;
      file_ = dot == std::string::npos ? file_ + ins : file_.substr(0, dot) + ins + file_.substr(dot);
    }
    c.opened++;
    m->contextp()->traceEverOn(true);
    fst_ = new VerilatedFstC;
    m->trace(fst_, 99);
    fst_->open(file_.c_str());
#else
    (void)m, (void)tag;
#endif
  }
  bool on() const { return fst_ != nullptr; }
  // Simulated time in ps; outside the window nothing is written.
  void dump(uint64_t t_ps) {
#if VM_TRACE_FST
    if (!fst_ || t_ps < waves_config().from_ps) return;
    if (t_ps > waves_config().to_ps) return close();
    if (dumps_ && t_ps <= last_ps_) t_ps = last_ps_ + 1;  // Verilator drops a dump at an old time
    fst_->dump(t_ps);
    last_ps_ = t_ps;
    dumps_++;
#else
    (void)t_ps;
#endif
  }
  // For testbenches that count clock edges instead of time: one half period (2 ns, 250 MHz)
  // per change of the clock; evaluations without a clock change dump at the same time.
  void sample(bool clk) {
    if (!fst_) return;
    if (clk != clk_) t_ps_ += 2000, clk_ = clk;
    dump(t_ps_);
  }
  // A testbench's eval(): evaluates the model (clock input clk_i) and samples it.
  template <class Model>
  void eval(Model &m) {
    m.eval();
    sample(m.clk_i);
  }
  void close() {
#if VM_TRACE_FST
    if (!fst_) return;
    fst_->close();
    delete fst_;
    fst_ = nullptr;
    std::printf("INFO waves: %s (%llu samples)\n", file_.c_str(), (unsigned long long)dumps_);
    std::fflush(stdout);
#endif
  }
  ~Waves() { close(); }

 private:
#if VM_TRACE_FST
  VerilatedFstC *fst_ = nullptr;
#else
  void *fst_ = nullptr;
#endif
  std::string file_;
  uint64_t dumps_ = 0, t_ps_ = 0, last_ps_ = 0;
  bool clk_ = false;
};
