// The ivshmem server side of QEMU's ivshmem-doorbell device (QEMU docs/specs/ivshmem-spec.txt;
// Debian ships no ivshmem-server): a UNIX stream socket QEMU connects to as a client. On
// connect the client gets, as 8-byte little-endian signed integers, some with one fd attached
// (SCM_RIGHTS): the protocol version 0; its own peer ID; -1 with the shared-memory fd; for every
// other peer, that peer's ID once per vector with an eventfd each (the client's doorbell writes
// `(peer << 16) | v` signal them); its own ID once per vector with an eventfd each (writing to
// eventfd v raises the client's MSI-X vector v). This server has exactly one other peer, itself:
// the simulated NIC (peer kSimPeer), and serves one client (the guest, peer 0) at a time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

class IvsServer {
 public:
  static constexpr int64_t kGuestPeer = 0;
  static constexpr int64_t kSimPeer = 1;

  IvsServer(const std::string &sock_path, int shm_fd, unsigned vectors);
  ~IvsServer();
  bool ok() const { return listen_fd_ >= 0; }
  const std::string &error() const { return err_; }

  // Non-blocking: accepts a waiting client and sends it the set-up. True when one was taken.
  bool accept_client();
  bool connected() const { return client_fd_ >= 0; }
  // True once the client's socket closed (QEMU exited).
  bool client_gone();
  // Raises the guest's MSI-X vector v.
  void raise(unsigned v);
  // Drains the doorbell eventfds the guest rang; the number of rings seen.
  uint64_t drain_doorbells();
  // The doorbell eventfds, to block on while idle.
  const std::vector<int> &doorbell_fds() const { return sim_efd_; }
  unsigned vectors() const { return vectors_; }

 private:
  bool send_msg(int64_t v, int fd);
  std::string path_, err_;
  int listen_fd_ = -1, client_fd_ = -1, shm_fd_ = -1;
  unsigned vectors_;
  std::vector<int> sim_efd_;    // signalled by the guest's doorbell writes to kSimPeer
  std::vector<int> guest_efd_;  // written here to raise the guest's vectors
};
