// BAR0 of rnic_core through the SystemC harness: the block chain matches the spec, identity
// and control registers behave, bad addresses answer SLVERR, doorbells and RX frames count.
#include <systemc.h>

#include <vector>

#include "host/sim_os.h"
#include "main/sim_program.h"
#include "nic/rnic_node.h"
#include "tb_check.h"
extern "C" {
#include "rnic_discover.h"
#include "rnic_spec.h"
}

namespace {

struct Bar0Test : sc_module {
  SC_HAS_PROCESS(Bar0Test);
  Bar0Test(sc_module_name n, RnicNode *nic) : sc_module(n), nic_(nic) { SC_THREAD(run); }
  TbResults r;

 private:
  uint32_t counter(unsigned idx) { return nic_->bar_read(RNIC_COUNTER_BASE + 4 * idx); }

  void run() {
    SimOsCtx osc{nic_, nullptr};
    rnic_os os = sim_os_for(&osc);
    rnic_dev_info info;
    int rc = rnic_discover(&os, &info);
    r.check(rc == 0, "bar0-discover", "rc %d", rc);
#define B(n) {RNIC_BLK_##n##_TYPE, RNIC_BLK_##n##_BASE, RNIC_BLK_##n##_VERSION}
    const struct { uint32_t type, base, version; } expect[] = {
        B(ID), B(CTRL), B(CPU), B(CMDQ), B(EQ), B(MSIX), B(COUNTERS), B(DOORBELL),
    };
#undef B
    bool chain_ok = info.num_blocks == sizeof(expect) / sizeof(expect[0]);
    for (unsigned i = 0; chain_ok && i < info.num_blocks; i++)
      chain_ok = info.blocks[i].type == expect[i].type && info.blocks[i].base == expect[i].base &&
                 info.blocks[i].version == expect[i].version;
    r.check(chain_ok, "bar0-block-chain-matches-spec", "%u blocks", info.num_blocks);
    r.check(info.vendor_id == RNIC_PCI_VENDOR_ID && info.device_id == RNIC_PCI_DEVICE_ID, "bar0-pci-id",
            "%04x:%04x", info.vendor_id, info.device_id);
    r.check(info.spec_hash == RNIC_SPEC_HASH, "bar0-spec-hash", "0x%08x", info.spec_hash);
    r.check(info.hw_version == RNIC_HW_VERSION && info.clock_mhz == 250, "bar0-version-clock");
    r.check(info.data_width == 512 && info.num_cores == 1, "bar0-datapath-params", "%u %u", info.data_width,
            info.num_cores);
    const uint32_t caps = (1u << RNIC_ID_CAPS_RC) | (1u << RNIC_ID_CAPS_UD) | (1u << RNIC_ID_CAPS_ATOMICS) |
                          (1u << RNIC_ID_CAPS_BLUEFLAME) | (1u << RNIC_ID_CAPS_MSIX) | (1u << RNIC_ID_CAPS_FW_LOAD);
    r.check(info.caps == caps, "bar0-caps-every-feature", "caps 0x%x want 0x%x", info.caps, caps);
    r.check(rnic_find_block(&info, RNIC_BLK_DOORBELL_TYPE) == RNIC_BLK_DOORBELL_BASE &&
                rnic_find_block(&info, 0x12345678) == 0,
            "bar0-find-block");
    r.check(nic_->bar_read(RNIC_REG_DOORBELL_DB_BAR) == RNIC_DB_BAR_INDEX &&
                nic_->bar_read(RNIC_REG_DOORBELL_DB_PAGE_SIZE) == RNIC_DB_BAR_PAGE_SIZE &&
                nic_->bar_read(RNIC_REG_DOORBELL_DB_NUM_PAGES) == RNIC_DB_BAR_NUM_PAGES &&
                nic_->bar_read(RNIC_REG_COUNTERS_NUM_COUNTERS) == RNIC_NUM_COUNTERS,
            "bar0-doorbell-and-counter-descriptors");
    r.check(info.db_bar == RNIC_DB_BAR_INDEX && info.db_page_size == 4096 && info.db_num_pages == RNIC_DB_BAR_NUM_PAGES,
            "bar0-discover-doorbell-bar", "bar %u page %u pages %u", info.db_bar, info.db_page_size, info.db_num_pages);

    // Scratch: full write, then a single-byte write merges under its strobe.
    int resp = -1;
    nic_->bar_write(RNIC_REG_CTRL_SCRATCH, 0xA5A55A5Au, 0xF, &resp);
    uint32_t v = nic_->bar_read(RNIC_REG_CTRL_SCRATCH);
    r.check(resp == 0 && v == 0xA5A55A5Au, "bar0-scratch-rw", "resp %d v 0x%08x", resp, v);
    nic_->bar_write(RNIC_REG_CTRL_SCRATCH, 0x11223344u, 0x2);
    v = nic_->bar_read(RNIC_REG_CTRL_SCRATCH);
    r.check(v == 0xA5A5335Au, "bar0-scratch-byte-strobe", "v 0x%08x", v);

    // Constants ignore writes.
    nic_->bar_write(RNIC_REG_ID_PCI_ID, 0xdeadbeefu);
    v = nic_->bar_read(RNIC_REG_ID_PCI_ID);
    r.check(v == (RNIC_PCI_VENDOR_ID | RNIC_PCI_DEVICE_ID << 16), "bar0-const-ignores-write", "v 0x%08x", v);

    // Undefined offsets inside the register window read 0 with OKAY.
    v = nic_->bar_read(RNIC_BLK_CTRL_BASE + 0xF0, &resp);
    r.check(v == 0 && resp == 0, "bar0-undefined-register-reads-zero");

    // Unmapped space and the (not yet attached) firmware window answer SLVERR, reads and writes.
    int rresp = -1, wresp = -1;
    nic_->bar_read(0x80000, &rresp);
    nic_->bar_write(0x80000, 1, 0xF, &wresp);
    r.check(rresp == 2 && wresp == 2, "bar0-unmapped-slverr", "r %d w %d", rresp, wresp);
    nic_->bar_read(RNIC_BAR0_FW_WINDOW_BASE, &rresp);
    r.check(rresp == 2, "bar0-fw-window-without-core-slverr", "r %d", rresp);

    // The cycle counter advances with simulated time.
    uint32_t c0 = nic_->bar_read(RNIC_REG_CTRL_CYCLE_LO);
    sc_time t0 = sc_time_stamp();
    wait(1000 * nic_->period());
    uint32_t c1 = nic_->bar_read(RNIC_REG_CTRL_CYCLE_LO);
    uint64_t elapsed = uint64_t((sc_time_stamp() - t0) / nic_->period());
    r.check(c1 - c0 >= 1000 && c1 - c0 <= elapsed + 2, "bar0-cycle-counter", "delta %u elapsed %llu", c1 - c0,
            (unsigned long long)elapsed);

    // Doorbell-BAR writes are counted, one per doorbell word, in any context page; the old
    // BAR0 doorbell range answers SLVERR and counts nothing.
    uint32_t d0 = counter(RNIC_CNT_DOORBELLS);
    nic_->db_write32(RNIC_DB_SQ_DB, 0x00010001u);
    nic_->db_write32(5 * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_CQ_DB, 0x00020003u);
    nic_->db_write32((RNIC_DB_BAR_NUM_PAGES - 1) * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_RQ_DB, 7);
    uint8_t two[8] = {1, 0, 2, 0, 3, 0, 4, 0};  // sq_db and rq_db in one write
    nic_->db_write(9 * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_SQ_DB, two, 8);
    wait(10 * nic_->period());
    uint32_t d1 = counter(RNIC_CNT_DOORBELLS);
    r.check(d1 - d0 == 5 && nic_->db_error_responses() == 0, "dbbar-doorbells-counted", "delta %u", d1 - d0);
    nic_->bar_write(RNIC_BAR0_FW_WINDOW_BASE + RNIC_BAR0_FW_WINDOW_SIZE, 0x00010001u, 0xF, &wresp);
    r.check(wresp == 2 && counter(RNIC_CNT_DOORBELLS) == d1, "bar0-old-doorbell-range-slverr", "resp %d", wresp);

    // RX frames and bytes are counted.
    uint32_t f0 = counter(RNIC_CNT_RX_FRAMES), b0 = counter(RNIC_CNT_RX_BYTES);
    for (size_t len : {60u, 64u, 130u}) nic_->rx_frame(std::vector<uint8_t>(len, 0x5a));
    wait(50 * nic_->period());
    uint32_t f1 = counter(RNIC_CNT_RX_FRAMES), b1 = counter(RNIC_CNT_RX_BYTES);
    r.check(f1 - f0 == 3 && b1 - b0 == 254, "bar0-rx-frames-counted", "frames %u bytes %u", f1 - f0, b1 - b0);
    sc_stop();
  }
  RnicNode *nic_;
};

int test_bar0(int, char **) {
  RnicNode nic("nic0");
  Bar0Test t("bar0_test", &nic);
  sc_start();
  return t.r.exit_code();
}

SimProgram reg("test-bar0", "BAR0 register map, block chain, errors and counters", test_bar0);

}  // namespace
