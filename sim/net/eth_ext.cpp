#include "net/eth_ext.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

EthExtPort::EthExtPort(sc_module_name name, RnicNode *node, uint16_t lport, uint16_t rport, const EthLinkCfg &cfg,
                       double poll_ns)
    : sc_module(name), poll_(poll_ns, SC_NS) {
  link_.reset(new EthLink("link", node, nullptr, cfg));
  setup_link(cfg);
  fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(lport);
  sockaddr_in r = a;
  r.sin_port = htons(rport);
  int big = 16 << 20;  // frames wait here while the simulation is busy between polls
  if (fd_ < 0 || setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &big, sizeof big) != 0 ||
      setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &big, sizeof big) != 0 ||
      bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
      connect(fd_, reinterpret_cast<sockaddr *>(&r), sizeof r) != 0) {
    err_ = "external port 127.0.0.1:" + std::to_string(lport) + ": " + std::strerror(errno);
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  SC_THREAD(rx_thread);
}

EthExtPort::EthExtPort(sc_module_name name, RnicNode *node, const std::string &path, const EthLinkCfg &cfg,
                       double poll_ns)
    : sc_module(name), poll_(poll_ns, SC_NS) {
  stream_ = true;
  path_ = path;
  link_.reset(new EthLink("link", node, nullptr, cfg));
  setup_link(cfg);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  lfd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (lfd_ < 0 || path.size() >= sizeof a.sun_path) {
    err_ = "external port " + path + ": " + std::strerror(errno);
  } else {
    std::strcpy(a.sun_path, path.c_str());
    unlink(path.c_str());
    if (bind(lfd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || listen(lfd_, 1) != 0) {
      err_ = "external port " + path + ": " + std::strerror(errno);
      close(lfd_);
      lfd_ = -1;
    }
  }
  SC_THREAD(rx_thread);
}

void EthExtPort::setup_link(const EthLinkCfg &) {
  if (!link_) return;
  link_->on_deliver = [this](int dir, const std::vector<uint8_t> &f, uint64_t) {
    if (dir != 0) return;
    if (stream_) {
      // Queued behind what the peer has not taken yet; stream_io writes it.
      const uint32_t n = uint32_t(f.size());
      const uint8_t hdr[4] = {uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
      outbuf_.insert(outbuf_.end(), hdr, hdr + 4);
      outbuf_.insert(outbuf_.end(), f.begin(), f.end());
      out_++;
      stream_io();
      return;
    }
    if (fd_ < 0) return;
    // Blocking send; ECONNREFUSED only says the peer was not listening for an earlier datagram
    // (the guest not started yet): that frame is gone as on a cable with no peer, retry this one.
    for (int tries = 0; tries < 3; tries++) {
      if (send(fd_, f.data(), f.size(), 0) == ssize_t(f.size())) {
        out_++;
        return;
      }
      if (errno != ECONNREFUSED && errno != EINTR && errno != ENOBUFS && errno != EAGAIN) return;
    }
  };
}

// A frame from the peer as a MAC puts it on the wire: at least 60 bytes before the FCS (IEEE
// 802.3 minimum frame). QEMU hands over the guest driver's frame unpadded (an ARP request is 42
// bytes), which the NIC's receive path would count as a runt (rx_drop_trunc) beside the copy
// its firmware queue takes.
static std::vector<uint8_t> wire_frame(const uint8_t *f, size_t n) {
  std::vector<uint8_t> v(f, f + n);
  if (v.size() < 60) v.resize(60, 0);
  return v;
}

void EthExtPort::stream_io() {
  if (fd_ < 0 && lfd_ >= 0) fd_ = accept4(lfd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd_ < 0) return;
  while (!outbuf_.empty()) {
    ssize_t w = send(fd_, outbuf_.data(), outbuf_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w <= 0) break;
    outbuf_.erase(outbuf_.begin(), outbuf_.begin() + w);
  }
  uint8_t b[65536];
  for (;;) {
    ssize_t r = recv(fd_, b, sizeof b, MSG_DONTWAIT);
    if (r <= 0) break;
    inbuf_.insert(inbuf_.end(), b, b + r);
  }
  size_t at = 0;
  while (inbuf_.size() - at >= 4) {
    const uint32_t n = uint32_t(inbuf_[at]) << 24 | uint32_t(inbuf_[at + 1]) << 16 | uint32_t(inbuf_[at + 2]) << 8 | inbuf_[at + 3];
    if (inbuf_.size() - at - 4 < n) break;
    in_++;
    learn(inbuf_.data() + at + 4, n);
    link_->send(1, wire_frame(inbuf_.data() + at + 4, n));
    at += 4 + n;
  }
  inbuf_.erase(inbuf_.begin(), inbuf_.begin() + long(at));
}

EthExtPort::~EthExtPort() {
  if (fd_ >= 0) close(fd_);
  if (lfd_ >= 0) {
    close(lfd_);
    unlink(path_.c_str());
  }
}

void EthExtPort::add_neighbour(uint32_t ipv4, const uint8_t mac[6]) {
  std::array<uint8_t, 6> m;
  std::memcpy(m.data(), mac, 6);
  neigh_[ipv4] = m;
}

bool EthExtPort::neighbour(uint32_t ipv4, uint8_t mac[6]) const {
  auto it = neigh_.find(ipv4);
  if (it == neigh_.end()) return false;
  std::memcpy(mac, it->second.data(), 6);
  return true;
}

// Source MAC and source IPv4 of an ARP packet (sender fields) or an IPv4 packet.
void EthExtPort::learn(const uint8_t *f, size_t n) {
  if (n < 34) return;
  const unsigned et = unsigned(f[12]) << 8 | f[13];
  uint32_t ip = 0;
  const uint8_t *mac = f + 6;
  if (et == 0x0806 && n >= 42 && f[14] == 0 && f[15] == 1 && f[16] == 8 && f[17] == 0) {
    mac = f + 22;
    ip = uint32_t(f[28]) << 24 | uint32_t(f[29]) << 16 | uint32_t(f[30]) << 8 | f[31];
  } else if (et == 0x0800) {
    ip = uint32_t(f[26]) << 24 | uint32_t(f[27]) << 16 | uint32_t(f[28]) << 8 | f[29];
  }
  if (ip && !(mac[0] & 1) && !neigh_.count(ip)) add_neighbour(ip, mac);
}

void EthExtPort::rx_thread() {
  std::vector<uint8_t> buf(65536);
  for (;;) {
    if (stream_) {
      stream_io();
      wait(poll_);
      continue;
    }
    while (fd_ >= 0) {
      ssize_t n = recv(fd_, buf.data(), buf.size(), MSG_DONTWAIT);
      if (n <= 0) break;
      in_++;
      learn(buf.data(), size_t(n));
      link_->send(1, wire_frame(buf.data(), size_t(n)));
    }
    wait(poll_);
  }
}
