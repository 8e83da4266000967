// `rnic_sim run [options] -- COMMAND...` (wrapped by the `rnic-sim` script): simulated NICs
// joined by the link model, and COMMAND run where libibverbs sees them as ordinary RDMA devices
// (svc_sandbox.h) and reaches them through the provider's simulator backend (svc_server.h).
// Exits with COMMAND's exit status and prints what happened in simulated time.
#include <systemc.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "main/sim_program.h"
#include "net/eth_ext.h"
#include "net/eth_link.h"
#include "service/svc_launch.h"
#include "service/svc_sandbox.h"
#include "service/svc_server.h"
extern "C" {
#include "rnic_spec.h"
#include "rnicp_sim_proto.h"
}

namespace {

struct RunOpts {
  unsigned nics = 2;
  uint64_t seed = 1;
  double loss = 0, reorder = 0;
  bool hostile = false, quiet = false, keep = false;
  std::string pcap, provider;
  double timeout_s = 0;
  std::vector<std::string> cmd;
  int ext_lport = 0, ext_rport = 0;  // --ext: rnic0's port on a UDP frame socket
  std::string ext_path;              // --ext-stream: rnic0's port on a UNIX stream socket
  std::vector<std::pair<uint32_t, std::array<uint8_t, 6>>> ext_peers;
};

int usage(const char *why) {
  std::fprintf(stderr,
               "rnic-sim run: %s\n"
               "usage: rnic-sim run [--nics N] [--seed S] [--loss P] [--pcap FILE] [--hostile]\n"
               "                    [--timeout SECONDS] [--provider PREFIX] [--quiet] [--keep]\n"
               "                    [--ext LPORT:RPORT | --ext-stream PATH [--ext-peer IPV4=MAC]...] [--reorder P] -- COMMAND...\n"
               "  N simulated NICs (default 2), in pairs joined by a 100 Gb/s link with per-frame loss P;\n"
               "  COMMAND runs where libibverbs sees them as\n"
               "  rnic0..rnicN-1. One word is run by /bin/sh -c. Exit status: COMMAND's.\n"
               "  --ext: one NIC (rnic0, 10.0.0.1) whose port is a UDP frame socket on 127.0.0.1\n"
               "  (bound to LPORT, sending to RPORT: QEMU's -netdev dgram, see sim/guest/), or with\n"
               "  --ext-stream a UNIX stream socket it listens on (QEMU's -netdev stream); --ext-peer\n"
               "  adds a neighbour on that port (others are learned from the frames it receives).\n"
               "  --reorder: per-frame probability that the link holds a frame back behind the next one.\n",
               why);
  return 2;
}

bool parse(int argc, char **argv, RunOpts *o, std::string *why) {
  int i = 1;
  auto val = [&](const char *name) -> const char * {
    if (i + 1 >= argc) {
      *why = std::string(name) + " needs a value";
      return nullptr;
    }
    return argv[++i];
  };
  for (; i < argc; i++) {
    std::string a = argv[i];
    const char *v = nullptr;
    char *end = nullptr;
    if (a == "--") {
      i++;
      break;
    } else if (a == "--nics") {
      if (!(v = val("--nics"))) return false;
      unsigned long n = std::strtoul(v, &end, 10);
      if (*end || n < 2 || n > 8 || n % 2) {
        *why = "--nics takes 2, 4, 6 or 8";
        return false;
      }
      o->nics = unsigned(n);
    } else if (a == "--seed") {
      if (!(v = val("--seed"))) return false;
      o->seed = std::strtoull(v, &end, 0);
      if (*end) return *why = "bad --seed", false;
    } else if (a == "--loss") {
      if (!(v = val("--loss"))) return false;
      o->loss = std::strtod(v, &end);
      if (*end || o->loss < 0 || o->loss >= 1) return *why = "--loss takes a probability in [0, 1)", false;
    } else if (a == "--reorder") {
      if (!(v = val("--reorder"))) return false;
      o->reorder = std::strtod(v, &end);
      if (*end || o->reorder < 0 || o->reorder >= 1) return *why = "--reorder takes a probability in [0, 1)", false;
    } else if (a == "--timeout") {
      if (!(v = val("--timeout"))) return false;
      o->timeout_s = std::strtod(v, &end);
      if (*end || o->timeout_s < 0) return *why = "bad --timeout", false;
    } else if (a == "--pcap") {
      if (!(v = val("--pcap"))) return false;
      o->pcap = v;
    } else if (a == "--provider") {
      if (!(v = val("--provider"))) return false;
      o->provider = v;
    } else if (a == "--ext") {
      if (!(v = val("--ext"))) return false;
      unsigned lp = 0, rp = 0;
      if (std::sscanf(v, "%u:%u", &lp, &rp) != 2 || !lp || !rp || lp > 65535 || rp > 65535)
        return *why = "--ext takes LPORT:RPORT", false;
      o->ext_lport = int(lp);
      o->ext_rport = int(rp);
      o->nics = 1;
    } else if (a == "--ext-stream") {
      if (!(v = val("--ext-stream"))) return false;
      o->ext_path = v;
      o->nics = 1;
    } else if (a == "--ext-peer") {
      if (!(v = val("--ext-peer"))) return false;
      char ip[32];
      unsigned m[6];
      in_addr ia{};
      if (std::sscanf(v, "%31[0-9.]=%x:%x:%x:%x:%x:%x", ip, &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 7 ||
          inet_pton(AF_INET, ip, &ia) != 1)
        return *why = "--ext-peer takes IPV4=MAC", false;
      std::array<uint8_t, 6> mac;
      for (int k = 0; k < 6; k++) mac[k] = uint8_t(m[k]);
      o->ext_peers.push_back({ntohl(ia.s_addr), mac});
    } else if (a == "--hostile") {
      o->hostile = true;
    } else if (a == "--quiet") {
      o->quiet = true;
    } else if (a == "--keep") {
      o->keep = true;
    } else {
      *why = "unknown option " + a;
      return false;
    }
  }
  for (; i < argc; i++) o->cmd.push_back(argv[i]);
  if (o->cmd.empty()) return *why = "no COMMAND after --", false;
  if (!o->ext_peers.empty() && !o->ext_lport && o->ext_path.empty()) return *why = "--ext-peer needs --ext", false;
  if (o->ext_lport || !o->ext_path.empty()) o->nics = 1;
  return true;
}

void rm_tree(const std::string &dir) {
  std::string cmd = "rm -rf '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "rnic-sim: could not remove %s\n", dir.c_str());
}

int run_main(int argc, char **argv) {
  RunOpts o;
  std::string why;
  if (!parse(argc, argv, &o, &why)) return usage(why.c_str());
  if (o.provider.empty()) o.provider = svc_default_provider();
  if (access((o.provider + "-rdmav34.so").c_str(), R_OK) != 0) {
    std::fprintf(stderr, "rnic-sim: provider %s-rdmav34.so not found (make provider, or --provider PREFIX)\n",
                 o.provider.c_str());
    return 2;
  }
  char tmpl[] = "/tmp/rnic-sim.XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::perror("rnic-sim: mkdtemp");
    return 2;
  }
  const std::string work = tmpl;
  svc_kill_child_on_fatal_signal();
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);  // "stopped by user"
  auto wall0 = std::chrono::steady_clock::now();

  std::vector<std::unique_ptr<SvcNic>> nics;
  std::vector<std::unique_ptr<RnicNode>> nodes;
  std::vector<SvcNic *> np;
  SvcServer *srv = nullptr;  // the PCIe models ask it about DMA into attached processes
  for (unsigned i = 0; i < o.nics; i++) {
    nics.emplace_back(new SvcNic);
    SvcNic *n = nics.back().get();
    n->name = "rnic" + std::to_string(i);
    n->ipv4 = 0x0A000001u + i;  // 10.0.0.1, ... inside the simulated network only
    const uint8_t mac[6] = {0x02, 0, 0, 0, 0, uint8_t(i + 1)};
    std::memcpy(n->mac, mac, 6);
    nodes.emplace_back(new RnicNode(("nic" + std::to_string(i)).c_str()));
    n->node = nodes.back().get();
    PcieCfg pc;
    pc.err_fn = [&srv](uint64_t a, uint64_t len, bool) { return srv ? srv->dma_check(a, len) : 0u; };
    pc.hostile = o.hostile;
    pc.seed = o.seed * 16 + i;
    n->pcie.reset(new PcieModel(n->mem, pc));
    n->node->attach_pcie(n->pcie.get());
    np.push_back(n);
  }
  std::vector<std::unique_ptr<EthLink>> links;
  for (unsigned i = 0; i + 1 < o.nics; i += 2) {
    EthLinkCfg lc;
    lc.seed = o.seed + i;
    lc.faults[0].loss = lc.faults[1].loss = o.loss;
    lc.faults[0].reorder = lc.faults[1].reorder = o.reorder;
    if (!o.pcap.empty()) lc.pcap_path = i ? o.pcap + "." + std::to_string(i / 2) : o.pcap;
    links.emplace_back(new EthLink(("link" + std::to_string(i / 2)).c_str(), nodes[i].get(), nodes[i + 1].get(), lc));
  }
  std::unique_ptr<EthExtPort> ext;
  if (o.ext_lport || !o.ext_path.empty()) {
    EthLinkCfg lc;
    lc.seed = o.seed;
    lc.faults[0].loss = lc.faults[1].loss = o.loss;
    lc.faults[0].reorder = lc.faults[1].reorder = o.reorder;
    // Flow control stays on: the NIC's PAUSE holds the port's inbound queue (frames from the
    // socket wait there, unbounded) and never reaches the socket; off, the NIC's receive FIFO
    // overruns under a burst from the guest and truncated frames are dropped.
    lc.pcap_path = o.pcap;
    if (!o.ext_path.empty()) ext.reset(new EthExtPort("ext", nodes[0].get(), o.ext_path, lc));
    else ext.reset(new EthExtPort("ext", nodes[0].get(), uint16_t(o.ext_lport), uint16_t(o.ext_rport), lc));
    if (!ext->ok()) {
      std::fprintf(stderr, "rnic-sim: %s\n", ext->error().c_str());
      rm_tree(work);
      return 2;
    }
    for (auto &p : o.ext_peers) ext->add_neighbour(p.first, p.second.data());
  }
  SvcServer server("svc", np, work + "/svc.sock");
  srv = &server;
  if (ext) server.neighbour = [&ext](uint32_t ip, uint8_t mac[6]) { return ext->neighbour(ip, mac); };
  if (!server.listening()) {
    std::fprintf(stderr, "rnic-sim: %s\n", server.error().c_str());
    rm_tree(work);
    return 2;
  }
  SvcLaunchCfg lc;
  lc.provider = o.provider;
  lc.cmd = o.cmd;
  lc.work = work;
  lc.sock = work + "/svc.sock";
  SvcLauncher launch("launch", lc, np, &server);
  server.set_wall_timeout(o.timeout_s);

  sc_start();

  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  int status = 1;
  if (!launch.err.empty()) {
    std::fprintf(stderr, "rnic-sim: %s\n", launch.err.c_str());
  } else if (server.timed_out()) {
    std::fprintf(stderr, "rnic-sim: wall-clock timeout after %.0f s: COMMAND killed\n", o.timeout_s);
    status = 124;
  } else if (server.child_exited()) {
    int st = server.child_status();
    status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  }
  for (auto &l : links) l->flush_pcap();
  if (ext) ext->link().flush_pcap();
  if (!o.quiet) {
    double sim_s = sc_time_stamp().to_seconds();
    uint64_t cyc = 0;
    for (auto &nd : nodes) cyc += nd->cycles();
    std::printf("rnic-sim: COMMAND exited with status %d\n", status);
    std::printf("rnic-sim: simulated %.3f ms, %llu NIC cycles (%u NICs at 250 MHz); wall %.1f s (%.3f M NIC cycles/s)\n",
                sim_s * 1e3, (unsigned long long)cyc, o.nics, wall, wall > 0 ? cyc / wall / 1e6 : 0.0);
    for (size_t i = 0; i < links.size(); i++)
      std::printf("rnic-sim: link%zu frames nic%zu->nic%zu %llu, nic%zu->nic%zu %llu (lost %llu/%llu)%s%s\n", i, 2 * i,
                  2 * i + 1, (unsigned long long)links[i]->stats(0).tx_frames, 2 * i + 1, 2 * i,
                  (unsigned long long)links[i]->stats(1).tx_frames, (unsigned long long)links[i]->stats(0).lost,
                  (unsigned long long)links[i]->stats(1).lost, o.pcap.empty() ? "" : ", capture ",
                  o.pcap.empty() ? "" : links[i]->cfg().pcap_path.c_str());
    if (ext)
      std::printf("rnic-sim: ext port frames nic0->socket %llu (written %llu, lost %llu), socket->nic0 %llu (read %llu, lost %llu)%s%s\n",
                  (unsigned long long)ext->link().stats(0).tx_frames, (unsigned long long)ext->frames_out(),
                  (unsigned long long)ext->link().stats(0).lost, (unsigned long long)ext->link().stats(1).tx_frames,
                  (unsigned long long)ext->frames_in(), (unsigned long long)ext->link().stats(1).lost,
                  o.pcap.empty() ? "" : ", capture ", o.pcap.c_str());
    std::printf("rnic-sim: %llu client connections; DMA refused outside registrations: %llu; async events %llu sent, %llu without a listener\n",
                (unsigned long long)server.clients_seen(), (unsigned long long)server.dma_refused(),
                (unsigned long long)server.async_sent(), (unsigned long long)server.async_lost());
    server.print_counters(stdout);
    server.print_qp_stats(stdout);
  }
  if (!o.keep) rm_tree(work);
  else std::printf("rnic-sim: kept %s\n", work.c_str());
  return status;
}

}  // namespace

static SimProgram reg("run", "simulated NICs for unmodified libibverbs programs: run [opts] -- COMMAND", run_main);
