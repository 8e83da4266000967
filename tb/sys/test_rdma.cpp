// Two simulated NICs doing RDMA: each host opens its NIC with the driver core, registers a
// buffer, connects an RC QP to the other, then posts WRITE, WRITE_IMM and SEND work requests
// through the provider's code. Data is checked byte for byte and every signaled WQE must give
// exactly one CQE with the expected status.
#include <systemc.h>

#include <cstring>
#include <vector>

#include "host/pcie_model.h"
#include "main/sim_program.h"
#include "net/eth_link.h"
#include "sys/rdma_host.h"
#include "tb_check.h"

namespace {

constexpr uint32_t kBufBytes = 2u << 20;  // 512 pages of 4 KiB: one page of translation entries

struct RdmaTest : sc_module {
  SC_HAS_PROCESS(RdmaTest);
  RdmaTest(sc_module_name n, RdmaHost *a, RdmaHost *b, uint64_t seed, const std::string &tag, sc_time wait)
      : sc_module(n), a_(a), b_(b), rng_(seed), tag_(tag), wait_(wait) {
    SC_THREAD(run);
  }
  TbResults r;

 private:
  uint64_t next() {
    rng_ ^= rng_ << 13, rng_ ^= rng_ >> 7, rng_ ^= rng_ << 17;
    return rng_;
  }
  void fill(RdmaHost *h, uint64_t addr, uint32_t len) {
    std::vector<uint8_t> v(len);
    for (auto &x : v) x = uint8_t(next());
    h->mem->write(addr, v.data(), len);
  }
  bool same(RdmaHost *x, uint64_t xa, RdmaHost *y, uint64_t ya, uint32_t len) {
    return x->mem->read_vec(xa, len) == y->mem->read_vec(ya, len);
  }

  void run() {
    bool ok = a_->open() && b_->open();
    r.check(ok, nm("rdma-open").c_str(), "%s%s", a_->err.c_str(), b_->err.c_str());
    uint64_t abuf = a_->mem->alloc(kBufBytes, 4096), bbuf = b_->mem->alloc(kBufBytes, 4096);
    uint32_t akey = 0, bkey = 0;
    ok = ok && a_->reg_mr(abuf, kBufBytes, &akey) && b_->reg_mr(bbuf, kBufBytes, &bkey);
    // A short local ACK timeout (4.096 us * 2^6) so that lost packets are resent quickly.
    ok = ok && a_->connect(*b_, 0x100, 0x900, 6) && b_->connect(*a_, 0x900, 0x100, 6);
    r.check(ok, nm("rdma-connect").c_str(), "%s%s", a_->err.c_str(), b_->err.c_str());
    if (!ok) {
      sc_stop();
      return;
    }
    rnicp_wc wc[4];

    // RDMA WRITE, sizes around the packet and page boundaries, at offsets that are not aligned.
    std::vector<uint32_t> wr_sizes{0u, 1u, 63u, 64u, 4095u, 4096u, 4097u, 65536u};
    if (tag_.empty()) wr_sizes.push_back(1u << 20);  // 1 MiB: 256 packets (clean link only)
    for (uint32_t len : wr_sizes) {
      uint32_t so = uint32_t(next() % 4096), dofs = uint32_t(next() % 4096);
      fill(a_, abuf + so, len);
      fill(b_, bbuf + dofs, len + 64);  // the 64 bytes after must survive
      std::vector<uint8_t> guard = b_->mem->read_vec(bbuf + dofs + len, 64);
      rnicp_sge sge{abuf + so, len, akey};
      rnicp_send_wr wr{};
      wr.wr_id = 0xA000 + len;
      wr.opcode = RNIC_WQE_OP_RDMA_WRITE;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &sge;
      wr.num_sge = len ? 1 : 0;
      wr.remote_addr = bbuf + dofs;
      wr.rkey = bkey;
      int rc = a_->post_send(wr);
      int n = a_->poll(wc, 1, wait_);
      std::string name = nm("rdma-write-" + std::to_string(len));
      r.check(rc > 0 && n == 1 && wc[0].wr_id == wr.wr_id && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
                  wc[0].opcode == RNIC_WC_OPCODE_RDMA_WRITE && same(a_, abuf + so, b_, bbuf + dofs, len) &&
                  b_->mem->read_vec(bbuf + dofs + len, 64) == guard,
              name.c_str(), "rc %d cqes %d status %d", rc, n, n ? int(wc[0].status) : -1);
    }

    // RDMA READ: nic1's bytes land in nic0's buffer, the READ completes with its length.
    // After a lost response the requester resumes the READ at the first missing PSN.
    std::vector<uint32_t> rd_sizes{1u, 64u, 4096u, 4097u, 8192u, 16384u, 65536u, 262144u};
    for (uint32_t len : rd_sizes) {
      uint32_t so = uint32_t(next() % 4096), dofs = uint32_t(next() % 4096);
      fill(b_, bbuf + 0x40000 + so, len);
      fill(a_, abuf + 0x40000 + dofs, len + 64);
      std::vector<uint8_t> guard = a_->mem->read_vec(abuf + 0x40000 + dofs + len, 64);
      rnicp_sge sge{abuf + 0x40000 + dofs, len, akey};
      rnicp_send_wr wr{};
      wr.wr_id = 0xD000 + len;
      wr.opcode = RNIC_WQE_OP_RDMA_READ;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &sge;
      wr.num_sge = 1;
      wr.remote_addr = bbuf + 0x40000 + so;
      wr.rkey = bkey;
      int rc = a_->post_send(wr);
      int n = a_->poll(wc, 1, wait_);
      std::string name = nm("rdma-read-" + std::to_string(len));
      // Each register read takes simulated cycles, so their order is sequenced here (as function
      // arguments it was the compiler's choice: GCC's, kept, and clang's differed).
      uint32_t trunc = rnic_rd32(&a_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_TRUNC);
      uint32_t rresp = rnic_rd32(&a_->os, RNIC_COUNTER_BASE + 4 * RNIC_CNT_RX_DROP_READ_RESP);
      bool ok = rc > 0 && n == 1 && wc[0].wr_id == wr.wr_id && wc[0].status == RNIC_WC_STATUS_SUCCESS &&
                wc[0].opcode == RNIC_WC_OPCODE_RDMA_READ && same(b_, bbuf + 0x40000 + so, a_, abuf + 0x40000 + dofs, len) &&
                a_->mem->read_vec(abuf + 0x40000 + dofs + len, 64) == guard;
      r.check(ok, name.c_str(), "rc %d cqes %d status %d (nic0 drops: read-resp %u trunc %u)", rc, n,
              n ? int(wc[0].status) : -1, rresp, trunc);
    }

    // SEND into a posted receive buffer, and WRITE_IMM consuming one: both sides complete.
    for (uint32_t len : {1u, 100u, 4096u, 10000u}) {
      fill(a_, abuf, len);
      rnicp_sge rs{bbuf + 0x80000, 16384, bkey};
      rnicp_recv_wr rwr{0xB000 + len, &rs, 1};
      int rrc = b_->post_recv(rwr);
      rnicp_sge sge{abuf, len, akey};
      rnicp_send_wr wr{};
      wr.wr_id = 0xC000 + len;
      wr.opcode = RNIC_WQE_OP_SEND_WITH_IMM;
      wr.imm_data = 0x11223344;
      wr.flags = RNICP_WR_SIGNALED;
      wr.sg_list = &sge;
      wr.num_sge = 1;
      int src = a_->post_send(wr);
      rnicp_wc bw[2];
      int na = a_->poll(wc, 1, wait_), nb = b_->poll(bw, 1, wait_);
      std::string name = nm("rdma-send-imm-" + std::to_string(len));
      r.check(rrc == 0 && src > 0 && na == 1 && nb == 1 && wc[0].status == 0 && bw[0].status == 0 &&
                  bw[0].wr_id == rwr.wr_id && bw[0].byte_len == len && bw[0].opcode == RNIC_WC_OPCODE_RECV &&
                  bw[0].imm_data == 0x11223344 && same(a_, abuf, b_, bbuf + 0x80000, len),
              name.c_str(), "cqes %d %d st %d/%d wr %llx len %u op %u imm %x data %d", na, nb, int(wc[0].status),
              int(bw[0].status), (unsigned long long)bw[0].wr_id, bw[0].byte_len, bw[0].opcode, bw[0].imm_data,
              int(same(a_, abuf, b_, bbuf + 0x80000, len)));
    }
    // Exactly one completion per signaled WQE: nothing more arrives.
    wait(sc_time(50, SC_US));
    r.check(rnicp_cq_poll(&a_->qp.cq, 4, wc) == 0 && rnicp_cq_poll(&b_->qp.cq, 4, wc) == 0, nm("rdma-no-extra-cqes").c_str());
    sc_stop();
  }
  RdmaHost *a_, *b_;
  uint64_t rng_;
  std::string tag_;
  sc_time wait_;
  std::string nm(const std::string &s) { return tag_.empty() ? s : s + "-" + tag_; }
};

// test-rdma [SEED [LOSS REORDER DUP CORRUPT]] [--hostile]: fault probabilities per frame, both
// directions; --no-pfc (last) turns the link's flow control off; --hostile puts both NICs behind the hostile PCIe model (random ready on every
// channel, read completions split and reordered across IDs, extra latency).
int test_rdma(int argc, char **argv) {
  if (argc > 2 && !std::strcmp(argv[1], "--seed")) argv[1] = argv[0], argv++, argc--;  // = the positional seed
  bool no_pfc = argc > 1 && !std::strcmp(argv[argc - 1], "--no-pfc");
  if (no_pfc) argc--;
  bool hostile = argc > 1 && !std::strcmp(argv[argc - 1], "--hostile");
  if (hostile) argc--;
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
  std::printf("seed %llu\n", (unsigned long long)seed);
  EthFaults f;
  if (argc > 5) {
    f.loss = std::atof(argv[2]);
    f.reorder = std::atof(argv[3]);
    f.dup = std::atof(argv[4]);
    f.corrupt = std::atof(argv[5]);
  }
  std::string tag;
  if (argc > 5) tag = std::string("l") + argv[2] + "r" + argv[3] + "d" + argv[4] + "c" + argv[5];
  if (hostile) tag += tag.empty() ? "hostile-pcie" : "-hostile-pcie";
  HostMem ma, mb;
  PcieCfg pca, pcb;
  pca.hostile = pcb.hostile = hostile;
  pca.seed = seed * 2 + 1;
  pcb.seed = seed * 2 + 2;
  PcieModel pa(ma, pca), pb(mb, pcb);
  RnicNode na("nic0"), nb("nic1");
  na.attach_pcie(&pa);
  nb.attach_pcie(&pb);
  EthLinkCfg lc;
  lc.seed = seed;
  lc.pcap_path = tag.empty() ? "build/sys/rdma.pcap" : "build/sys/rdma-" + tag + ".pcap";
  lc.faults[0] = lc.faults[1] = f;
  lc.flow_control = !no_pfc;
  EthLink link("link", &na, &nb, lc);
  RdmaHost a(&na, &ma, 0x0A000001u, 1), b(&nb, &mb, 0x0A000002u, 2);
  // the wait per operation scales with the model's line rate (the 1 MiB WRITE: ~90 us at 100 Gb/s,
  // ~340 us at 25 Gb/s)
  const double slow = 100.0 / lc.gbps;
  RdmaTest t("rdma_test", &a, &b, seed, tag, sc_time((tag.empty() ? 200 : 20000) * slow, SC_US));
  sc_start();
  std::printf("INFO simulated %.1f us\n", sc_time_stamp().to_seconds() * 1e6);
  std::printf("INFO link pause (dir d: PAUSE frames sent by side d, side d's transmitter paused): %s\n",
              link.pause_info().c_str());
  for (int d = 0; d < 2; d++) {
    const EthDirStats &st = link.stats(d);
    std::printf("INFO link dir %d: %llu frames sent, %llu lost, %llu reordered, %llu duplicated, %llu corrupted\n", d,
                (unsigned long long)st.tx_frames, (unsigned long long)st.lost, (unsigned long long)st.reordered,
                (unsigned long long)st.duplicated, (unsigned long long)st.corrupted);
  }
  if (hostile)
    for (PcieModel *m : {&pa, &pb}) {
      const PcieStats &ps = m->stats;
      std::printf("INFO hostile PCIe: %llu R beats held back, %llu completion chunks out of order, %u reads in flight at most\n",
                  (unsigned long long)ps.r_gaps, (unsigned long long)ps.ooo_chunks, ps.max_rd_inflight);
    }
  return t.r.exit_code();
}

SimProgram reg("test-rdma", "two NICs: RC WRITE, READ, SEND_IMM through the whole stack [seed [loss reorder dup corrupt]]",
               test_rdma);

}  // namespace
