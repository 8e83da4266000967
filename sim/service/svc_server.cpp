#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: one thread per attached client
#include "service/svc_server.h"

#include "host/host_rdma.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <set>

extern "C" {
#include "rnic_mr.h"
#include "rnic_spec.h"
#include "rnicp_sim_proto.h"
}

namespace {

struct SvcWqe {
  uint16_t index;
  sc_time t;
  uint64_t bytes;
};

struct SvcQp {
  uint32_t qpn = 0, type = 0, sq_log = 0;
  uint64_t buf = 0, user_handle = 0;
  uint16_t pi = 0;  // SQ producer index seen at the last doorbell
  std::deque<SvcWqe> pending;
  SvcQpStats *st = nullptr;
};

struct SvcCq {
  uint64_t ring = 0, dbrec = 0, user_handle = 0;
  uint32_t log = 0;
};

// What the kernel's uverbs writes to a context's async_fd (include/uapi/rdma/ib_user_verbs.h).
struct SvcAsyncEvent {
  uint64_t element;
  uint32_t event_type, reserved;
};

}  // namespace

struct SvcClient {
  int fd = -1;
  pid_t pid = 0;
  uint64_t slot = 0;
  SvcNic *nic = nullptr;
  uint32_t kind = ~0u, uctx = 0;
  std::unique_ptr<ProcMem> mem;
  std::deque<std::vector<uint8_t>> inbox;
  sc_event ev;
  bool closed = false;
  SvcClient *events = nullptr;   // VERBS: its EVENTS connection, if any
  SvcClient *events_of = nullptr;  // EVENTS: the VERBS connection it serves
  std::set<uint32_t> pds, ahs;
  std::map<uint32_t, uint64_t> mrs;  // lkey -> va
  std::map<uint32_t, SvcCq> cqs;
  std::map<uint32_t, SvcQp> qps;
};

SvcServer::SvcServer(sc_module_name name, std::vector<SvcNic *> nics, const std::string &sock_path, double poll_ns)
    : sc_module(name), nics_(std::move(nics)), path_(sock_path), poll_(poll_ns, SC_NS) {
  trace_ = std::getenv("RNIC_SIM_TRACE") != nullptr;  // one line per message on stderr
  listen_fd_ = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (listen_fd_ < 0 || path_.size() >= sizeof a.sun_path) {
    err_ = "socket: " + std::string(std::strerror(errno));
  } else {
    std::strcpy(a.sun_path, path_.c_str());
    unlink(path_.c_str());
    if (bind(listen_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || listen(listen_fd_, 64) != 0) {
      err_ = "bind/listen " + path_ + ": " + std::strerror(errno);
      close(listen_fd_);
      listen_fd_ = -1;
    }
  }
  for (size_t i = 0; i < nics_.size(); i++) {
    SvcNic *n = nics_[i];
    sc_spawn([this, n] { nic_init_thread(n); }, sc_gen_unique_name("nic_init"));
  }
  SC_THREAD(poll_thread);
}

SvcServer::~SvcServer() {
  for (auto &kv : clients_) {
    close(kv.first);
    delete kv.second;
  }
  if (listen_fd_ >= 0) close(listen_fd_);
  unlink(path_.c_str());
}

// Firmware up, command queue, the port's addresses (GID 0 and 1: the IPv4 address), limits.
void SvcServer::nic_init_thread(SvcNic *n) {
  n->osc = SimOsCtx{n->node, &n->mem};
  n->os = sim_os_for(&n->osc);
  n->os.log = nullptr;
  for (int t = 0; t < 5000 && rnic_rd32(&n->os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY; t++)
    wait(sc_time(1, SC_US));
  int rc = rnic_cmdq_init(&n->q, &n->os, 6);
  if (!rc) {
    n->q.poll_us = 1;
    n->q.timeout_us = 100000;
    for (uint32_t g = 0; g < 2 && !rc; g++) rc = rnic_cmd_set_gid(&n->q, g, n->ipv4, n->mac);
  }
  if (!rc) rc = rnic_eq_init(&n->eq, &n->os, 8, 0);
  if (!rc) {
    n->server = this;
    rnic_eq_set_handler(
        &n->eq, RNIC_EQ_NUM_TYPES,
        [](void *arg, const rnic_event *ev) {
          auto *nic = static_cast<SvcNic *>(arg);
          nic->server->on_event(nic, ev);
        },
        n);
    sc_spawn([this, n] { eq_thread(n); }, sc_gen_unique_name("eq"));
  }
  if (!rc) rc = rnic_cmd_query_device(&n->q, &n->dev);
  if (!rc) rc = rnic_cmd_query_port(&n->q, &n->port);
  if (rc) n->err = "driver core bring-up failed: " + std::string(std::strerror(-rc));
  n->up = !rc;
  n->up_ev.notify(SC_ZERO_TIME);
}

void SvcServer::eq_thread(SvcNic *n) {
  for (;;) {
    n->node->wait_msix(0, &n->msix_seen);
    rnic_eq_poll(&n->eq, 64, 1);
  }
}

// CQ errors and QP errors (the verbs event rnic_eq_ib_event maps them to) go to the owning
// process's EVENTS connection, as the kernel would put them on its async_fd; completion events
// of armed CQs have no consumer without the kernel's completion channels (counted by the EQ only).
void SvcServer::on_event(SvcNic *n, const rnic_event *ev) {
  int type = rnic_eq_ib_event(ev);
  if (type < 0) return;
  for (auto &kv : clients_) {
    SvcClient *c = kv.second;
    if (c->nic != n || c->kind != RNIC_SVC_KIND_VERBS) continue;
    uint64_t user_handle = 0;
    if (ev->type == RNIC_EQ_TYPE_CQ_ERROR) {
      auto it = c->cqs.find(ev->handle);
      if (it == c->cqs.end()) continue;
      user_handle = it->second.user_handle;
    } else {
      auto it = c->qps.find(ev->handle);
      if (it == c->qps.end()) continue;
      user_handle = it->second.user_handle;
    }
    if (c->events && !c->events->closed) {
      SvcAsyncEvent e{user_handle, uint32_t(type), 0};
      if (send(c->events->fd, &e, sizeof e, MSG_DONTWAIT | MSG_NOSIGNAL) != ssize_t(sizeof e)) async_lost_++;
      else async_sent_++;
    } else {
      async_lost_++;
    }
  }
}

uint64_t SvcServer::bus(const SvcClient *c, uint64_t va) const { return (c->slot << HostMem::kWindowShift) | va; }

uint32_t SvcServer::dma_check(uint64_t addr, uint64_t len) {
  uint64_t w = addr >> HostMem::kWindowShift;
  if (!w) return 0;
  auto it = by_slot_.find(w);
  uint64_t va = addr & ((1ull << HostMem::kWindowShift) - 1);
  if (it != by_slot_.end() && it->second->mem && it->second->mem->allowed(va, len)) return 0;
  dma_refused_++;
  return 2;  // SLVERR
}

int SvcServer::resolve_mac(uint32_t ipv4, uint8_t mac[6]) const {
  for (SvcNic *n : nics_)
    if (n->ipv4 == ipv4) {
      std::memcpy(mac, n->mac, 6);
      return 0;
    }
  if (neighbour && neighbour(ipv4, mac)) return 0;
  return -EHOSTUNREACH;
}

void SvcServer::poll_thread() {
  const auto wall0 = std::chrono::steady_clock::now();
  for (;;) {
    accept_clients();
    std::vector<pollfd> pfds;
    for (auto &kv : clients_)
      if (!kv.second->closed) pfds.push_back({kv.first, POLLIN, 0});
    if (!pfds.empty() && ::poll(pfds.data(), pfds.size(), 0) > 0)
      for (auto &p : pfds)
        if (p.revents) read_client(clients_[p.fd]);
    if (!child_done_ && child_ > 0) {
      int st = 0;
      if (waitpid(child_, &st, WNOHANG) == child_) {
        child_done_ = true;
        child_status_ = st;
        kill(-child_, SIGKILL);  // background processes the command left behind
        read_counters();
        sc_stop();
        return;
      }
      if (timeout_s_ > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() > timeout_s_) {
        timed_out_ = true;
        kill(-child_, SIGKILL);
        read_counters();
        waitpid(child_, &st, 0);
        sc_stop();
        return;
      }
    }
    wait(poll_);
  }
}

void SvcServer::accept_clients() {
  if (listen_fd_ < 0) return;
  for (;;) {
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    ucred cr{};
    socklen_t l = sizeof cr;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) != 0) {
      close(fd);
      continue;
    }
    auto *c = new SvcClient;
    c->fd = fd;
    c->pid = cr.pid;
    c->slot = next_slot_++;
    clients_[fd] = c;
    clients_seen_++;
    sc_spawn([this, c] { client_thread(c); }, sc_gen_unique_name("client"));
  }
}

void SvcServer::read_client(SvcClient *c) {
  for (;;) {
    std::vector<uint8_t> m(RNIC_SVC_MAX_MSG);
    ssize_t n = recv(c->fd, m.data(), m.size(), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      c->closed = true;  // the process closed the context or exited
      break;
    }
    m.resize(size_t(n));
    c->inbox.push_back(std::move(m));
    messages_++;
  }
  c->ev.notify(SC_ZERO_TIME);
}

void SvcServer::client_thread(SvcClient *c) {
  for (;;) {
    while (c->inbox.empty() && !c->closed) wait(c->ev);
    if (c->inbox.empty()) break;
    std::vector<uint8_t> m = std::move(c->inbox.front());
    c->inbox.pop_front();
    handle(c, m);
  }
  cleanup(c);
  if (c->events) c->events->events_of = nullptr;
  if (c->events_of) c->events_of->events = nullptr;
  clients_.erase(c->fd);
  if (c->mem) {
    c->nic->mem.map_window(c->slot, nullptr);
    by_slot_.erase(c->slot);
  }
  close(c->fd);
  delete c;
}

void SvcServer::handle(SvcClient *c, const std::vector<uint8_t> &msg) {
  rnic_svc_hdr h{};
  if (msg.size() < sizeof h) return;
  std::memcpy(&h, msg.data(), sizeof h);
  uint8_t out[RNIC_SVC_MAX_MSG];
  size_t out_len = 0;
  int rc = dispatch(c, h.op, msg.data() + sizeof h, msg.size() - sizeof h, out + sizeof h, &out_len);
  if (trace_) {
    std::fprintf(stderr, "[rnic-sim %10.3f us] pid %d %s op %u rc %d", sc_time_stamp().to_seconds() * 1e6, int(c->pid),
                 c->nic ? c->nic->name.c_str() : "-", h.op, rc);
    if (h.op == RNIC_SVC_MODIFY_QP && msg.size() >= sizeof h + sizeof(rnic_svc_modify_qp)) {
      rnic_svc_modify_qp m;
      std::memcpy(&m, msg.data() + sizeof h, sizeof m);
      std::fprintf(stderr, " qpn %u mask 0x%x state %u access 0x%x rq_psn 0x%x sq_psn 0x%x dest_qpn %u rd_atomic %u/%u",
                   m.qpn, m.attr_mask, m.attr.state, m.attr.access, m.attr.rq_psn, m.attr.sq_psn, m.attr.dest_qpn,
                   m.attr.max_rd_atomic, m.attr.max_dest_rd_atomic);
    }
    std::fprintf(stderr, "\n");
  }
  if (!(h.flags & RNIC_SVC_F_REPLY)) return;
  h.rc = rc;
  std::memcpy(out, &h, sizeof h);
  if (send(c->fd, out, sizeof h + out_len, MSG_NOSIGNAL) < 0) c->closed = true;
}

// Copies the op's input struct, or fails the request when it is short.
#define IN(T, v)                       \
  T v{};                               \
  if (in_len < sizeof v) return -EINVAL; \
  std::memcpy(&v, in, sizeof v)
#define OUT(v)                     \
  do {                             \
    std::memcpy(out, &v, sizeof v); \
    *out_len = sizeof v;           \
  } while (0)

int SvcServer::dispatch(SvcClient *c, uint32_t op, const uint8_t *in, size_t in_len, uint8_t *out, size_t *out_len) {
  if (op == RNIC_SVC_HELLO) {
    IN(rnic_svc_hello, hi);
    if (c->nic) return -EALREADY;
    if (hi.version != RNIC_SVC_VERSION) return -EPROTO;
    hi.ibdev[sizeof hi.ibdev - 1] = 0;
    SvcNic *n = nullptr;
    uint32_t idx = 0;
    for (; idx < nics_.size(); idx++)
      if (nics_[idx]->name == hi.ibdev) {
        n = nics_[idx];
        break;
      }
    if (!n) return -ENODEV;
    while (!n->up && n->err.empty()) wait(n->up_ev);
    if (!n->up) return -EIO;
    c->nic = n;
    c->kind = hi.kind;
    if (hi.kind == RNIC_SVC_KIND_VERBS) {
      int rc = rnic_cmd_alloc_uctx(&n->q, &c->uctx);
      if (rc) return rc;
      c->mem.reset(new ProcMem(c->pid));
      c->mem->on_write = [this, c](uint64_t va, const void *src, size_t len) { on_dma_write(c, va, src, len); };
      n->mem.map_window(c->slot, c->mem.get());
      by_slot_[c->slot] = c;
    } else if (hi.kind == RNIC_SVC_KIND_EVENTS) {
      // Only the process that owns that context on that device may listen to it.
      SvcClient *t = nullptr;
      for (auto &kv : clients_)
        if (kv.second->kind == RNIC_SVC_KIND_VERBS && kv.second->nic == n && kv.second->uctx == hi.uctx &&
            kv.second->pid == c->pid && !kv.second->closed)
          t = kv.second;
      if (!t || t->events) {
        c->nic = nullptr;
        return t ? -EBUSY : -ENOENT;
      }
      t->events = c;
      c->events_of = t;
    } else if (hi.kind != RNIC_SVC_KIND_BAR) {
      return -EINVAL;
    }
    rnic_svc_hello_out o{RNIC_SVC_VERSION, c->uctx, idx, uint32_t(nics_.size())};
    OUT(o);
    return 0;
  }
  if (!c->nic) return -ENOTCONN;
  SvcNic *n = c->nic;
  rnic_cmdq *q = &n->q;
  if (op == RNIC_SVC_SYNC) return 0;
  if (op == RNIC_SVC_BAR_READ || op == RNIC_SVC_BAR_WRITE) {
    if (c->kind != RNIC_SVC_KIND_BAR) return -EPERM;
    IN(rnic_svc_bar, b);
    int resp = 0;
    if (op == RNIC_SVC_BAR_READ) b.val = n->node->bar_read(b.off, &resp);
    else n->node->bar_write(b.off, b.val, 0xF, &resp);
    b.resp = uint32_t(resp);
    OUT(b);
    return 0;
  }
  if (c->kind != RNIC_SVC_KIND_VERBS) return -EPERM;
  switch (op) {
    case RNIC_SVC_QUERY_DEVICE:
      OUT(n->dev);
      return 0;
    case RNIC_SVC_QUERY_PORT: {
      IN(rnic_svc_u32, p);
      if (p.v != 1) return -EINVAL;
      OUT(n->port);
      return 0;
    }
    case RNIC_SVC_ALLOC_PD: {
      rnic_svc_u32 o{};
      int rc = rnic_cmd_alloc_pd(q, c->uctx, &o.v);
      if (rc) return rc;
      c->pds.insert(o.v);
      OUT(o);
      return 0;
    }
    case RNIC_SVC_DEALLOC_PD: {
      IN(rnic_svc_u32, p);
      if (!c->pds.count(p.v)) return -ENOENT;
      int rc = rnic_cmd_dealloc_pd(q, p.v);
      if (!rc) c->pds.erase(p.v);
      return rc;
    }
    case RNIC_SVC_REG_MR: {
      IN(rnic_svc_reg_mr, r);
      if (!c->pds.count(r.pdn)) return -ENOENT;
      if (!r.len || r.addr + r.len < r.addr || (r.addr + r.len) >> HostMem::kWindowShift) return -EINVAL;
      if ((r.addr ^ r.iova) & 0xFFF) return -EOPNOTSUPP;  // the page list maps iova pages onto va pages
      rnic_svc_reg_mr_out o{};
      int rc = host_reg_mr(&n->os, q, r.pdn, r.access, r.iova, r.len, bus(c, r.addr), &o.lkey, &o.rkey);
      if (rc == -EINVAL && ((r.addr ^ r.iova) & ((1u << 21) - 1))) rc = -EOPNOTSUPP;  // 2 MiB pages need the same offset
      if (rc) return rc;
      c->mrs[o.lkey] = r.addr;
      c->mem->add(r.addr, r.len);
      OUT(o);
      return 0;
    }
    case RNIC_SVC_DEREG_MR: {
      IN(rnic_svc_u32, p);
      auto it = c->mrs.find(p.v);
      if (it == c->mrs.end()) return -ENOENT;
      int rc = rnic_cmd_dereg_mr(q, p.v);
      if (rc) return rc;
      c->mem->remove(it->second);
      c->mrs.erase(it);
      return 0;
    }
    case RNIC_SVC_CREATE_CQ: {
      IN(rnic_svc_create_cq, r);
      if (r.log_size > 16 || (r.ring & 0xFFF) || (r.dbrec & 3) || !r.dbrec) return -EINVAL;
      c->mem->add(r.ring, 32ull << r.log_size);
      c->mem->add(r.dbrec, 4);
      rnic_svc_u32 o{};
      int rc = host_create_cq(q, c->uctx, r.log_size, bus(c, r.ring), bus(c, r.dbrec), &o.v);
      if (rc) {
        c->mem->remove(r.ring);
        c->mem->remove(r.dbrec);
        return rc;
      }
      c->cqs[o.v] = SvcCq{r.ring, r.dbrec, r.user_handle, r.log_size};
      OUT(o);
      return 0;
    }
    case RNIC_SVC_DESTROY_CQ: {
      IN(rnic_svc_u32, p);
      auto it = c->cqs.find(p.v);
      if (it == c->cqs.end()) return -ENOENT;
      int rc = rnic_cmd_destroy_cq(q, p.v);
      if (rc) return rc;
      c->mem->remove(it->second.ring);
      c->mem->remove(it->second.dbrec);
      c->cqs.erase(it);
      return 0;
    }
    case RNIC_SVC_CREATE_QP: {
      IN(rnic_svc_create_qp, r);
      if (!c->pds.count(r.pdn) || !c->cqs.count(r.send_cqn) || !c->cqs.count(r.recv_cqn)) return -ENOENT;
      if ((r.buf & 0xFFF) || !r.buf_len || r.rq_offset >= r.buf_len || (64ull << r.sq_log_size) > r.buf_len)
        return -EINVAL;
      rnic_create_qp_in qi{};
      qi.uctx = c->uctx;
      qi.pdn = r.pdn;
      qi.send_cqn = r.send_cqn;
      qi.recv_cqn = r.recv_cqn;
      qi.qp_type = r.qp_type;
      qi.sq_log_size = r.sq_log_size;
      qi.rq_log_size = r.rq_log_size;
      qi.rq_log_stride = r.rq_log_stride;
      qi.rq_offset = r.rq_offset;
      qi.max_inline = r.max_inline;
      qi.sq_sig_all = r.sq_sig_all;
      qi.buf_addr = bus(c, r.buf);
      c->mem->add(r.buf, r.buf_len);
      rnic_svc_u32 o{};
      int rc = rnic_cmd_create_qp(q, &qi, &o.v);
      if (rc) {
        c->mem->remove(r.buf);
        return rc;
      }
      SvcQp &sq = c->qps[o.v];
      sq.qpn = o.v;
      sq.type = r.qp_type;
      sq.sq_log = r.sq_log_size;
      sq.buf = r.buf;
      sq.user_handle = r.user_handle;
      stats_.emplace_back(new SvcQpStats);
      sq.st = stats_.back().get();
      sq.st->nic = n->name;
      sq.st->pid = c->pid;
      sq.st->qpn = o.v;
      sq.st->type = r.qp_type;
      OUT(o);
      return 0;
    }
    case RNIC_SVC_MODIFY_QP: {
      IN(rnic_svc_modify_qp, r);
      if (!c->qps.count(r.qpn)) return -ENOENT;
      if (r.attr_mask & (1u << RNIC_QP_ATTR_AV)) {
        int rc = resolve_mac(r.attr.dest_ipv4, r.attr.dmac);
        if (rc) return rc;
      }
      return rnic_cmd_modify_qp(q, r.qpn, r.attr_mask, &r.attr);
    }
    case RNIC_SVC_QUERY_QP: {
      IN(rnic_svc_u32, p);
      if (!c->qps.count(p.v)) return -ENOENT;
      rnic_qp_attr a{};
      int rc = rnic_cmd_query_qp(q, p.v, &a);
      if (rc) return rc;
      OUT(a);
      return 0;
    }
    case RNIC_SVC_DESTROY_QP: {
      IN(rnic_svc_u32, p);
      auto it = c->qps.find(p.v);
      if (it == c->qps.end()) return -ENOENT;
      int rc = rnic_cmd_destroy_qp(q, p.v);
      if (rc) return rc;
      c->mem->remove(it->second.buf);
      c->qps.erase(it);
      return 0;
    }
    case RNIC_SVC_CREATE_AH: {
      IN(rnic_create_ah_in, a);
      if (!c->pds.count(a.pdn)) return -ENOENT;
      int rc = resolve_mac(a.dest_ipv4, a.dmac);
      if (rc) return rc;
      rnic_svc_u32 o{};
      rc = rnic_cmd_create_ah(q, &a, &o.v);
      if (rc) return rc;
      c->ahs.insert(o.v);
      OUT(o);
      return 0;
    }
    case RNIC_SVC_DESTROY_AH: {
      IN(rnic_svc_u32, p);
      if (!c->ahs.count(p.v)) return -ENOENT;
      int rc = rnic_cmd_destroy_ah(q, p.v);
      if (!rc) c->ahs.erase(p.v);
      return rc;
    }
    case RNIC_SVC_DB: {
      IN(rnic_svc_db, d);
      if (d.off >= RNIC_DB_BF_DATA || (d.off & 3)) return -EINVAL;
      if (d.off == RNIC_DB_SQ_DB || d.off == RNIC_DB_BF_DB) on_sq_doorbell(c, d.val & 0xFFFF, d.val >> 16);
      n->node->db_write32(c->uctx * RNIC_DB_BAR_PAGE_SIZE + d.off, d.val);
      return 0;
    }
    case RNIC_SVC_BF: {
      IN(rnic_svc_bf, b);
      if (!b.bytes || b.bytes % 64 || b.bytes > RNIC_DB_BF_DATA_BYTES) return -EINVAL;
      uint32_t page = c->uctx * RNIC_DB_BAR_PAGE_SIZE;
      on_sq_doorbell(c, b.db_val & 0xFFFF, b.db_val >> 16);
      // one 64-byte write-combined block per WQEBB (one beat each), then bf_db
      for (uint32_t i = 0; i < b.bytes; i += 64) n->node->db_write(page + RNIC_DB_BF_DATA + i, b.wqe + i, 64);
      n->node->db_write32(page + RNIC_DB_BF_DB, b.db_val);
      return 0;
    }
    default:
      return -EOPNOTSUPP;
  }
}

// Records the WQEs this doorbell announces (read from the process's SQ ring) for the figures.
void SvcServer::on_sq_doorbell(SvcClient *c, uint32_t qpn, uint32_t pi) {
  auto it = c->qps.find(qpn);
  if (it == c->qps.end()) return;
  SvcQp &qp = it->second;
  const uint32_t mask = (1u << qp.sq_log) - 1;
  uint16_t i = qp.pi;
  for (int guard = 0; i != uint16_t(pi) && guard < 65536; guard++) {
    uint8_t ctrl[RNIC_WQE_CTRL_SIZE];
    c->mem->read(qp.buf + uint64_t(i & mask) * 64, ctrl, sizeof ctrl);
    uint32_t nbb = (RNIC_WQE_CTRL_SIZE + 16 * rnic_wqe_ctrl_get_num_ds(ctrl) + 63) / 64;
    if (!nbb || nbb > 4) break;  // not a WQE the provider wrote: stop counting
    qp.pending.push_back({i, sc_time_stamp(), rnic_wqe_ctrl_get_total_len(ctrl)});
    if (!qp.st->any) qp.st->first_db = sc_time_stamp();
    qp.st->any = true;
    i = uint16_t(i + nbb);
  }
  qp.pi = uint16_t(pi);
}

// CQEs the NIC writes into this process's CQ rings: completions per QP, latency, errors.
void SvcServer::on_dma_write(SvcClient *c, uint64_t va, const void *src, size_t n) {
  for (auto &kv : c->cqs) {
    const SvcCq &cq = kv.second;
    uint64_t end = cq.ring + (32ull << cq.log);
    if (va < cq.ring || va + n > end) continue;
    for (uint64_t a = (va + 31) & ~31ull; a + 32 <= va + n; a += 32) {
      const uint8_t *e = static_cast<const uint8_t *>(src) + (a - va);
      auto qit = c->qps.find(rnic_cqe_get_qpn(e));
      if (qit == c->qps.end()) continue;
      SvcQp &qp = qit->second;
      SvcQpStats *st = qp.st;
      st->last_done = sc_time_stamp();
      if (rnic_cqe_get_status(e)) st->errors++;
      if (rnic_cqe_get_opcode(e) & RNIC_WC_OPCODE_RECV) {
        st->rx_msgs++;
        st->rx_bytes += rnic_cqe_get_byte_len(e);
        continue;
      }
      uint16_t idx = uint16_t(rnic_cqe_get_wqe_index(e));
      bool found = false;
      for (const SvcWqe &w : qp.pending) found |= w.index == idx;
      while (found && !qp.pending.empty()) {
        SvcWqe w = qp.pending.front();
        qp.pending.pop_front();
        if (!rnic_cqe_get_status(e)) {
          st->msgs++;
          st->bytes += w.bytes;
        }
        if (w.index != idx) continue;
        if (!rnic_cqe_get_status(e)) {
          double ns = (sc_time_stamp() - w.t).to_seconds() * 1e9;
          st->lat_min_ns = st->lat_n ? std::min(st->lat_min_ns, ns) : ns;
          st->lat_max_ns = std::max(st->lat_max_ns, ns);
          st->lat_sum_ns += ns;
          st->lat_n++;
        }
        break;
      }
    }
  }
}

// What a process left behind: QPs first (they hold CQs and the PD), then the rest.
void SvcServer::cleanup(SvcClient *c) {
  if (!c->nic || c->kind != RNIC_SVC_KIND_VERBS) return;
  rnic_cmdq *q = &c->nic->q;
  if (!c->qps.empty() || !c->cqs.empty() || !c->mrs.empty() || !c->pds.empty() || !c->ahs.empty()) {
    std::printf("rnic-sim: pid %d closed its %s context holding %zu QPs, %zu CQs, %zu MRs, %zu AHs, %zu PDs: destroyed\n",
                int(c->pid), c->nic->name.c_str(), c->qps.size(), c->cqs.size(), c->mrs.size(), c->ahs.size(),
                c->pds.size());
    std::fflush(stdout);
    leaked_++;
  }
  for (auto &kv : c->qps) rnic_cmd_destroy_qp(q, kv.first);
  for (uint32_t a : c->ahs) rnic_cmd_destroy_ah(q, a);
  for (auto &kv : c->cqs) rnic_cmd_destroy_cq(q, kv.first);
  for (auto &kv : c->mrs) rnic_cmd_dereg_mr(q, kv.first);
  for (uint32_t p : c->pds) rnic_cmd_dealloc_pd(q, p);
  rnic_cmd_dealloc_uctx(q, c->uctx);
  c->qps.clear();
  c->ahs.clear();
  c->cqs.clear();
  c->mrs.clear();
  c->pds.clear();
}

void SvcServer::print_qp_stats(FILE *f) const {
  bool head = false;
  for (const auto &p : stats_) {
    const SvcQpStats &s = *p;
    if (!s.any && !s.rx_msgs) continue;
    if (!head) {
      std::fprintf(f,
                   "rnic-sim: per QP, measured by the service in simulated time (doorbell to CQE):\n"
                   "  nic    pid     qpn      type  sent msgs   bytes         Gb/s     lat avg/min/max ns      recv msgs  recv bytes  errors\n");
      head = true;
    }
    double span = (s.last_done - s.first_db).to_seconds();
    double gbps = span > 0 && s.bytes ? s.bytes * 8.0 / span / 1e9 : 0;
    char lat[64] = "-";
    if (s.lat_n)
      std::snprintf(lat, sizeof lat, "%.0f/%.0f/%.0f", s.lat_sum_ns / double(s.lat_n), s.lat_min_ns, s.lat_max_ns);
    std::fprintf(f, "  %-6s %-7d 0x%06x %-5s %-11llu %-13llu %-8.2f %-23s %-10llu %-11llu %llu\n", s.nic.c_str(), s.pid,
                 s.qpn, s.type == RNIC_QP_TYPE_UD ? "UD" : "RC", (unsigned long long)s.msgs, (unsigned long long)s.bytes,
                 gbps, lat, (unsigned long long)s.rx_msgs, (unsigned long long)s.rx_bytes, (unsigned long long)s.errors);
  }
  if (!head) std::fprintf(f, "rnic-sim: no QP traffic\n");
}

void SvcServer::read_counters() {
  for (SvcNic *n : nics_) {
    n->counters.resize(RNIC_NUM_COUNTERS);
    for (unsigned i = 0; i < RNIC_NUM_COUNTERS; i++) n->counters[i] = n->node->bar_read(RNIC_COUNTER_BASE + 4 * i);
  }
}

void SvcServer::print_counters(FILE *f) const {
  for (SvcNic *n : nics_) {
    if (n->counters.empty()) continue;
    std::fprintf(f, "rnic-sim: %s counters:", n->name.c_str());
    for (unsigned i = 0; i < n->counters.size(); i++)
      if (n->counters[i]) std::fprintf(f, " %s %u", rnic_counter_names[i], n->counters[i]);
    std::fprintf(f, "\n");
  }
}
