#include "ivshmem/ivs_server.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

IvsServer::IvsServer(const std::string &sock_path, int shm_fd, unsigned vectors)
    : path_(sock_path), shm_fd_(shm_fd), vectors_(vectors) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path_.size() >= sizeof a.sun_path) {
    err_ = "socket path too long: " + path_;
    return;
  }
  std::strcpy(a.sun_path, path_.c_str());
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  unlink(path_.c_str());
  if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || listen(listen_fd_, 1) != 0) {
    err_ = "ivshmem socket " + path_ + ": " + std::strerror(errno);
    if (listen_fd_ >= 0) close(listen_fd_);
    listen_fd_ = -1;
    return;
  }
  for (unsigned v = 0; v < vectors_; v++) {
    sim_efd_.push_back(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    guest_efd_.push_back(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (sim_efd_.back() < 0 || guest_efd_.back() < 0) {
      err_ = std::string("eventfd: ") + std::strerror(errno);
      close(listen_fd_);
      listen_fd_ = -1;
      return;
    }
  }
}

IvsServer::~IvsServer() {
  for (int fd : sim_efd_) if (fd >= 0) close(fd);
  for (int fd : guest_efd_) if (fd >= 0) close(fd);
  if (client_fd_ >= 0) close(client_fd_);
  if (listen_fd_ >= 0) {
    close(listen_fd_);
    unlink(path_.c_str());
  }
}

bool IvsServer::send_msg(int64_t v, int fd) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = uint8_t(uint64_t(v) >> (8 * i));  // little-endian
  iovec iov{b, sizeof b};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char ctl[CMSG_SPACE(sizeof(int))];
  if (fd >= 0) {
    std::memset(ctl, 0, sizeof ctl);
    m.msg_control = ctl;
    m.msg_controllen = sizeof ctl;
    cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  return sendmsg(client_fd_, &m, MSG_NOSIGNAL) == ssize_t(sizeof b);
}

bool IvsServer::accept_client() {
  if (listen_fd_ < 0 || client_fd_ >= 0) return false;
  int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return false;
  client_fd_ = fd;
  bool ok = send_msg(0, -1) && send_msg(kGuestPeer, -1) && send_msg(-1, shm_fd_);
  for (unsigned v = 0; ok && v < vectors_; v++) ok = send_msg(kSimPeer, sim_efd_[v]);
  for (unsigned v = 0; ok && v < vectors_; v++) ok = send_msg(kGuestPeer, guest_efd_[v]);
  if (!ok) {
    err_ = std::string("ivshmem set-up to QEMU: ") + std::strerror(errno);
    close(client_fd_);
    client_fd_ = -1;
    return false;
  }
  return true;
}

bool IvsServer::client_gone() {
  if (client_fd_ < 0) return false;
  pollfd p{client_fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  char b[8];
  ssize_t n = recv(client_fd_, b, sizeof b, MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

void IvsServer::raise(unsigned v) {
  if (v >= vectors_) return;
  uint64_t one = 1;
  if (write(guest_efd_[v], &one, sizeof one) != ssize_t(sizeof one)) {}  // counter saturation only
}

uint64_t IvsServer::drain_doorbells() {
  uint64_t n = 0;
  for (int fd : sim_efd_) {
    uint64_t c = 0;
    if (read(fd, &c, sizeof c) == ssize_t(sizeof c)) n += c;
  }
  return n;
}
