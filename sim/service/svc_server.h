// The simulator service: simulated NICs with their host-side driver core, serving processes
// that attach over a Unix socket (host-driver/provider/rnicp_sim_proto.h). Each connection gets
// its own SC_THREAD that executes its messages in order, in simulated time: commands through
// host-driver/core on the NIC's command queue, doorbells as BAR0 writes to its user context's
// doorbell page. Its memory is a HostMem window (ProcMem), so the NIC's DMA reaches the
// process's own buffers, bounded to what it registered. A connection that closes has its
// resources destroyed. The service also measures, per QP, what the process posted and when it
// completed (from the WQEs it reads at each doorbell and the CQEs the NIC writes).
#pragma once
#include <systemc.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/host_mem.h"
#include "host/pcie_model.h"
#include "host/sim_os.h"
#include "nic/rnic_node.h"
#include "service/svc_procmem.h"
extern "C" {
#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_eq.h"
}

class SvcServer;

// One simulated NIC and the "kernel" of its host: memory, PCIe model, command queue.
struct SvcNic {
  SvcServer *server = nullptr;  // serving it (the EQ handler's way back)
  std::string name;
  RnicNode *node = nullptr;
  HostMem mem;
  std::unique_ptr<PcieModel> pcie;
  SimOsCtx osc{};
  rnic_os os{};
  rnic_cmdq q{};
  rnic_eq eq{};  // asynchronous events (CQ errors, completions of armed CQs), MSI-X vector 0
  uint64_t msix_seen = 0;
  uint32_t ipv4 = 0;
  uint8_t mac[6] = {0};
  rnic_device_attr dev{};
  rnic_port_attr port{};
  bool up = false;
  std::string err;
  std::vector<uint32_t> counters;  // read when the command exits (BAR0 counters block)
  sc_event up_ev;
};

// Per-QP figures measured by the service in simulated time.
struct SvcQpStats {
  std::string nic;
  int pid = 0;
  uint32_t qpn = 0, type = 0;
  uint64_t msgs = 0, bytes = 0, rx_msgs = 0, rx_bytes = 0, errors = 0;
  sc_time first_db = SC_ZERO_TIME, last_done = SC_ZERO_TIME;
  bool any = false;
  uint64_t lat_n = 0;
  double lat_sum_ns = 0, lat_min_ns = 0, lat_max_ns = 0;
};

struct SvcClient;

class SvcServer : public sc_module {
 public:
  SC_HAS_PROCESS(SvcServer);
  SvcServer(sc_module_name name, std::vector<SvcNic *> nics, const std::string &sock_path, double poll_ns = 200);
  ~SvcServer() override;

  // The command's process (leader of its process group): the simulation stops when it exits,
  // and what is left of its group is killed then.
  void set_child(pid_t pid) { child_ = pid; }
  void set_wall_timeout(double s) { timeout_s_ = s; }
  bool timed_out() const { return timed_out_; }
  void print_qp_stats(FILE *f) const;
  void print_counters(FILE *f) const;  // non-zero NIC counters at the end

  bool listening() const { return listen_fd_ >= 0; }
  const std::string &error() const { return err_; }
  bool child_exited() const { return child_done_; }
  int child_status() const { return child_status_; }  // waitpid status
  const std::vector<std::unique_ptr<SvcQpStats>> &qp_stats() const { return stats_; }
  uint64_t clients_seen() const { return clients_seen_; }
  uint64_t dma_refused() const { return dma_refused_; }
  uint64_t contexts_cleaned() const { return leaked_; }  // closed holding resources
  uint64_t async_sent() const { return async_sent_; }
  uint64_t async_lost() const { return async_lost_; }  // no EVENTS connection to take them
  uint64_t messages() const { return messages_; }      // received from clients (activity)

  // The PCIe model's err_fn for NIC n: DMA outside a process's registrations answers SLVERR.
  uint32_t dma_check(uint64_t addr, uint64_t len);
  void on_event(SvcNic *n, const rnic_event *ev);  // from the NIC's EQ
  // Address resolution beyond the simulated NICs (an external port's neighbours): IPv4 -> MAC.
  std::function<bool(uint32_t ipv4, uint8_t mac[6])> neighbour;

 private:
  void nic_init_thread(SvcNic *n);
  void eq_thread(SvcNic *n);
  void poll_thread();
  void accept_clients();
  void read_client(SvcClient *c);
  void client_thread(SvcClient *c);
  void handle(SvcClient *c, const std::vector<uint8_t> &msg);
  int dispatch(SvcClient *c, uint32_t op, const uint8_t *in, size_t in_len, uint8_t *out, size_t *out_len);
  void cleanup(SvcClient *c);
  void read_counters();
  int resolve_mac(uint32_t ipv4, uint8_t mac[6]) const;
  uint64_t bus(const SvcClient *c, uint64_t va) const;
  void on_sq_doorbell(SvcClient *c, uint32_t qpn, uint32_t pi);
  void on_dma_write(SvcClient *c, uint64_t va, const void *src, size_t n);

  std::vector<SvcNic *> nics_;
  std::string path_, err_;
  int listen_fd_ = -1;
  pid_t child_ = -1;
  double timeout_s_ = 0;
  bool trace_ = false;
  bool child_done_ = false, timed_out_ = false;
  int child_status_ = 0;
  sc_time poll_;
  std::map<int, SvcClient *> clients_;       // by fd
  std::map<uint64_t, SvcClient *> by_slot_;  // by DMA window
  uint64_t next_slot_ = 1, clients_seen_ = 0, dma_refused_ = 0, leaked_ = 0, async_sent_ = 0, async_lost_ = 0, messages_ = 0;
  std::vector<std::unique_ptr<SvcQpStats>> stats_;
};
