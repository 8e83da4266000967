// One NIC port joined to an external frame socket instead of another simulated NIC: the far end
// is a process outside the simulation (a QEMU guest's virtio-net, see sim/guest/). Two kinds:
// a UNIX stream socket this port listens on (QEMU `-netdev stream`, server=off: each frame
// preceded by its length, 4 bytes big-endian; flow-controlled, so nothing is lost between the
// processes), or UDP on 127.0.0.1 (`-netdev dgram`, one frame per datagram: the kernel drops
// datagrams when QEMU's socket buffer is full, 212992 bytes by default: measured, 1 MiB
// messages at MTU 4096 lost frames that way).
//
// The port is an EthLink with side 0 = the node and side 1 = nobody: frames the node sends are
// handed (on_deliver, after the link's timing and faults) to the socket; datagrams read from the
// socket are sent by side 1 into the link, so they reach the node with the link's serialization,
// delay, faults and pcap. Buffered, never dropping: the link's TX queue for side 1 is unbounded,
// the socket's receive buffer is made large, and a send the kernel refuses for space is retried
// (blocking). The socket is polled every poll_ns of simulated time (the simulation is far slower
// than real time, so this is far more often than the guest can send).
// It also learns IPv4 -> MAC from the source fields of ARP and IPv4 frames it receives, and holds
// static entries (add_neighbour), for the host-side address resolution of the service.
#pragma once
#include <systemc.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "net/eth_link.h"

class EthExtPort : public sc_module {
 public:
  SC_HAS_PROCESS(EthExtPort);
  // Binds 127.0.0.1:lport, sends to 127.0.0.1:rport.
  EthExtPort(sc_module_name name, RnicNode *node, uint16_t lport, uint16_t rport, const EthLinkCfg &cfg,
             double poll_ns = 200);
  // Listens on the UNIX stream socket `path` (one peer).
  EthExtPort(sc_module_name name, RnicNode *node, const std::string &path, const EthLinkCfg &cfg,
             double poll_ns = 200);
  ~EthExtPort() override;
  bool ok() const { return stream_ ? lfd_ >= 0 : fd_ >= 0; }
  const std::string &error() const { return err_; }
  EthLink &link() { return *link_; }
  void add_neighbour(uint32_t ipv4, const uint8_t mac[6]);
  bool neighbour(uint32_t ipv4, uint8_t mac[6]) const;  // static or learned
  uint64_t frames_in() const { return in_; }            // datagrams taken from the socket
  uint64_t frames_out() const { return out_; }          // frames written to the socket

 private:
  void rx_thread();
  void stream_io();  // stream mode: accept, read whole frames, write what waits
  void setup_link(const EthLinkCfg &cfg);
  void learn(const uint8_t *f, size_t n);
  std::unique_ptr<EthLink> link_;
  int fd_ = -1;
  bool stream_ = false;
  int lfd_ = -1;                      // stream mode: the listening socket
  std::string path_;
  std::vector<uint8_t> inbuf_, outbuf_;  // stream mode: partial input, unsent output
  std::string err_;
  sc_time poll_;
  std::map<uint32_t, std::array<uint8_t, 6>> neigh_;
  uint64_t in_ = 0, out_ = 0;
};
