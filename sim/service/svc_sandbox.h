// The environment `rnic-sim run` gives its command so that an unmodified libibverbs finds the
// simulated NICs without kernel RDMA support: a fake sysfs tree (SYSFS_PATH), a private mount
// namespace whose /dev has infiniband/uverbsN (bound to /dev/full, so a stray kernel command
// fails cleanly with ENOSPC), and netlink RDMA enumeration refused (seccomp), so libibverbs
// falls back to that sysfs tree even on a host whose kernel has ib_core loaded.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

struct SvcNicIdent {
  std::string name;      // ibdev name, "rnic0"
  uint32_t ipv4;         // host order
  uint8_t mac[6];
  unsigned gid_tbl_len;  // GID files written (index 0 link-local, 1 the IPv4-mapped one, rest zero)
  std::string fw_ver;
};

// The tree under root/class/{infiniband,infiniband_verbs}. false with *err on failure.
bool svc_write_sysfs(const std::string &root, const std::vector<SvcNicIdent> &nics, std::string *err);

// In the forked child, before exec: enters a private mount namespace (through a user namespace
// when not root), puts a copy of /dev with infiniband/uverbs0..n-1 over /dev (staging is an
// empty directory it may mount on), and refuses NETLINK_RDMA sockets. false with *err.
bool svc_enter_sandbox(const std::string &staging, unsigned num_nics, std::string *err);

// GID text as sysfs prints it: eight groups of four hex digits.
std::string svc_gid_text(const uint8_t gid[16]);
