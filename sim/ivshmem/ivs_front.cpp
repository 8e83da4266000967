#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: one MSI-X forwarder per vector
#include "ivshmem/ivs_front.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <algorithm>
#include <cstring>
#include <vector>

extern "C" {
#include "rnic_spec.h"
#include "../../host-driver/linux/rnic_ivshmem_proto.h"
}

GuestRam::~GuestRam() {
  if (base_) munmap(base_, bytes_);
}

// Created here (before QEMU starts) at its final size; QEMU's memory-backend-file maps the same
// file with share=on.
bool GuestRam::open(const std::string &path, uint64_t bytes, std::string *err) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate(fd, off_t(bytes)) != 0) {
    *err = "guest RAM file " + path + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    return false;
  }
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    *err = "mmap " + path + ": " + std::strerror(errno);
    return false;
  }
  base_ = static_cast<uint8_t *>(p);
  bytes_ = bytes;
  return true;
}

void GuestRam::read(uint64_t off, void *dst, size_t n) {
  if (outside(off, n)) {
    std::memset(dst, 0, n);
    refused++;
    return;
  }
  std::memcpy(dst, base_ + off, n);
  read_bytes += n;
}

void GuestRam::write(uint64_t off, const void *src, size_t n) {
  if (outside(off, n)) {
    refused++;
    return;
  }
  std::memcpy(base_ + off, src, n);
  written_bytes += n;
}

namespace {
volatile sig_atomic_t g_removed = 0, g_panic = 0;
void on_sigusr1(int) { g_removed = 1; }
void on_sigusr2(int) { g_panic = 1; }
}  // namespace

void ivs_remove_on_sigusr1() {
  signal(SIGUSR1, on_sigusr1);
  signal(SIGUSR2, on_sigusr2);
}

// A firmware panic under the loaded module, as tb/robust provokes it: a TEST_FAULT PANIC
// command (answered only by a test-hooks image) in the module's command queue, at the slot the
// firmware consumes next, then the producer doorbell. The module must be idle (no command in
// flight: its producer count is then the firmware's consumer count, readable in BAR0); the
// command never completes, and the module's next command reuses the slot of a dead device.
void IvsFront::inject_panic() {
  uint64_t base = node_->bar_read(RNIC_REG_CMDQ_CMDQ_BASE_LO) |
                  uint64_t(node_->bar_read(RNIC_REG_CMDQ_CMDQ_BASE_LO + 4)) << 32;
  uint32_t log = node_->bar_read(RNIC_REG_CMDQ_CMDQ_LOG_SIZE), cons = node_->bar_read(RNIC_REG_CMDQ_CMDQ_CONS);
  if (!log || log > 16) {
    std::fprintf(stderr, "rnic_sim ivshmem: SIGUSR2: no command queue to put the panic in\n");
    return;
  }
  uint8_t c[RNIC_CMD_ENTRY_SIZE] = {0};
  rnic_cmd_entry_set_opcode(c, RNIC_CMD_OP_TEST_FAULT);
  rnic_cmd_entry_set_token(c, 0xDEAD);
  rnic_cmd_test_fault_set_kind(c, RNIC_TEST_FAULT_PANIC);
  ram_.write(base + uint64_t(cons & ((1u << log) - 1)) * RNIC_CMD_ENTRY_SIZE, c, sizeof c);
  node_->bar_write(RNIC_REG_CMDQ_CMDQ_PROD, cons + 1);
  panicked = true;
}

void ivs_deliver_doorbell(RnicNode *node, uint32_t off, uint32_t val) {
  node->db_write32(off, val);
}

IvsFront::IvsFront(sc_module_name name, RnicNode *node, const IvsFrontCfg &cfg)
    : sc_module(name), node_(node), cfg_(cfg) {
  if (cfg_.shm_bytes < RNIC_IVS_MBOX_BYTES || (cfg_.shm_bytes & (cfg_.shm_bytes - 1))) {
    err_ = "shared memory size must be a power of two";
    return;
  }
  if (!ram_.open(cfg_.ram_path, cfg_.ram_bytes, &err_)) return;
  shm_fd_ = ::open(cfg_.shm_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (shm_fd_ < 0 || ftruncate(shm_fd_, off_t(cfg_.shm_bytes)) != 0) {
    err_ = "shared memory " + cfg_.shm_path + ": " + std::strerror(errno);
    return;
  }
  void *p = mmap(nullptr, cfg_.shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd_, 0);
  if (p == MAP_FAILED) {
    err_ = std::string("mmap shared memory: ") + std::strerror(errno);
    return;
  }
  shm_ = static_cast<uint8_t *>(p);
  auto *m = reinterpret_cast<rnic_ivs_mbox *>(shm_ + RNIC_IVS_MBOX_OFF);
  m->version = RNIC_IVS_VERSION;
  m->sim_peer = uint32_t(IvsServer::kSimPeer);
  m->vectors = cfg_.vectors;
  m->ram_bytes = cfg_.ram_bytes;
  __atomic_store_n(&m->magic, RNIC_IVS_MAGIC, __ATOMIC_RELEASE);  // last: the mailbox is ready
  if (cfg_.shm_bytes > RNIC_IVS_DB_OFF)
    db_pages_ = unsigned(std::min<uint64_t>(RNIC_DB_BAR_NUM_PAGES, (cfg_.shm_bytes - RNIC_IVS_DB_OFF) / RNIC_DB_BAR_PAGE_SIZE));
  db_seen_.assign(size_t(db_pages_) * 5, 0);
  srv_.reset(new IvsServer(cfg_.sock, shm_fd_, cfg_.vectors));
  if (!srv_->ok()) {
    err_ = srv_->error();
    return;
  }
  SC_THREAD(serve);
  for (unsigned v = 0; v < cfg_.vectors && v < RnicNode::kMsixVectors; v++)
    sc_spawn([this, v] { forward_msix(v); }, sc_gen_unique_name("msix"));
}

IvsFront::~IvsFront() {
  srv_.reset();
  if (shm_) munmap(shm_, cfg_.shm_bytes);
  if (shm_fd_ >= 0) close(shm_fd_);
}

void IvsFront::forward_msix(unsigned v) {
  uint64_t seen = 0;
  for (;;) {
    node_->wait_msix(v, &seen);
    if (srv_->connected()) {
      srv_->raise(v);
      msix++;
    }
  }
}

void IvsFront::handle(uint32_t op, uint32_t addr, uint32_t data, uint32_t *rsp, uint32_t *status) {
  int resp = 0;
  *rsp = 0;
  if (g_removed) {
    // Surprise removal: reads complete with all-ones (as a root port answers for a device that
    // is gone), writes vanish; the NIC itself no longer hears from the host.
    removed = true;
    *rsp = op == RNIC_IVS_OP_READ ? ~0u : 0;
    *status = 0;
    return;
  }
  switch (op) {
    case RNIC_IVS_OP_READ:
      *rsp = node_->bar_read(addr, &resp);
      reads++;
      break;
    case RNIC_IVS_OP_WRITE:
      node_->bar_write(addr, data, 0xF, &resp);
      writes++;
      break;
    case RNIC_IVS_OP_DB:
      ivs_deliver_doorbell(node_, addr, data);
      doorbells++;
      break;
    default:
      resp = 2;
  }
  if (resp) slverr++;
  *status = uint32_t(resp);
}

// The posted writes and doorbells (struct rnic_ivs_pw) up to the guest's prod, in order.
bool IvsFront::drain_posted() {
  auto *pw = reinterpret_cast<rnic_ivs_pw *>(shm_ + RNIC_IVS_PW_OFF);
  uint32_t prod = __atomic_load_n(&pw->prod, __ATOMIC_ACQUIRE);
  uint32_t cons = pw->cons;
  if (prod == cons) return false;
  for (; cons != prod; cons++) {
    const rnic_ivs_pw_entry &e = pw->e[cons % RNIC_IVS_PW_ENTRIES];
    uint32_t rsp = 0, st = 0;
    handle(e.op, e.addr, e.data, &rsp, &st);
    posted++;
  }
  __atomic_store_n(&pw->cons, cons, __ATOMIC_RELEASE);
  return true;
}

// A bf_db seen on a page: its WQE is taken from the page's bf_data when that holds it whole,
// read twice (the same bytes both times, bf_db unchanged around them) and naming this doorbell
// (ctrl.qpn is the doorbell's QPN, ctrl.wqe_index plus its WQEBBs is the doorbell's producer
// index); then the NIC gets what a card's write-combined stores would give it: one 64-byte write
// per WQEBB, then bf_db. Otherwise (another QP of the context overwrote bf_data meanwhile, a
// torn copy) the value goes to sq_db: the same db_word, and the NIC reads the WQE from the ring,
// where the provider also wrote it. A later BlueFlame post on the same QP needs the QP idle
// (its completion polled), so it cannot overtake this one unseen.
void IvsFront::deliver_bf(unsigned u, uint32_t val) {
  const uint8_t *pg = shm_ + RNIC_IVS_DB_OFF + size_t(u) * RNIC_DB_BAR_PAGE_SIZE;
  const auto *bfdb = reinterpret_cast<const uint32_t *>(pg + RNIC_DB_BF_DB);
  uint8_t a[RNIC_DB_BF_DATA_BYTES], b[RNIC_DB_BF_DATA_BYTES];
  std::memcpy(a, pg + RNIC_DB_BF_DATA, sizeof a);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  std::memcpy(b, pg + RNIC_DB_BF_DATA, sizeof b);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  uint32_t again = __atomic_load_n(bfdb, __ATOMIC_ACQUIRE);
  unsigned bytes = (RNIC_WQE_CTRL_SIZE + 16u * rnic_wqe_ctrl_get_num_ds(a) + 63u) / 64u * 64u;
  bool whole = again == val && bytes <= sizeof a && std::memcmp(a, b, bytes) == 0 &&
               rnic_wqe_ctrl_get_qpn(a) == rnic_db_word_get_num(&val) &&
               uint16_t(rnic_wqe_ctrl_get_wqe_index(a) + bytes / 64u) == uint16_t(rnic_db_word_get_index(&val));
  uint32_t page = u * RNIC_DB_BAR_PAGE_SIZE;
  if (whole) {
    for (unsigned i = 0; i < bytes; i += 64) node_->db_write(page + RNIC_DB_BF_DATA + i, a + i, 64);
    node_->db_write32(page + RNIC_DB_BF_DB, val);
    bf_captured++;
    bf_blocks += bytes / 64;
  } else {
    node_->db_write32(page + RNIC_DB_SQ_DB, val);
    bf_torn++;
  }
}

// The doorbell words of every context's page (RNIC_IVS_DB_OFF): a word that changed since the
// last look is delivered to the NIC, as the store of a card's doorbell page would be. bf_db
// goes first: an sq_db of the same QP changed in the same look came after it (BlueFlame is
// used on an idle QP only, so an earlier sq_db was delivered in an earlier look).
bool IvsFront::scan_doorbell_pages() {
  bool any = false;
  static const uint32_t words[5] = {RNIC_DB_BF_DB, RNIC_DB_SQ_DB, RNIC_DB_RQ_DB, RNIC_DB_CQ_DB, RNIC_DB_CQ_ARM};
  static const unsigned by[5] = {4, 0, 1, 2, 3};  // page_doorbells_by's index of each
  for (unsigned u = 0; u < db_pages_; u++) {
    const uint8_t *pg = shm_ + RNIC_IVS_DB_OFF + size_t(u) * RNIC_DB_BAR_PAGE_SIZE;
    for (unsigned w = 0; w < 5; w++) {
      uint32_t v = __atomic_load_n(reinterpret_cast<const uint32_t *>(pg + words[w]), __ATOMIC_ACQUIRE);
      uint32_t &seen = db_seen_[size_t(u) * 5 + by[w]];
      if (v == seen) continue;
      seen = v;
      if (!v) continue;  // the module zeroed the page for a new context: no doorbell
      if (g_removed) continue;
      if (words[w] == RNIC_DB_BF_DB)
        deliver_bf(u, v);
      else
        ivs_deliver_doorbell(node_, u * RNIC_DB_BAR_PAGE_SIZE + words[w], v);
      page_doorbells++;
      page_doorbells_by[by[w]]++;
      last_db_page = u, last_db_off = words[w], last_db_val = v;
      any = true;
    }
  }
  return any;
}

// Free-running in simulated time (the NIC keeps working between requests: the guest polls
// command completions in its RAM without register accesses); after cfg_.idle_ms of wall time
// without a request it blocks up to 1 ms per 10 us of simulated time on the doorbell eventfds,
// so an idle guest does not cost a core.
void IvsFront::serve() {
  auto *m = reinterpret_cast<rnic_ivs_mbox *>(shm_ + RNIC_IVS_MBOX_OFF);
  const auto wall0 = std::chrono::steady_clock::now();
  auto last = wall0;
  uint32_t done_seq = __atomic_load_n(&m->rsp_seq, __ATOMIC_ACQUIRE);
  std::vector<pollfd> pfds;
  for (int fd : srv_->doorbell_fds()) pfds.push_back({fd, POLLIN, 0});
  bool idle = false;
  for (unsigned iter = 0;; iter++) {
    if (!srv_->connected()) {
      if (srv_->accept_client()) {
        guest_seen = true;
        last = std::chrono::steady_clock::now();
      } else if (!srv_->error().empty()) {
        err_ = srv_->error();
        sc_stop();
        return;
      }
    }
    // Posted writes first (those before a request in the guest's program order are in the
    // ring before its req_seq moved: read after it, prod covers them).
    uint32_t seq = __atomic_load_n(&m->req_seq, __ATOMIC_ACQUIRE);
    if (drain_posted()) {
      last = std::chrono::steady_clock::now();
      idle = false;
    }
    if (seq != done_seq) {
      uint32_t rsp = 0, st = 0;
      handle(m->req_op, m->req_addr, m->req_data, &rsp, &st);
      requests++;
      m->rsp_data = rsp;
      m->rsp_status = st;
      __atomic_store_n(&m->rsp_seq, seq, __ATOMIC_RELEASE);
      done_seq = seq;
      last = std::chrono::steady_clock::now();
      idle = false;
      continue;
    }
    if ((iter & 15) == 0 && scan_doorbell_pages()) {
      last = std::chrono::steady_clock::now();  // user-space traffic of the guest
      idle = false;
    }
    if ((iter & 255) == 0) {
      if (g_panic && !panicked && !g_removed) inject_panic();
      rings += srv_->drain_doorbells();
      auto now = std::chrono::steady_clock::now();
      if (guest_seen && srv_->client_gone()) {
        sc_stop();  // QEMU exited
        return;
      }
      if (cfg_.timeout_s > 0 && std::chrono::duration<double>(now - wall0).count() > cfg_.timeout_s) {
        timed_out = true;
        sc_stop();
        return;
      }
      if (cfg_.activity) {
        uint64_t a = cfg_.activity();
        if (a != activity_seen_) activity_seen_ = a, last = now;
      }
      idle = std::chrono::duration<double, std::milli>(now - last).count() > cfg_.idle_ms;
    }
    if (idle) {
      if (::poll(pfds.data(), pfds.size(), 1) > 0) {
        last = std::chrono::steady_clock::now();
        idle = false;
      }
      wait(sc_time(10, SC_US));
      continue;
    }
    wait(sc_time(200, SC_NS));
  }
}
