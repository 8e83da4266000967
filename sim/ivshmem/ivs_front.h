// The simulator's front-end for a QEMU guest (docs/kernel-module.md): one simulated NIC served
// to the kernel module's guest transport (host-driver/linux/rnic_ivshmem.c) through QEMU's
// ivshmem-doorbell device. This process is the ivshmem server (ivs_server.h); the shared memory
// starts with the register mailbox of rnic_ivshmem_proto.h, whose requests become AXI-Lite
// accesses of the NIC in simulated time; the NIC's MSI-X vectors raise the guest's ivshmem
// vectors; the guest's RAM (a shared memory-backend-file) is the NIC's host memory, so a DMA
// address is a guest-physical address.
#pragma once
#include <systemc.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/host_mem.h"
#include "ivshmem/ivs_server.h"
#include "nic/rnic_node.h"

// The guest's RAM file mapped here: guest-physical address == file offset (q35 below the PCI
// hole, so at most 2 GiB of guest RAM). Outside it reads zero and writes are dropped (counted);
// the PCIe model answers such requests with SLVERR first (outside()).
class GuestRam : public HostMemWindow {
 public:
  GuestRam() = default;
  ~GuestRam() override;
  bool open(const std::string &path, uint64_t bytes, std::string *err);
  bool outside(uint64_t gpa, uint64_t len) const { return gpa >= bytes_ || len > bytes_ - gpa; }
  void read(uint64_t off, void *dst, size_t n) override;
  void write(uint64_t off, const void *src, size_t n) override;
  uint64_t bytes() const { return bytes_; }
  uint64_t read_bytes = 0, written_bytes = 0, refused = 0;

 private:
  uint8_t *base_ = nullptr;
  uint64_t bytes_ = 0;
};

struct IvsFrontCfg {
  std::string sock, shm_path, ram_path;
  uint64_t shm_bytes = 4 << 20, ram_bytes = 1ull << 30;  // shm: mailbox + 512 doorbell pages
  unsigned vectors = 4;
  double idle_ms = 200;      // wall time without a request before the loop starts to block
  double timeout_s = 0;      // wall limit (0: none)
  // Other work in the same simulation (the service's clients, --service): a count that changes
  // while that work goes on, so the loop does not block on the guest's eventfds meanwhile.
  std::function<uint64_t()> activity;
};

// The one doorbell path of the front-end: a doorbell write of the guest's user processes
// delivered to the NIC as a 32-bit write on its doorbell BAR port (page = user context).
void ivs_deliver_doorbell(RnicNode *node, uint32_t off, uint32_t val);

// From SIGUSR1 on, the device is gone (surprise removal, a hung bridge): register reads return
// all-ones, writes are dropped. For tests of the module's dead-device handling.
void ivs_remove_on_sigusr1();

class IvsFront : public sc_module {
 public:
  SC_HAS_PROCESS(IvsFront);
  IvsFront(sc_module_name name, RnicNode *node, const IvsFrontCfg &cfg);
  ~IvsFront() override;
  bool ok() const { return err_.empty(); }
  const std::string &error() const { return err_; }
  GuestRam &ram() { return ram_; }
  void set_activity(std::function<uint64_t()> f) { cfg_.activity = std::move(f); }

  uint64_t requests = 0, reads = 0, writes = 0, doorbells = 0, rings = 0, msix = 0, slverr = 0;
  uint64_t posted = 0;  // writes and doorbells from the posted ring (counted in writes/doorbells too)
  uint64_t page_doorbells = 0;  // delivered from the mmapped doorbell pages
  uint64_t page_doorbells_by[5] = {0, 0, 0, 0, 0};  // sq_db, rq_db, cq_db, cq_arm, bf_db
  uint64_t bf_captured = 0;  // bf_db delivered with its WQE from the page's bf_data
  uint64_t bf_blocks = 0;   // 64-byte blocks of those WQEs
  uint64_t bf_torn = 0;      // bf_db whose bf_data did not hold its WQE: delivered as sq_db
  uint32_t last_db_page = 0, last_db_off = 0, last_db_val = 0;
  bool guest_seen = false, timed_out = false, removed = false;
  bool panicked = false;  // SIGUSR2: a TEST_FAULT PANIC was put into the module's command queue

 private:
  void serve();
  void forward_msix(unsigned v);
  void handle(uint32_t op, uint32_t addr, uint32_t data, uint32_t *rsp, uint32_t *status);
  bool scan_doorbell_pages();  // true when it delivered a doorbell
  void deliver_bf(unsigned page, uint32_t val);
  void inject_panic();
  bool drain_posted();         // true when it performed posted entries

  RnicNode *node_;
  IvsFrontCfg cfg_;
  std::string err_;
  GuestRam ram_;
  int shm_fd_ = -1;
  uint8_t *shm_ = nullptr;
  std::unique_ptr<IvsServer> srv_;
  unsigned db_pages_ = 0;
  uint64_t activity_seen_ = 0;
  std::vector<uint32_t> db_seen_;  // per page, per doorbell word: the value last delivered
};
