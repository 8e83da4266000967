#include "service/svc_launch.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "service/svc_sandbox.h"
extern "C" {
#include "rnicp_sim_proto.h"
}

namespace {
volatile sig_atomic_t g_child_pgid = 0;

void on_fatal_signal(int sig) {
  if (g_child_pgid > 0) kill(-g_child_pgid, SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

void svc_kill_child_on_fatal_signal() {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) signal(sig, on_fatal_signal);
}

void svc_note_child_group(pid_t pgid) { g_child_pgid = pgid; }

// build/sim/rnic_sim -> build/provider/librnic (libibverbs appends -rdmav34.so).
std::string svc_default_provider() {
  if (const char *e = std::getenv("RNIC_PROVIDER")) return e;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = 0;
  std::string p = exe;
  p = p.substr(0, p.rfind('/'));  // build/sim
  p = p.substr(0, p.rfind('/'));  // build
  return p + "/provider/librnic";
}

SvcLauncher::SvcLauncher(sc_module_name n, const SvcLaunchCfg &cfg, std::vector<SvcNic *> nics, SvcServer *server)
    : sc_module(n), cfg_(cfg), nics_(std::move(nics)), server_(server) {
  SC_THREAD(run);
}

void SvcLauncher::run() {
  std::vector<SvcNicIdent> ids;
  for (SvcNic *n : nics_) {
    while (!n->up && n->err.empty()) wait(n->up_ev);
    if (!n->up) {
      err = n->name + ": " + n->err;
      sc_stop();
      return;
    }
    char fw[32];
    std::snprintf(fw, sizeof fw, "%u.%u", n->dev.fw_version >> 16, n->dev.fw_version & 0xFFFF);
    SvcNicIdent id{n->name, n->ipv4, {}, n->port.gid_tbl_len, fw};
    std::memcpy(id.mac, n->mac, 6);
    ids.push_back(id);
  }
  const std::string sys = cfg_.work + "/sys", staging = cfg_.work + "/dev";
  if (!svc_write_sysfs(sys, ids, &err) || mkdir(staging.c_str(), 0755) != 0) {
    if (err.empty()) err = "mkdir " + staging + ": " + std::strerror(errno);
    sc_stop();
    return;
  }
  std::fflush(nullptr);
  child = fork();
  if (child == 0) {
    setpgid(0, 0);  // its own group: the service can stop everything it started
    std::string e;
    if (!svc_enter_sandbox(staging, unsigned(nics_.size()), &e)) {
      std::fprintf(stderr, "rnic-sim: cannot set up the device environment: %s\n", e.c_str());
      _exit(127);
    }
    setenv("SYSFS_PATH", sys.c_str(), 1);
    setenv("RDMAV_DRIVERS", cfg_.provider.c_str(), 1);
    setenv(RNIC_SVC_ENV, cfg_.sock.c_str(), 1);
    // The simulator is the slow party: the command's busy-polling must not starve it.
    if (setpriority(PRIO_PROCESS, 0, 10) != 0) {}
    std::vector<char *> av;
    static char sh[] = "/bin/sh", dc[] = "-c";
    if (cfg_.cmd.size() == 1) av = {sh, dc, const_cast<char *>(cfg_.cmd[0].c_str())};
    else
      for (const std::string &s : cfg_.cmd) av.push_back(const_cast<char *>(s.c_str()));
    av.push_back(nullptr);
    execvp(av[0], av.data());
    std::fprintf(stderr, "rnic-sim: cannot run %s: %s\n", av[0], std::strerror(errno));
    _exit(127);
  }
  if (child < 0) {
    err = std::string("fork: ") + std::strerror(errno);
    sc_stop();
    return;
  }
  svc_note_child_group(child);
  if (cfg_.stop_with_child) server_->set_child(child);
}
