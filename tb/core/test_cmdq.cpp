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
    for (int t = 0; t < 500 && rnic_rd32(&os, RNIC_REG_CPU_FW_STATUS) != RNIC_FW_STATUS_READY; t++)
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
    uint32_t cons = rnic_rd32(&os, RNIC_REG_CMDQ_CMDQ_CONS);
    check(all_ok && cons == q.prod && cons == 49, "ring-wraps", "cons %d prod %d", int(cons), int(q.prod));
    std::printf("INFO %s: 49 commands in %.1f us of simulated time\n", tag_,
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
