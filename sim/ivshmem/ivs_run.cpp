// `rnic_sim ivshmem --sock PATH --shm PATH --ram PATH [options]`: one simulated NIC served to a
// QEMU guest (ivs_front.h). Start it first, then QEMU with
//   -object memory-backend-file,id=mem,size=RAM,mem-path=RAMPATH,share=on -machine q35,memory-backend=mem
//   -chardev socket,path=SOCK,id=ivs -device ivshmem-doorbell,chardev=ivs,vectors=N
// It runs until QEMU disconnects (or --timeout) and prints what it served.
#include <systemc.h>

#include <arpa/inet.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "host/pcie_model.h"
#include "ivshmem/ivs_front.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "service/svc_launch.h"
#include "service/svc_server.h"

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "rnic_sim ivshmem: %s\n"
               "usage: rnic_sim ivshmem --sock PATH --shm PATH --ram PATH [--ram-size BYTES] [--shm-size BYTES]\n"
               "                        [--vectors N] [--idle-ms MS] [--timeout SECONDS]\n"
               "                        [--service-peer IPV4=MAC] [--pcap FILE] [--provider PREFIX] [-- COMMAND...]\n"
               "  one simulated NIC for a QEMU guest's ivshmem-doorbell device (docs/kernel-module.md):\n"
               "  SOCK the ivshmem server socket, SHM the shared memory it hands out (created),\n"
               "  RAM the guest's memory-backend-file (created at --ram-size, default 1 GiB);\n"
               "  SIGUSR1: the device is removed from then on (reads all-ones, writes dropped).\n"
               "  SIGUSR2: the firmware panics (a TEST_FAULT PANIC put into the module's idle command\n"
               "           queue; needs a test-hooks firmware image).\n"
               "  -- COMMAND: a second NIC (rnic1, 10.0.0.1) linked to the guest's by the link model, served\n"
               "  to COMMAND through the simulator's service as `rnic_sim run` does (host-side verbs\n"
               "  programs); the guest's NIC is 10.0.0.2 at the MAC --service-peer names (its netdev's).\n"
               "  The guest's exit ends the run; COMMAND's group is killed then if still running.\n",
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
  std::vector<std::string> cmd;
  std::string pcap, provider;
  uint32_t peer_ip = 0;
  uint8_t peer_mac[6] = {0};
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--") {
      for (i++; i < argc; i++) cmd.push_back(argv[i]);
      break;
    }
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
    else if (a == "--pcap") pcap = v;
    else if (a == "--provider") provider = v;
    else if (a == "--service-peer") {
      char ip[32];
      unsigned m[6];
      in_addr ia{};
      if (std::sscanf(v, "%31[0-9.]=%x:%x:%x:%x:%x:%x", ip, &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 7 ||
          inet_pton(AF_INET, ip, &ia) != 1)
        return usage("--service-peer takes IPV4=MAC");
      peer_ip = ntohl(ia.s_addr);
      for (int k = 0; k < 6; k++) peer_mac[k] = uint8_t(m[k]);
    }
    else return usage(("unknown option " + a).c_str());
    if (!ok) return usage(("bad size " + std::string(v)).c_str());
  }
  if (cfg.sock.empty() || cfg.shm_path.empty() || cfg.ram_path.empty()) return usage("--sock, --shm and --ram are needed");
  if ((peer_ip || !pcap.empty()) && cmd.empty()) return usage("--service-peer and --pcap need -- COMMAND");
  if (!cmd.empty() && !peer_ip) return usage("-- COMMAND needs --service-peer (the guest NIC's address)");
  if (provider.empty()) provider = svc_default_provider();
  if (!cmd.empty() && access((provider + "-rdmav34.so").c_str(), R_OK) != 0)
    return usage(("provider " + provider + "-rdmav34.so not found").c_str());
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

  // --service: the host side's NIC, its link to the guest's, the service and COMMAND.
  std::unique_ptr<SvcNic> peer;
  std::unique_ptr<RnicNode> peer_node;
  std::unique_ptr<EthLink> link;
  std::unique_ptr<SvcServer> server;
  std::unique_ptr<SvcLauncher> launch;
  std::string work;
  if (!cmd.empty()) {
    char tmpl[] = "/tmp/rnic-sim.XXXXXX";
    if (!mkdtemp(tmpl)) {
      std::perror("rnic_sim ivshmem: mkdtemp");
      return 2;
    }
    work = tmpl;
    svc_kill_child_on_fatal_signal();
    peer.reset(new SvcNic);
    peer->name = "rnic1";
    peer->ipv4 = 0x0A000001u;  // 10.0.0.1: the guest is 10.0.0.2 on the same /24
    const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0x01};
    std::memcpy(peer->mac, mac, 6);
    peer_node.reset(new RnicNode("nic1"));
    peer->node = peer_node.get();
    SvcServer *srv = nullptr;
    PcieCfg ppc;
    ppc.err_fn = [&srv](uint64_t a, uint64_t len, bool) { return srv ? srv->dma_check(a, len) : 0u; };
    peer->pcie.reset(new PcieModel(peer->mem, ppc));
    peer_node->attach_pcie(peer->pcie.get());
    EthLinkCfg lc;
    lc.pcap_path = pcap;
    link.reset(new EthLink("link0", &node, peer_node.get(), lc));
    server.reset(new SvcServer("svc", {peer.get()}, work + "/svc.sock"));
    srv = server.get();
    if (!server->listening()) {
      std::fprintf(stderr, "rnic_sim ivshmem: %s\n", server->error().c_str());
      return 2;
    }
    server->neighbour = [peer_ip, peer_mac](uint32_t ip, uint8_t m[6]) {
      if (ip != peer_ip) return false;
      std::memcpy(m, peer_mac, 6);
      return true;
    };
    SvcLaunchCfg lcfg;
    lcfg.provider = provider;
    lcfg.cmd = cmd;
    lcfg.work = work;
    lcfg.sock = work + "/svc.sock";
    lcfg.stop_with_child = false;  // the guest's exit ends the run
    launch.reset(new SvcLauncher("launch", lcfg, {peer.get()}, server.get()));
    front.set_activity([&server] { return server->messages(); });
  }
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
              "%llu of them posted, %llu doorbell rings, %llu MSI-X forwarded; DMA %llu bytes read, %llu written, %llu refused\n",
              (unsigned long long)(front.requests + front.posted), (unsigned long long)front.reads, (unsigned long long)front.writes,
              (unsigned long long)front.doorbells, (unsigned long long)front.slverr, (unsigned long long)front.posted,
              (unsigned long long)front.rings,
              (unsigned long long)front.msix, (unsigned long long)front.ram().read_bytes,
              (unsigned long long)front.ram().written_bytes, (unsigned long long)front.ram().refused);
  std::printf("rnic_sim ivshmem: %llu doorbells from the mmapped pages (sq %llu, rq %llu, cq %llu, arm %llu)",
              (unsigned long long)front.page_doorbells, (unsigned long long)front.page_doorbells_by[0],
              (unsigned long long)front.page_doorbells_by[1], (unsigned long long)front.page_doorbells_by[2],
              (unsigned long long)front.page_doorbells_by[3]);
  if (front.page_doorbells)
    std::printf(", the last page %u offset 0x%03x value 0x%08x", front.last_db_page, front.last_db_off, front.last_db_val);
  std::printf("\n");
  std::printf("rnic_sim ivshmem: %llu BlueFlame doorbells from the mmapped pages: %llu with their WQE from bf_data (%llu blocks of 64 bytes), %llu as sq_db (bf_data did not hold it)\n",
              (unsigned long long)front.page_doorbells_by[4], (unsigned long long)front.bf_captured,
              (unsigned long long)front.bf_blocks, (unsigned long long)front.bf_torn);
  int cmd_status = -1;
  if (launch) {
    if (!launch->err.empty()) std::printf("rnic_sim ivshmem: service: %s\n", launch->err.c_str());
    if (launch->child > 0) {
      int st = 0;
      pid_t r = waitpid(launch->child, &st, WNOHANG);
      if (r == launch->child) cmd_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
      kill(-launch->child, SIGKILL);  // what is left of its group
      if (r != launch->child) waitpid(launch->child, &st, 0);
    }
    link->flush_pcap();
    if (cmd_status >= 0) std::printf("rnic_sim ivshmem: COMMAND exited with status %d\n", cmd_status);
    else std::printf("rnic_sim ivshmem: COMMAND still running at the end: killed\n");
    std::printf("rnic_sim ivshmem: link0 frames nic0->nic1 %llu, nic1->nic0 %llu; rnic1 %llu NIC cycles, %llu client connections\n",
                (unsigned long long)link->stats(0).tx_frames, (unsigned long long)link->stats(1).tx_frames,
                (unsigned long long)peer_node->cycles(), (unsigned long long)server->clients_seen());
    server->print_counters(stdout);
    server->print_qp_stats(stdout);
    std::string rm = "rm -rf '" + work + "'";
    if (std::system(rm.c_str()) != 0) std::fprintf(stderr, "rnic_sim ivshmem: could not remove %s\n", work.c_str());
  }
  if (front.panicked) std::printf("rnic_sim ivshmem: the firmware was made to panic (SIGUSR2) during the run\n");
  if (front.removed) std::printf("rnic_sim ivshmem: the device was removed (SIGUSR1) during the run\n");
  if (!front.error().empty()) std::printf("rnic_sim ivshmem: error: %s\n", front.error().c_str());
  return front.timed_out || !front.error().empty() ? 1 : 0;
}

}  // namespace

static SimProgram reg("ivshmem", "one simulated NIC for a QEMU guest's kernel module (ivshmem-doorbell)", ivs_main);
