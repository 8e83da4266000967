#include "service/svc_sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

extern "C" {
#include "rnic_spec.h"
#include "../linux/rnic_user_abi.h"  // RNIC_UVERBS_ABI_VERSION: the provider matches it
}

namespace {

bool put(const std::string &path, const std::string &text, std::string *err) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
    *err = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool mkdirs(const std::string &path, std::string *err) {
  for (size_t i = 1; i <= path.size(); i++) {
    if (i < path.size() && path[i] != '/') continue;
    std::string p = path.substr(0, i);
    if (mkdir(p.c_str(), 0755) != 0 && errno != EEXIST) {
      *err = "cannot create " + p + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

std::string fmt(const char *f, unsigned long long v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

}  // namespace

std::string svc_gid_text(const uint8_t g[16]) {
  char b[48];
  std::snprintf(b, sizeof b, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", g[0], g[1], g[2],
                g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
  return b;
}

bool svc_write_sysfs(const std::string &root, const std::vector<SvcNicIdent> &nics, std::string *err) {
  const std::string verbs = root + "/class/infiniband_verbs", ib = root + "/class/infiniband";
  if (!mkdirs(verbs, err) || !mkdirs(ib, err) || !put(verbs + "/abi_version", "6\n", err)) return false;
  for (size_t i = 0; i < nics.size(); i++) {
    const SvcNicIdent &n = nics[i];
    const std::string uv = verbs + "/uverbs" + std::to_string(i), d = ib + "/" + n.name;
    // EUI-64 from the MAC (universal/local bit flipped): the node GUID and the link-local GID.
    uint8_t eui[8] = {uint8_t(n.mac[0] ^ 2), n.mac[1], n.mac[2], 0xff, 0xfe, n.mac[3], n.mac[4], n.mac[5]};
    char guid[32];
    std::snprintf(guid, sizeof guid, "%02x%02x:%02x%02x:%02x%02x:%02x%02x\n", eui[0], eui[1], eui[2], eui[3], eui[4],
                  eui[5], eui[6], eui[7]);
    // dev 1:7 is /dev/full, what /dev/infiniband/uverbsN is bound to in the sandbox.
    if (!mkdirs(uv, err) || !put(uv + "/ibdev", n.name + "\n", err) || !put(uv + "/dev", "1:7\n", err) ||
        !put(uv + "/abi_version", std::to_string(RNIC_UVERBS_ABI_VERSION) + "\n", err))
      return false;
    const std::string port = d + "/ports/1";
    if (!mkdirs(d + "/device", err) || !mkdirs(port + "/gids", err) || !mkdirs(port + "/gid_attrs/types", err) ||
        !mkdirs(port + "/gid_attrs/ndevs", err) || !mkdirs(port + "/pkeys", err))
      return false;
    bool ok = put(d + "/node_type", "1: CA\n", err) && put(d + "/node_guid", guid, err) &&
              put(d + "/sys_image_guid", guid, err) && put(d + "/fw_ver", n.fw_ver + "\n", err) &&
              put(d + "/hca_type", "rnic (simulated)\n", err) && put(d + "/board_id", "rnic-sim\n", err) &&
              put(d + "/device/modalias",
                  fmt("pci:v%08llX", RNIC_PCI_VENDOR_ID) + fmt("d%08llX", RNIC_PCI_DEVICE_ID) +
                      fmt("sv%08llX", RNIC_PCI_VENDOR_ID) + "sd00000000bc02sc00i00\n",
                  err) &&
              put(d + "/device/vendor", fmt("0x%04llx\n", RNIC_PCI_VENDOR_ID), err) &&
              put(d + "/device/device", fmt("0x%04llx\n", RNIC_PCI_DEVICE_ID), err) &&
              put(port + "/state", "4: ACTIVE\n", err) && put(port + "/phys_state", "5: LinkUp\n", err) &&
              put(port + "/link_layer", "Ethernet\n", err) && put(port + "/rate", "100 Gb/sec (4X EDR)\n", err) &&
              put(port + "/lid", "0x0\n", err) && put(port + "/pkeys/0", "0xffff\n", err);
    for (unsigned g = 0; ok && g < n.gid_tbl_len; g++) {
      uint8_t gid[16] = {0};
      if (g == 0) {
        gid[0] = 0xfe, gid[1] = 0x80;
        std::memcpy(gid + 8, eui, 8);
      } else if (g == 1) {
        gid[10] = gid[11] = 0xff;
        for (int k = 0; k < 4; k++) gid[12 + k] = uint8_t(n.ipv4 >> (24 - 8 * k));
      }
      const std::string gs = std::to_string(g);
      ok = put(port + "/gids/" + gs, svc_gid_text(gid) + "\n", err) &&
           put(port + "/gid_attrs/types/" + gs, g < 2 ? "RoCE v2\n" : "\n", err) &&
           put(port + "/gid_attrs/ndevs/" + gs, g < 2 ? "lo\n" : "\n", err);
    }
    if (!ok) return false;
  }
  return true;
}

namespace {

bool fail(std::string *err, const std::string &what) {
  *err = what + ": " + std::strerror(errno);
  return false;
}

bool write_file(const char *path, const std::string &s) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, s.data(), s.size()) == ssize_t(s.size());
  close(fd);
  return ok;
}

// A plain file or directory at dst with src bind-mounted on it.
bool bind_entry(const std::string &src, const std::string &dst, bool dir) {
  if (dir) {
    if (mkdir(dst.c_str(), 0755) != 0) return false;
  } else {
    int fd = open(dst.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    close(fd);
  }
  return mount(src.c_str(), dst.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0;
}

#if defined(__x86_64__)
#define SVC_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SVC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

bool block_netlink_rdma(std::string *err) {
#ifdef SVC_AUDIT_ARCH
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SVC_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),  // low word (little-endian)
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETLINK_RDMA, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPROTONOSUPPORT & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(err, "no_new_privs");
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return fail(err, "seccomp filter");
#else
  (void)err;
#endif
  return true;
}

}  // namespace

bool svc_enter_sandbox(const std::string &staging, unsigned num_nics, std::string *err) {
  if (unshare(CLONE_NEWNS) != 0) {
    // Not root: a user namespace gives the capabilities to mount, for this process only (they
    // are gone after exec, since the command keeps its own uid).
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return fail(err, "unshare (user and mount namespace)");
    write_file("/proc/self/setgroups", "deny");
    if (!write_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
        !write_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
      return fail(err, "user namespace id maps");
  }
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return fail(err, "make / private");
  if (mount("rnic-sim-dev", staging.c_str(), "tmpfs", 0, "mode=755") != 0) return fail(err, "tmpfs for /dev");
  // Every entry of the real /dev, bound into the copy (symlinks recreated), then ours.
  DIR *d = opendir("/dev");
  if (!d) return fail(err, "open /dev");
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name, src = "/dev/" + name, dst = staging + "/" + name;
    if (name == "." || name == ".." || name == "infiniband") continue;
    struct stat st;
    if (lstat(src.c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char t[4096];
      ssize_t n = readlink(src.c_str(), t, sizeof t - 1);
      if (n > 0) {
        t[n] = 0;
        if (symlink(t, dst.c_str()) != 0) {}
      }
    } else {
      bind_entry(src, dst, S_ISDIR(st.st_mode));  // best effort: a node we cannot bind is left out
    }
  }
  closedir(d);
  const std::string ibdir = staging + "/infiniband";
  if (mkdir(ibdir.c_str(), 0755) != 0) return fail(err, "mkdir " + ibdir);
  for (unsigned i = 0; i < num_nics; i++)
    if (!bind_entry("/dev/full", ibdir + "/uverbs" + std::to_string(i), false))
      return fail(err, "uverbs" + std::to_string(i) + " node");
  if (mount(staging.c_str(), "/dev", nullptr, MS_MOVE, nullptr) != 0) return fail(err, "move the /dev copy over /dev");
  return block_netlink_rdma(err);
}
