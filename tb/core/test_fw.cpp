// The firmware subsystem inside rnic_core, driven through BAR0 by the host driver's own code:
// the baked-in image boots and logs "boot ok"; the host reloads images through the window; a
// corrupted or foreign image is refused and never runs; a trap ends in a panic record.
#include <systemc.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "host/sim_os.h"
#include "main/sim_program.h"
#include "nic/rnic_node.h"
#include "tb_check.h"
extern "C" {
#include "rnic_fw.h"
#include "rnic_spec.h"
}

namespace {

std::vector<uint8_t> read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

struct FwTest : sc_module {
  SC_HAS_PROCESS(FwTest);
  FwTest(sc_module_name n, RnicNode *nic, std::vector<uint8_t> good, std::vector<uint8_t> trap)
      : sc_module(n), nic_(nic), good_(std::move(good)), trap_(std::move(trap)) {
    SC_THREAD(run);
  }
  TbResults r;

 private:
  uint32_t rd(uint32_t a, int *resp = nullptr) { return nic_->bar_read(a, resp); }

  // Waits (in simulated time) until the firmware reports READY, up to max_us.
  bool wait_ready(double max_us) {
    for (double t = 0; t < max_us; t += 1.0) {
      if (rd(RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_READY) return true;
      wait(sc_time(1, SC_US));
    }
    return false;
  }

  // CRC-32 (IEEE, reflected), as mkimage.py writes imem_crc
  static uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
      c ^= p[i];
      for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
  }

  // The loader's own check of a header written straight into DMEM (no IMEM download, no driver
  // checks): hold, the header words at DMEM 0, release; the status once the check ends.
  uint32_t check_header(const uint8_t *hdr) {
    nic_->bar_write(RNIC_REG_CPU_CPU_CONTROL, 1);
    wait(sc_time(100, SC_NS));
    for (uint32_t i = 0; i < RNIC_FW_IMAGE_HDR_SIZE; i += 4)
      nic_->bar_write(RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2 + i,
                      uint32_t(hdr[i]) | uint32_t(hdr[i + 1]) << 8 | uint32_t(hdr[i + 2]) << 16 |
                          uint32_t(hdr[i + 3]) << 24);
    nic_->bar_write(RNIC_REG_CPU_CPU_CONTROL, 0);
    uint32_t st = 0;
    for (int t = 0; t < 200; t++) {
      st = rd(RNIC_REG_CPU_CPU_STATUS);
      if (st & (RNIC_CPU_STATUS_REFUSED_MASK | RNIC_CPU_STATUS_ACCEPTED_MASK)) break;
      wait(sc_time(1, SC_US));
    }
    return st;
  }

  std::string log_text(const rnic_os &os) {
    char buf[512];
    int n = rnic_fw_log_read(&os, buf, sizeof(buf));
    return n < 0 ? std::string("<error ") + std::to_string(n) + ">" : std::string(buf, n);
  }

  void run() {
    SimOsCtx osc{nic_, nullptr};
    rnic_os os = sim_os_for(&osc);

    // 1. The baked-in image is checked after reset and boots.
    bool ready = wait_ready(1000);
    uint32_t st = rd(RNIC_REG_CPU_CPU_STATUS);
    r.check(ready && st == 0x3, "fw-baked-image-accepted-and-running", "ready %d status 0x%x", ready, st);
    r.check(rd(RNIC_REG_CPU_FW_VERSION) == 0x00010000u, "fw-version-register");
    std::string log = log_text(os);
    r.check(log == "boot ok 1.0 core 0\n", "fw-log-boot-ok-over-bar0", "log '%s'", log.c_str());
    r.check((rd(RNIC_REG_CTRL_STATUS) & 0x6) == 0x2, "fw-ready-in-ctrl-status");
    uint32_t hb0 = rd(RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(2, SC_US));
    uint32_t hb1 = rd(RNIC_REG_CPU_HEARTBEAT);
    r.check(hb1 > hb0, "fw-heartbeat-advances", "%u -> %u", hb0, hb1);

    // 2. While the core runs the host may read DMEM only.
    int resp = -1;
    nic_->bar_write(RNIC_BAR0_FW_WINDOW_BASE, 0, 0xF, &resp);
    int resp2 = -1, resp3 = -1;
    rd(RNIC_BAR0_FW_WINDOW_BASE, &resp2);
    rd(RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2, &resp3);
    r.check(resp == 2 && resp2 == 2 && resp3 == 0, "fw-window-guarded-while-running", "%d %d %d", resp, resp2, resp3);

    // 3. Held core: the window reads back what was written, word for word.
    nic_->bar_write(RNIC_REG_CPU_CPU_CONTROL, 1);
    wait(sc_time(100, SC_NS));
    st = rd(RNIC_REG_CPU_CPU_STATUS);
    bool rw_ok = (st & 1) == 0;
    for (uint32_t i = 0; i < 16 && rw_ok; i++) {
      uint32_t a = RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE / 2 + 0x8000 + 4 * i;
      nic_->bar_write(a, 0x9e3779b9u * (i + 1));
      rw_ok = rd(a) == 0x9e3779b9u * (i + 1);
    }
    r.check(rw_ok, "fw-window-readback-while-held", "status 0x%x", st);
    int r_un = -1, r_part = -1;
    rd(RNIC_BAR0_FW_WINDOW_BASE + 0x10000, &r_un);  // past the 64 KiB IMEM
    nic_->bar_write(RNIC_BAR0_FW_WINDOW_BASE, 0, 0x3, &r_part);
    r.check(r_un == 2 && r_part == 2, "fw-window-out-of-range-and-partial-write-slverr");

    // 4. A corrupted image (one IMEM bit flipped, header intact) is refused and does not run.
    std::vector<uint8_t> bad = good_;
    bad[RNIC_FW_IMAGE_HDR_SIZE + 100] ^= 0x10;
    int rc = rnic_fw_load(&os, bad.data(), bad.size(), 2000);
    st = rd(RNIC_REG_CPU_CPU_STATUS);
    uint32_t hb2 = rd(RNIC_REG_CPU_HEARTBEAT);
    wait(sc_time(2, SC_US));
    r.check(rc == -EBADMSG && st == 0x4 && rd(RNIC_REG_CPU_HEARTBEAT) == hb2, "fw-corrupt-image-refused",
            "rc %d status 0x%x", rc, st);

    // 5. A bad magic is refused too; a malformed file never reaches the device.
    bad = good_;
    bad[RNIC_FW_IMAGE_HDR_SIZE + rnic_fw_image_hdr_get_imem_size(good_.data())] ^= 0xFF;  // DMEM magic
    rc = rnic_fw_load(&os, bad.data(), bad.size(), 2000);
    r.check(rc == -EBADMSG && rd(RNIC_REG_CPU_CPU_STATUS) == 0x4, "fw-bad-magic-refused", "rc %d", rc);
    rc = rnic_fw_load(&os, good_.data(), good_.size() - 4, 2000);
    r.check(rc == -EINVAL, "fw-truncated-file-rejected-by-driver", "rc %d", rc);

    // 6. The good image loads and boots again from scratch.
    rc = rnic_fw_load(&os, good_.data(), good_.size(), 2000);
    ready = wait_ready(1000);
    log = log_text(os);
    r.check(rc == 0 && ready && log == "boot ok 1.0 core 0\n", "fw-reload-boots", "rc %d log '%s'", rc, log.c_str());

    // 6b. An image whose IMEM fills the whole 64 KiB (the good code, zeros after it): every IMEM
    // word is read and checked, the image boots.
    {
      uint32_t isz = rnic_fw_image_hdr_get_imem_size(good_.data());
      std::vector<uint8_t> big(good_.begin(), good_.begin() + RNIC_FW_IMAGE_HDR_SIZE + isz);
      big.resize(RNIC_FW_IMAGE_HDR_SIZE + 0x10000, 0);
      big.insert(big.end(), good_.begin() + RNIC_FW_IMAGE_HDR_SIZE + isz, good_.end());
      for (size_t off : {size_t(0), RNIC_FW_IMAGE_HDR_SIZE + size_t(0x10000)}) {  // file header, DMEM copy
        rnic_fw_image_hdr_set_imem_size(big.data() + off, 0x10000);
        rnic_fw_image_hdr_set_imem_crc(big.data() + off, crc32(big.data() + RNIC_FW_IMAGE_HDR_SIZE, 0x10000));
      }
      rc = rnic_fw_load(&os, big.data(), big.size(), 4000);
      ready = wait_ready(1000);
      log = log_text(os);
      r.check(rc == 0 && ready && rd(RNIC_REG_CPU_CPU_STATUS) == 0x3 && log == "boot ok 1.0 core 0\n",
              "fw-full-64k-imem-image-accepted-and-boots", "rc %d log '%s'", rc, log.c_str());
      // 6c. IMEM sizes at the limits of the loader's check, headers written straight into DMEM
      // (IMEM holds the 64 KiB image now). A one-word IMEM with its CRC is accepted. One word over
      // the 64 KiB IMEM is refused, though its CRC is that of the 64 KiB and the word the IMEM
      // address wraps to. A size whose word count is 2^16 + 1 is refused even with the CRC of one
      // word (a 16-bit words-done count without the size check would end after the first word).
      {
        std::vector<uint8_t> im(big.begin() + RNIC_FW_IMAGE_HDR_SIZE, big.begin() + RNIC_FW_IMAGE_HDR_SIZE + 0x10000);
        std::vector<uint8_t> h(good_.begin(), good_.begin() + RNIC_FW_IMAGE_HDR_SIZE);
        rnic_fw_image_hdr_set_imem_size(h.data(), 4);
        rnic_fw_image_hdr_set_imem_crc(h.data(), crc32(im.data(), 4));
        st = check_header(h.data());
        r.check(st == 0x3, "fw-loader-one-word-imem-accepted", "status 0x%x", st);
        im.insert(im.end(), im.begin(), im.begin() + 4);
        rnic_fw_image_hdr_set_imem_size(h.data(), 0x10000 + 4);
        rnic_fw_image_hdr_set_imem_crc(h.data(), crc32(im.data(), im.size()));
        st = check_header(h.data());
        r.check(st == 0x4, "fw-loader-imem-one-word-too-big-refused", "status 0x%x", st);
        rnic_fw_image_hdr_set_imem_size(h.data(), 0x40000 + 4);
        rnic_fw_image_hdr_set_imem_crc(h.data(), crc32(im.data(), 4));
        st = check_header(h.data());
        r.check(st == 0x4, "fw-loader-imem-word-count-past-16-bits-refused", "status 0x%x", st);
      }
    }

    // 7. A trapping image: mcause 2 (illegal instruction), mepc at the bad word, panic bits set.
    // The panic also raises the event-queue MSI-X vector: masked here, so it must stay pending.
    nic_->bar_write(RNIC_REG_EQ_EQ_MSIX_VECTOR, 3);
    nic_->bar_write(RNIC_REG_MSIX_MSIX_MASK, 1u << 3);
    uint32_t pend0 = rd(RNIC_REG_MSIX_MSIX_PENDING);
    rc = rnic_fw_load(&os, trap_.data(), trap_.size(), 2000);
    for (int t = 0; t < 500 && !(rd(RNIC_REG_CPU_CPU_STATUS) & 0x8); t++) wait(sc_time(1, SC_US));
    // The panic line follows the record; give the firmware time to format it.
    for (int t = 0; t < 200 && (log = log_text(os)).find("panic") == std::string::npos; t++)
      wait(sc_time(1, SC_US));
    st = rd(RNIC_REG_CPU_CPU_STATUS);
    uint32_t mcause = rd(RNIC_REG_CPU_PANIC_MCAUSE), mepc = rd(RNIC_REG_CPU_PANIC_MEPC);
    uint32_t insn = 0xFFFFFFFF;
    nic_->bar_write(RNIC_REG_CPU_CPU_CONTROL, 1);  // hold, then read the faulting word from IMEM
    wait(sc_time(100, SC_NS));
    if (mepc < 0x10000) insn = rd(RNIC_BAR0_FW_WINDOW_BASE + mepc);
    r.check(log.find("panic mcause 00000002") != std::string::npos, "fw-panic-logged", "log '%s'", log.c_str());
    r.check(rc == 0 && (st & 0x8) && mcause == 2 && insn == 0 &&
                rd(RNIC_REG_CPU_FW_STATUS) == RNIC_FW_STATUS_PANIC && (rd(RNIC_REG_CTRL_STATUS) & 0x4),
            "fw-trap-panic-record", "rc %d status 0x%x mcause %u mepc 0x%x insn 0x%x", rc, st, mcause, mepc, insn);
    uint32_t pend1 = rd(RNIC_REG_MSIX_MSIX_PENDING);
    nic_->bar_write(RNIC_REG_MSIX_MSIX_MASK, 0);  // unmasked: requested and acknowledged
    wait(sc_time(100, SC_NS));
    uint32_t pend2 = rd(RNIC_REG_MSIX_MSIX_PENDING);
    r.check(pend0 == 0 && pend1 == (1u << 3) && pend2 == 0, "fw-panic-raises-msix-vector",
            "pending %x -> %x -> %x", pend0, pend1, pend2);
    nic_->bar_write(RNIC_REG_CPU_CPU_CONTROL, 0);
    sc_stop();
  }
  RnicNode *nic_;
  std::vector<uint8_t> good_, trap_;
};

int test_fw(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: test-fw GOOD.img TRAP.img\n");
    return 2;
  }
  std::vector<uint8_t> good = read_file(argv[1]), trap = read_file(argv[2]);
  if (good.empty() || trap.empty()) {
    std::printf("FAIL fw-images-readable %s %s\n", argv[1], argv[2]);
    return 1;
  }
  RnicNode nic("nic0");
  FwTest t("fw_test", &nic, good, trap);
  sc_start();
  return t.r.exit_code();
}

SimProgram reg("test-fw", "firmware boot, image loading and refusal, log ring, panic record", test_fw);

}  // namespace
