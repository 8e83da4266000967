// The command of a service run: waits until the service's NICs are up, writes the fake sysfs
// tree for them, then forks the command into its sandbox (svc_sandbox.h) with the environment
// that makes libibverbs load our provider's service backend on this server's socket. Used by
// `rnic_sim run` (the command's exit ends the simulation) and by `rnic_sim ivshmem --service`
// (a host-side command beside a guest: the guest's exit ends it, docs/kernel-module.md).
#pragma once
#include <systemc.h>

#include <string>
#include <vector>

#include "service/svc_server.h"

struct SvcLaunchCfg {
  std::string provider;          // PREFIX of PREFIX-rdmav34.so
  std::vector<std::string> cmd;  // one word: run by /bin/sh -c
  std::string work;              // directory for sys/, dev/ (staging) and the socket
  std::string sock;              // the server's socket
  bool stop_with_child = true;   // hand the child to the server: its exit ends the simulation
};

class SvcLauncher : public sc_module {
 public:
  SC_HAS_PROCESS(SvcLauncher);
  SvcLauncher(sc_module_name n, const SvcLaunchCfg &cfg, std::vector<SvcNic *> nics, SvcServer *server);
  pid_t child = -1;  // the command (leader of its own process group)
  std::string err;   // set (and the simulation stopped) when it could not start

 private:
  void run();
  SvcLaunchCfg cfg_;
  std::vector<SvcNic *> nics_;
  SvcServer *server_;
};

// The command's process group: a fatal signal to the simulator ends it too (its processes would
// otherwise wait for a simulator that is gone, busy-polling). Installs the handlers.
void svc_kill_child_on_fatal_signal();
void svc_note_child_group(pid_t pgid);

// build/sim/rnic_sim -> build/provider/librnic, or $RNIC_PROVIDER.
std::string svc_default_provider();
