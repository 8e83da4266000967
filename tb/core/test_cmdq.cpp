// The driver's command queue end to end: the host driver core's client posts commands into a
// ring in simulated host memory, the firmware fetches them by DMA through the PCIe model,
// executes them and writes the results back. Run behind a polite and a hostile PCIe model.
#include <systemc.h>

#include <cerrno>
#include <cstring>

#include "host/pcie_model.h"
#include "host/sim_os.h"
#include "main/sim_program.h"
#include "nic/rnic_node.h"
#include "tb_check.h"
extern "C" {
#include "rnic_cmd.h"
#include "rnic_cmdq.h"
#include "rnic_mr.h"
#include "rnic_eq.h"
#include "rnic_fw.h"
#include "rnic_spec.h"
}

namespace {

struct CmdqTest : sc_module {
  SC_HAS_PROCESS(CmdqTest);
  CmdqTest(sc_module_name n, RnicNode *nic, HostMem *mem, const char *tag)
      : sc_module(n), nic_(nic), mem_(mem), tag_(tag) {
    SC_THREAD(run);
  }
  TbResults r;

 private:
  std::string name_of(const char *what) { return std::string("cmdq-") + tag_ + "-" + what; }
  bool check(bool ok, const char *what, const char *fmt = nullptr, int a = 0, int b = 0) {
    return fmt ? r.check(ok, name_of(what).c_str(), fmt, a, b) : r.check(ok, name_of(what).c_str());
  }

  void run() {
    SimOsCtx osc{nic_, mem_};
    rnic_os os = sim_os_for(&osc);
    for (int t = 0; t < 2000 && rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY; t++)
      wait(sc_time(1, SC_US));
    rnic_cmdq q;
    int rc = rnic_cmdq_init(&q, &os, 4);  // 16 slots
    q.poll_us = 1;
    q.timeout_us = 2000;
    check(rc == 0, "init", "rc %d", rc);

    sc_time t0 = sc_time_stamp();
    rnic_device_attr dev{};
    rc = rnic_cmd_query_device(&q, &dev);
    double first_ns = (sc_time_stamp() - t0).to_seconds() * 1e9;
    check(rc == 0 && dev.fw_version == 0x00010000u && dev.max_sge == 4 && dev.max_pd == 255 &&
              dev.page_size_cap == ((1u << 12) | (1u << 21)),
          "query-device", "rc %d fw 0x%x", rc, int(dev.fw_version));
    std::printf("INFO %s: QUERY_DEVICE round trip %.0f ns of simulated time\n", tag_, first_ns);

    const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0x11};
    rc = rnic_cmd_set_gid(&q, 0, 0x0A000011u, mac);
    rnic_port_attr port{};
    int rc2 = rnic_cmd_query_port(&q, &port);
    check(rc == 0 && rc2 == 0 && !std::memcmp(port.mac, mac, 6) && port.state == 4 && port.speed_gbps == 100,
          "set-gid-query-port", "rc %d %d", rc, rc2);
    rc = rnic_cmd_set_gid(&q, 99, 0, mac);
    check(rc == -EINVAL, "set-gid-bad-index-einval", "rc %d", rc);

    uint32_t pd1 = 0, pd2 = 0;
    rc = rnic_cmd_alloc_pd(&q, 0, &pd1);
    rc2 = rnic_cmd_alloc_pd(&q, 0, &pd2);
    check(rc == 0 && rc2 == 0 && pd1 && pd2 && pd1 != pd2, "alloc-pd", "pd %d %d", int(pd1), int(pd2));
    rc = rnic_cmd_dealloc_pd(&q, pd1);
    rc2 = rnic_cmd_dealloc_pd(&q, pd1);
    check(rc == 0 && rc2 == -ENOENT, "dealloc-pd-twice-enoent", "rc %d %d", rc, rc2);

    // A CQ and an RC QP taken through INIT, RTR and RTS with the driver's typed commands.
    rnic_create_cq_in cqi{};
    cqi.log_size = 8;
    cqi.buf_addr = mem_->alloc(32u << 8, 4096);
    cqi.dbrec_addr = mem_->alloc(64, 64);
    uint32_t cqn = 0, qpn = 0;
    rc = rnic_cmd_create_cq(&q, &cqi, &cqn);
    rnic_create_qp_in qpi{};
    qpi.pdn = pd2;
    qpi.send_cqn = qpi.recv_cqn = cqn;
    qpi.qp_type = RNIC_QP_TYPE_RC;
    qpi.sq_log_size = 6;
    qpi.rq_log_size = 6;
    qpi.rq_log_stride = 6;
    qpi.rq_offset = 64u << 6;
    qpi.buf_addr = mem_->alloc(2 * (64u << 6), 4096);
    rc2 = rnic_cmd_create_qp(&q, &qpi, &qpn);
    check(rc == 0 && rc2 == 0 && cqn && qpn >= 2, "create-cq-qp", "rc %d %d", rc, rc2);
    rnic_qp_attr a{};
    a.state = RNIC_QP_STATE_INIT;
    a.access = 0x7;
    int m1 = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_PKEY_INDEX |
                                            1u << RNIC_QP_ATTR_PORT | 1u << RNIC_QP_ATTR_ACCESS_FLAGS, &a);
    a.state = RNIC_QP_STATE_RTS;  // skipping RTR: refused with a clear errno
    int bad = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE, &a);
    a.state = RNIC_QP_STATE_RTR;
    a.path_mtu = 5;
    a.dest_qpn = 0x77;
    a.rq_psn = 0x100;
    a.min_rnr_timer = 12;
    a.max_dest_rd_atomic = 4;
    a.dest_ipv4 = 0x0A000022u;
    std::memcpy(a.dmac, mac, 6);
    int m2 = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_AV |
                                            1u << RNIC_QP_ATTR_PATH_MTU | 1u << RNIC_QP_ATTR_DEST_QPN |
                                            1u << RNIC_QP_ATTR_RQ_PSN | 1u << RNIC_QP_ATTR_MIN_RNR_TIMER |
                                            1u << RNIC_QP_ATTR_MAX_DEST_RD_ATOMIC, &a);
    a.state = RNIC_QP_STATE_RTS;
    a.sq_psn = 0x200;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 4;
    int m3 = rnic_cmd_modify_qp(&q, qpn, 1u << RNIC_QP_ATTR_STATE | 1u << RNIC_QP_ATTR_SQ_PSN |
                                            1u << RNIC_QP_ATTR_TIMEOUT | 1u << RNIC_QP_ATTR_RETRY_CNT |
                                            1u << RNIC_QP_ATTR_RNR_RETRY | 1u << RNIC_QP_ATTR_MAX_QP_RD_ATOMIC, &a);
    rnic_qp_attr got{};
    int qr = rnic_cmd_query_qp(&q, qpn, &got);
    check(m1 == 0 && bad == -EINVAL && m2 == 0 && m3 == 0 && qr == 0 && got.state == RNIC_QP_STATE_RTS &&
              got.sq_psn == 0x200 && got.rq_psn == 0x100 && got.dest_qpn == 0x77 && !std::memcmp(got.dmac, mac, 6),
          "qp-reset-init-rtr-rts", "modify %d query %d", m3, qr);
    // Doorbells reach the firmware through the capture FIFO and its mailbox: one from a page
    // that does not own the QP is refused (and logged); the owner's is taken silently.
    uint32_t db0 = rnic_rd32(&os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DOORBELLS);
    nic_->db_write32(3 * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_SQ_DB, qpn | 1u << 16);
    nic_->db_write32(RNIC_DB_SQ_DB, qpn | 1u << 16);
    wait(sc_time(20, SC_US));
    char logbuf[1024];
    int ln = rnic_fw_log_read(&os, logbuf, sizeof(logbuf));
    std::string log(logbuf, ln > 0 ? ln : 0);
    int refused = 0;
    for (size_t at = log.find("doorbell 3 value"); at != std::string::npos; at = log.find("doorbell 3 value", at + 1))
      refused++;
    check(rnic_rd32(&os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_DOORBELLS) - db0 == 2 && refused == 1 &&
              log.find("doorbell 0 value") == std::string::npos && rnic_rd32(&os, RNIC_REG_DOORBELL_DB_DROPPED) == 0,
          "doorbells-reach-firmware-foreign-page-refused", "refused %d", refused);

    rc = rnic_cmd_destroy_cq(&q, cqn);
    rc2 = rnic_cmd_destroy_qp(&q, qpn);
    int rc3 = rnic_cmd_destroy_cq(&q, cqn);
    check(rc == -EBUSY && rc2 == 0 && rc3 == 0, "destroy-order", "rc %d %d", rc, rc2);

    // Memory regions: keys with variants, checks, and a PD that cannot go while it has an MR.
    uint64_t region = mem_->alloc(8 * 4096, 4096) + 0x123;
    rnic_mtt mtt{};
    rc = rnic_mtt_build_contig(&os, &mtt, 0x7f0000001123ull, 20000, 12, region);
    rnic_reg_mr_in mri{};
    mri.pdn = pd2;
    mri.access = 0xF;
    mri.iova = 0x7f0000001123ull;
    mri.length = 20000;
    mri.mtt = &mtt;
    uint32_t lkey = 0, rkey = 0, lkey2 = 0, rkey2 = 0;
    rc2 = rnic_cmd_reg_mr(&q, &mri, &lkey, &rkey);
    check(rc == 0 && rc2 == 0 && lkey == rkey && (lkey >> 8) != 0 && mtt.num_pages == 5, "reg-mr", "rc %d key %x",
          rc2, int(lkey));
    int dpd = rnic_cmd_dealloc_pd(&q, pd2);
    check(dpd == -EBUSY, "dealloc-pd-with-mr-ebusy", "rc %d", dpd);
    rc = rnic_cmd_dereg_mr(&q, lkey);
    rc2 = rnic_cmd_dereg_mr(&q, lkey);
    check(rc == 0 && rc2 == -ENOENT, "dereg-mr-twice-enoent", "rc %d %d", rc, rc2);
    rc = rnic_cmd_reg_mr(&q, &mri, &lkey2, &rkey2);
    check(rc == 0 && (lkey2 >> 8) == (lkey >> 8) && lkey2 != lkey, "reg-mr-reused-index-new-key", "%x %x",
          int(lkey), int(lkey2));
    rc = rnic_cmd_dereg_mr(&q, lkey);  // the old key of the reused index
    check(rc == -ENOENT, "dereg-stale-key-enoent", "rc %d", rc);
    mri.access = 1u << RNIC_ACCESS_REMOTE_WRITE;  // without LOCAL_WRITE
    rc = rnic_cmd_reg_mr(&q, &mri, &lkey, &rkey);
    mri.access = 0xF;
    mri.pdn = 200;  // never allocated
    rc2 = rnic_cmd_reg_mr(&q, &mri, &lkey, &rkey);
    check(rc == -EINVAL && rc2 == -ENOENT, "reg-mr-bad-access-and-pd", "rc %d %d", rc, rc2);
    rnic_cmd_dereg_mr(&q, lkey2);

    // Event queue: a command asking for an event gives a CMD_DONE entry and, the EQ being
    // armed, an MSI-X on its vector; the driver core's consumer reads it.
    rnic_eq eq;
    rc = rnic_eq_init(&eq, &os, 4, 2);
    uint64_t seen = nic_->msix_count(2);
    uint8_t ecmd[64] = {0}, eraw = 0xFF;
    rnic_cmd_entry_set_opcode(ecmd, RNIC_CMD_OP_NOP);
    rnic_cmd_entry_set_flags(ecmd, RNIC_CMDQ_FLAG_EVENT);
    rc2 = rnic_cmdq_exec(&q, ecmd, &eraw);
    bool irq = nic_->wait_msix(2, &seen, sc_time(50, SC_US));
    struct Got { unsigned n = 0, handle = 0, type = 99; } got_ev;
    rnic_eq_set_handler(&eq, RNIC_EQ_NUM_TYPES, [](void *arg, const rnic_event *ev) {
      auto *g = static_cast<Got *>(arg);
      g->n++, g->handle = ev->handle, g->type = ev->type;
    }, &got_ev);
    int polled = rnic_eq_poll(&eq, 8, 1);
    check(rc == 0 && rc2 == 0 && irq && polled == 1 && got_ev.type == RNIC_EQ_TYPE_CMD_DONE &&
              got_ev.handle == rnic_cmd_entry_get_token(ecmd) && eraw == 0,
          "event-queue-cmd-done-msix", "rc %d polled %d", rc, polled);

    // An opcode the firmware does not know: a clear status, and the queue keeps working.
    uint8_t cmd[64] = {0};
    rnic_cmd_entry_set_opcode(cmd, 0xEE);
    uint8_t raw = 0xFF;
    rc = rnic_cmdq_exec(&q, cmd, &raw);
    check(rc == -EOPNOTSUPP && raw == RNIC_CMD_STATUS_BAD_OPCODE, "unknown-opcode-eopnotsupp", "rc %d raw %d",
          rc, raw);

    // More commands than slots: the ring wraps and the firmware's consumer count follows.
    bool all_ok = true;
    for (int i = 0; i < 40 && all_ok; i++) {
      std::memset(cmd, 0, sizeof(cmd));
      rnic_cmd_entry_set_opcode(cmd, RNIC_CMD_OP_NOP);
      all_ok = rnic_cmdq_exec(&q, cmd, &raw) == 0 && raw == 0;
    }
    // The firmware advances its consumer count just after the last completion's done write.
    wait(sc_time(2, SC_US));
    uint32_t cons = rnic_rd32(&os, RNIC_REG_CMDQ_CMDQ_CONS);
    check(all_ok && cons == q.prod && cons == 69, "ring-wraps", "cons %d prod %d", int(cons), int(q.prod));
    std::printf("INFO %s: 69 commands in %.1f us of simulated time\n", tag_,
                (sc_time_stamp() - t0).to_seconds() * 1e6);
    sc_stop();
  }
  RnicNode *nic_;
  HostMem *mem_;
  const char *tag_;
};

int test_cmdq(int argc, char **argv) {
  // SystemC elaborates once per process, so each PCIe flavour is its own run.
  bool hostile = argc > 1 && !std::strcmp(argv[1], "--hostile");
  HostMem mem;
  PcieCfg cfg;
  cfg.hostile = hostile;
  cfg.seed = 11;
  PcieModel pcie(mem, cfg);
  RnicNode nic("nic0");
  nic.attach_pcie(&pcie);
  CmdqTest t("cmdq_test", &nic, &mem, hostile ? "hostile" : "polite");
  sc_start();
  return t.r.exit_code();
}

SimProgram reg("test-cmdq", "driver command queue through firmware DMA and the PCIe model [--hostile]", test_cmdq);

}  // namespace
