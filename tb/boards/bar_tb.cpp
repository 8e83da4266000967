// The board's BAR path behind rnic_axi_split. BAR2: 512-bit AXI4 accesses of the sizes a host
// makes (4, 8, 16 and 64-byte stores, partial strobes, bursts, reads of each size) through
// rnic_axi_to_axil into the MSI-X table, read back byte for byte; the table's MSI-X behaviour
// toward the bridge: entry and function masks, pending bits in the PBA, lowest vector first,
// resend after a refusal. BAR4: doorbell words of several pages and a 64-byte BlueFlame store as
// one beat reach the doorbell BAR; writes and reads to both BARs outstanding at once come back
// in request order with their IDs.
//   bar_tb [seed]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "Vbar_tb_top.h"
#include "rnic_spec.h"
#include "tb_check.h"

static Vbar_tb_top *m;
static uint64_t cycles;
struct Msg { int vector; uint64_t addr; };
static std::vector<Msg> msgs;  // every cfg_msix_int pulse, whenever it comes
static std::vector<uint64_t> dbs;  // every doorbell FIFO entry {value, db_event}, as taken
static void tick() {
  m->clk_i = 0; m->eval();
  if (m->cfg_msix_int_o) msgs.push_back({(int)m->cfg_msix_data_o - 0xD000, m->cfg_msix_address_o});
  if (m->db_valid_o && m->db_ready_i) dbs.push_back(m->db_data_o);
  m->clk_i = 1; m->eval();
  cycles++;
}
using Line = std::vector<uint8_t>;  // 64 bytes: one 512-bit beat

static void set_wdata(const Line &l) {
  for (int w = 0; w < 16; w++) {
    uint32_t v = 0;
    std::memcpy(&v, &l[w * 4], 4);
    m->wdata_i[w] = v;
  }
}
static Line get_rdata() {
  Line l(64);
  for (int w = 0; w < 16; w++) std::memcpy(&l[w * 4], &m->rdata_o[w], 4);
  return l;
}
static bool wait_for(const uint8_t &sig, int limit = 200) {
  for (int i = 0; i < limit; i++) {
    m->eval();
    if (sig) return true;
    tick();
  }
  return false;
}

// One AXI4 write burst: beats of 64 bytes with their strobes. Returns bresp (or -1: no answer).
static int axi_write(uint64_t addr, int size, const std::vector<Line> &data, const std::vector<uint64_t> &strb) {
  m->awid_i = 5; m->awaddr_i = addr; m->awlen_i = data.size() - 1; m->awsize_i = size; m->awvalid_i = 1;
  if (!wait_for(m->awready_o)) return -1;
  tick();
  m->awvalid_i = 0;
  for (size_t b = 0; b < data.size(); b++) {
    set_wdata(data[b]); m->wstrb_i = strb[b]; m->wlast_i = b + 1 == data.size(); m->wvalid_i = 1;
    if (!wait_for(m->wready_o)) return -1;
    tick();
    m->wvalid_i = 0;
  }
  m->bready_i = 1;
  if (!wait_for(m->bvalid_o, 2000)) return -1;
  int resp = m->bresp_o | (m->bid_o == 5 ? 0 : 0x100);
  tick();
  m->bready_i = 0;
  return resp;
}
static int axi_read(uint64_t addr, int size, int beats, std::vector<Line> &out) {
  m->arid_i = 9; m->araddr_i = addr; m->arlen_i = beats - 1; m->arsize_i = size; m->arvalid_i = 1;
  if (!wait_for(m->arready_o)) return -1;
  tick();
  m->arvalid_i = 0;
  int worst = 0;
  out.clear();
  m->rready_i = 1;
  for (int b = 0; b < beats; b++) {
    if (!wait_for(m->rvalid_o, 2000)) return -1;
    out.push_back(get_rdata());
    worst |= m->rresp_o | (m->rid_o == 9 ? 0 : 0x100) | ((m->rlast_o != (b + 1 == beats)) ? 0x200 : 0);
    tick();
  }
  m->rready_i = 0;
  return worst;
}
static uint32_t rd32(const Line &l, uint64_t addr) {
  uint32_t v;
  std::memcpy(&v, &l[addr & 60], 4);
  return v;
}
static void wr32(Line &l, uint64_t addr, uint32_t v) { std::memcpy(&l[addr & 60], &v, 4); }
static uint64_t lane_strb(uint64_t addr, int bytes) {
  uint64_t s = bytes == 64 ? ~0ull : ((1ull << bytes) - 1);
  return s << (addr & 63);
}
static const uint64_t BAR = 0x01000000;  // BAR2's AXI base on the board (bit 24); the bridge passes 16 bits

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 0) : 1;
  std::mt19937_64 rng(seed);
  std::printf("seed %llu\n", (unsigned long long)seed);
  TbResults t;
  m = new Vbar_tb_top;
  m->awburst_i = 1; m->arburst_i = 1;  // INCR, as the bridge issues
  m->db_ready_i = 1;
  m->rst_ni = 0; tick(); tick(); m->rst_ni = 1; tick();

  // the model of the table's register space: 32 entries x 16 bytes, address low bits 1:0 read 0
  uint32_t model[32][4] = {};
  for (auto &e : model) e[3] = 1;  // masked at reset
  auto model_wr = [&](uint64_t off, uint32_t v, uint8_t strb4) {
    int e = off >> 4, f = (off >> 2) & 3;
    uint32_t old = model[e][f], nv = old;
    for (int b = 0; b < 4; b++) if (strb4 >> b & 1) nv = (nv & ~(0xFFu << (8 * b))) | (v & (0xFFu << (8 * b)));
    if (f == 0) nv &= ~3u;
    if (f == 3) nv = (strb4 & 1) ? (v & 1) : old;
    model[e][f] = nv;
  };
  auto check_entries = [&](const char *name) {
    std::vector<Line> r;
    bool ok = true;
    int resp = axi_read(BAR, 6, 8, r);  // the whole table as a burst of 8 64-byte beats
    if (resp != 0 || r.size() != 8) ok = false;
    for (int e = 0; ok && e < 32; e++)
      for (int f = 0; f < 4; f++)
        if (rd32(r[e / 4], (e * 16 + f * 4)) != model[e][f]) {
          ok = false;
          t.check(false, name, "entry %d word %d: 0x%08x, want 0x%08x", e, f, rd32(r[e / 4], e * 16 + f * 4), model[e][f]);
          return;
        }
    t.check(ok, name, "resp %d beats %zu", resp, r.size());
  };

  // writes of each size a host makes, at random places, random partial strobes in 64-byte ones
  bool wr_ok = true;
  for (int i = 0; i < 60; i++) {
    int size = std::vector<int>{2, 3, 4, 6}[rng() % 4];
    int bytes = 1 << size;
    uint64_t off = (rng() % 512) & ~(uint64_t)(bytes - 1);
    Line l(64);
    for (auto &b : l) b = rng();
    uint64_t strb = lane_strb(off, bytes);
    if (size == 6) strb &= rng() | rng();  // write-combined stores may leave holes
    int resp = axi_write(BAR + off, size, {l}, {strb});
    if (resp != 0) { wr_ok = false; t.check(false, "bar-write-sizes", "resp %d at 0x%llx size %d", resp, (unsigned long long)off, size); break; }
    for (uint64_t a = off & ~63ull; a < (off & ~63ull) + 64; a += 4)
      if ((strb >> (a & 63)) & 0xF) model_wr(a, rd32(l, a), (strb >> (a & 63)) & 0xF);
  }
  if (wr_ok) t.check(true, "bar-write-sizes");
  check_entries("bar-read-burst-table");

  // reads of 4, 8 and 16 bytes give the right lanes; the others read as zero
  bool rd_ok = true;
  for (int i = 0; i < 40 && rd_ok; i++) {
    int size = 2 + rng() % 3, bytes = 1 << size;
    uint64_t off = (rng() % 512) & ~(uint64_t)(bytes - 1);
    std::vector<Line> r;
    int resp = axi_read(BAR + off, size, 1, r);
    for (uint64_t a = off & ~63ull; resp == 0 && a < (off & ~63ull) + 64; a += 4) {
      bool in = a >= off && a < off + bytes;
      uint32_t want = in ? model[a >> 4][(a >> 2) & 3] : 0;
      if (rd32(r[0], a) != want) { rd_ok = false; t.check(false, "bar-read-sizes", "0x%llx: 0x%08x want 0x%08x", (unsigned long long)a, rd32(r[0], a), want); break; }
    }
    if (resp != 0) { rd_ok = false; t.check(false, "bar-read-sizes", "resp %d", resp); }
  }
  if (rd_ok) t.check(true, "bar-read-sizes");

  // a two-beat write burst (entries 8..15), read back
  {
    std::vector<Line> d(2, Line(64));
    for (auto &l : d) for (auto &b : l) b = rng();
    int resp = axi_write(BAR + 0x80, 6, d, {~0ull, ~0ull});
    for (int b = 0; b < 2; b++)
      for (uint64_t a = 0; a < 64; a += 4) model_wr(0x80 + b * 64 + a, rd32(d[b], a), 0xF);
    t.check(resp == 0, "bar-write-burst", "resp %d", resp);
    check_entries("bar-write-burst-readback");
  }
  // outside the table and the PBA: writes answer SLVERR, reads zero
  {
    Line l(64, 0xAB);
    int resp = axi_write(BAR + 0x4000, 2, {l}, {lane_strb(0x4000, 4)});
    std::vector<Line> r;
    int rresp = axi_read(BAR + 0x4000, 2, 1, r);
    t.check(resp == 2 && rresp == 0 && rd32(r[0], 0) == 0, "bar-unmapped", "bresp %d rresp %d", resp, rresp);
  }

  // ---- MSI-X ---------------------------------------------------------------------------------
  auto set_entry = [&](int v, uint64_t addr, uint32_t data, bool masked) {
    Line l(64);
    uint64_t off = v * 16;
    wr32(l, off, (uint32_t)addr); wr32(l, off + 4, addr >> 32); wr32(l, off + 8, data); wr32(l, off + 12, masked);
    axi_write(BAR + off, 4, {l}, {lane_strb(off, 16)});
    model_wr(off, (uint32_t)addr, 0xF); model_wr(off + 4, addr >> 32, 0xF); model_wr(off + 8, data, 0xF); model_wr(off + 12, masked, 0xF);
  };
  auto pba = [&]() {
    std::vector<Line> r;
    axi_read(BAR + 0x8000, 2, 1, r);
    return r.empty() ? 0xDEADu : rd32(r[0], 0x8000);
  };
  auto raise = [&](int v) {
    m->msix_vector_i = v; m->msix_req_i = 1; m->eval();
    bool ack = m->msix_ack_o;
    tick();
    m->msix_req_i = 0;
    return ack;
  };
  // the next message within n cycles: vector decoded from its data (data = 0xD000 + vector)
  auto next_msg = [&](int n, uint64_t *addr) -> int {
    for (int i = 0; i < n && msgs.empty(); i++) tick();
    if (msgs.empty()) return -1;
    Msg x = msgs.front();
    msgs.erase(msgs.begin());
    if (addr) *addr = x.addr;
    return x.vector;
  };
  auto answer = [&](bool sent) {
    for (int i = 0; i < 3; i++) tick();
    (sent ? m->cfg_msix_sent_i : m->cfg_msix_fail_i) = 1;
    tick();
    m->cfg_msix_sent_i = 0; m->cfg_msix_fail_i = 0;
  };
  for (int v = 0; v < 32; v++) set_entry(v, 0xFEE00000ull + v * 0x10 + (uint64_t(v) << 32), 0xD000 + v, v == 9);
  // function not enabled yet: the request is taken, pending, nothing sent
  m->cfg_msix_enable_i = 0; m->cfg_msix_mask_i = 0;
  bool ack = raise(6);
  int v = next_msg(50, nullptr);
  t.check(ack && v == -1 && pba() == (1u << 6), "msix-disabled-pending", "ack %d msg %d pba 0x%x", ack, v, pba());
  m->cfg_msix_enable_i = 1;
  uint64_t a = 0;
  v = next_msg(50, &a);
  bool ok = v == 6 && a == 0xFEE00060ull + (6ull << 32);
  answer(true);
  t.check(ok && pba() == 0, "msix-send-entry", "vector %d addr 0x%llx pba 0x%x", v, (unsigned long long)a, pba());
  // entry 9 is masked in the table: pending until the host unmasks it, others go past it
  raise(9); raise(12);
  v = next_msg(50, nullptr);
  answer(true);
  int v2 = next_msg(50, nullptr);
  t.check(v == 12 && v2 == -1 && pba() == (1u << 9), "msix-entry-mask", "first %d then %d pba 0x%x", v, v2, pba());
  set_entry(9, 0xFEE00090ull + (9ull << 32), 0xD009, false);
  v = next_msg(50, nullptr);
  answer(true);
  t.check(v == 9 && pba() == 0, "msix-unmask-sends", "vector %d pba 0x%x", v, pba());
  // function mask: both pending, then lowest first after the unmask
  m->cfg_msix_mask_i = 1;
  raise(20); raise(3);
  v = next_msg(50, nullptr);
  t.check(v == -1 && pba() == ((1u << 20) | (1u << 3)), "msix-function-mask", "msg %d pba 0x%x", v, pba());
  m->cfg_msix_mask_i = 0;
  v = next_msg(50, nullptr);
  answer(true);
  v2 = next_msg(50, nullptr);
  answer(true);
  t.check(v == 3 && v2 == 20 && pba() == 0, "msix-lowest-first", "%d then %d", v, v2);
  // the bridge refuses once: counted, sent again, pending until sent
  raise(17);
  v = next_msg(50, nullptr);
  answer(false);
  v2 = next_msg(50, nullptr);
  uint32_t pend = pba();
  answer(true);
  t.check(v == 17 && v2 == 17 && m->fail_count_o == 1 && pend == (1u << 17) && pba() == 0, "msix-fail-resend",
          "%d %d fails %u pba 0x%x", v, v2, m->fail_count_o, pend);
  check_entries("msix-table-intact");

  // ---- BAR4: the doorbell pages, through the split -------------------------------------------
  static const uint64_t DB = 0x02000000;  // BAR4's AXI base on the board (bit 25)
  auto ev = [](uint32_t page, uint32_t which, uint32_t value) {
    uint8_t e[4] = {};
    rnic_db_event_set_page(e, page);
    rnic_db_event_set_which(e, which);
    uint32_t w;
    std::memcpy(&w, e, 4);
    return (uint64_t)value << 32 | w;
  };
  {
    // 4-byte doorbells on the first, a middle and the last page, then an 8-byte store of two
    std::vector<uint64_t> want;
    bool ok = true;
    for (uint32_t page : {0u, 1u, 300u, RNIC_DB_BAR_NUM_PAGES - 1}) {
      for (uint32_t reg : {RNIC_DB_SQ_DB, RNIC_DB_RQ_DB, RNIC_DB_CQ_DB}) {
        uint64_t addr = DB + page * RNIC_DB_BAR_PAGE_SIZE + reg;
        uint32_t v = (uint32_t)rng();
        Line l(64);
        wr32(l, addr, v);
        ok = ok && axi_write(addr, 2, {l}, {lane_strb(addr, 4)}) == 0;
        want.push_back(ev(page, reg / 4, v));
      }
    }
    uint64_t addr = DB + 7 * RNIC_DB_BAR_PAGE_SIZE + RNIC_DB_SQ_DB;
    Line l(64);
    wr32(l, addr, 0x11112222); wr32(l, addr + 4, 0x33334444);
    ok = ok && axi_write(addr, 3, {l}, {lane_strb(addr, 8)}) == 0;
    want.push_back(ev(7, 0, 0x11112222));
    want.push_back(ev(7, 1, 0x33334444));
    for (int i = 0; i < 20; i++) tick();
    t.check(ok && dbs == want, "bar4-doorbells", "%zu events, want %zu", dbs.size(), want.size());
    dbs.clear();
  }
  auto tc_read = [&](uint32_t off) {
    m->tc_req_i = 1; m->tc_addr_i = off;
    tick();
    m->tc_req_i = 0; m->eval();
    return m->tc_rdata_o;  // registered: the cycle after the request
  };
  {
    // BlueFlame: one 64-byte write-combined store (one beat) then bf_db; the capture holds it
    uint32_t page = 42;
    uint64_t base = DB + page * RNIC_DB_BAR_PAGE_SIZE;
    Line wqe(64);
    for (auto &b : wqe) b = rng();
    int r1 = axi_write(base + RNIC_DB_BF_DATA, 6, {wqe}, {~0ull});
    Line l(64);
    wr32(l, base + RNIC_DB_BF_DB, 0x00050009);
    int r2 = axi_write(base + RNIC_DB_BF_DB, 2, {l}, {lane_strb(base + RNIC_DB_BF_DB, 4)});
    for (int i = 0; i < 10; i++) tick();
    bool same = true;
    for (uint32_t a = 0; a < 64; a += 4) same = same && tc_read(RNIC_FW_TC_BF_DATA_BASE + a) == rd32(wqe, a);
    uint32_t st = tc_read(RNIC_FW_TC_BF_STATUS);
    uint8_t sb[4];
    std::memcpy(sb, &st, 4);
    bool ev_ok = dbs.size() == 1 && (uint32_t)(dbs[0] >> 32) == 0x00050009 &&
                 rnic_db_event_get_page(&dbs[0]) == page && rnic_db_event_get_which(&dbs[0]) == RNIC_DB_BF_DB / 4;
    t.check(r1 == 0 && r2 == 0 && same && ev_ok && rnic_bf_status_get_page(sb) == page &&
                rnic_bf_status_get_wqebbs(sb) == 1,
            "bar4-blueflame-one-beat", "resp %d/%d data %d event %d status 0x%08x", r1, r2, same, ev_ok, st);
    dbs.clear();
  }
  {
    // Writes to both BARs outstanding at once: AWs back to back (doorbell, table, doorbell,
    // table), then the W beats, B in AW order with their IDs; the doorbells arrive, the table
    // entry is written.
    struct Wr { uint64_t addr; uint8_t id; uint32_t v; };
    std::vector<Wr> w = {{DB + 3 * RNIC_DB_BAR_PAGE_SIZE, 1, 0xA1}, {BAR + 0x40, 2, 0xB2},
                         {DB + 4 * RNIC_DB_BAR_PAGE_SIZE + 4, 3, 0xC3}, {BAR + 0x44, 4, 0xD4}};
    size_t aw = 0, wb = 0;
    std::vector<int> bids;
    m->bready_i = 1;
    for (int c = 0; c < 400 && bids.size() < w.size(); c++) {
      m->awvalid_i = aw < w.size();
      if (aw < w.size()) { m->awid_i = w[aw].id; m->awaddr_i = w[aw].addr; m->awlen_i = 0; m->awsize_i = 2; }
      m->wvalid_i = wb < aw;  // each W after its AW was taken (the split waits for it anyway)
      if (wb < w.size()) {
        Line l(64);
        wr32(l, w[wb].addr, w[wb].v);
        set_wdata(l); m->wstrb_i = lane_strb(w[wb].addr, 4); m->wlast_i = 1;
      }
      m->eval();
      bool awgo = m->awvalid_i && m->awready_o, wgo = m->wvalid_i && m->wready_o;
      if (m->bvalid_o) bids.push_back(m->bid_o | m->bresp_o << 8);
      tick();
      aw += awgo; wb += wgo;
    }
    m->awvalid_i = 0; m->wvalid_i = 0; m->bready_i = 0;
    for (int i = 0; i < 20; i++) tick();
    model_wr(0x40, 0xB2, 0xF); model_wr(0x44, 0xD4, 0xF);
    bool ok = bids == std::vector<int>{1, 2, 3, 4} &&
              dbs == std::vector<uint64_t>{ev(3, 0, 0xA1), ev(4, 1, 0xC3)};
    t.check(ok, "bar-split-writes-in-order", "%zu B, %zu doorbells", bids.size(), dbs.size());
    check_entries("bar-split-table-written");
    dbs.clear();
  }
  {
    // Reads outstanding at once: a 2-beat read of a doorbell page (zeros), then one of the table
    // (entry 4), then the doorbell page again: R in AR order, RLAST per burst, data right.
    struct Rd { uint64_t addr; uint8_t id; int beats; };
    std::vector<Rd> rd = {{DB + 5 * RNIC_DB_BAR_PAGE_SIZE, 6, 2}, {BAR + 0x40, 7, 1}, {DB, 8, 1}};
    size_t ar = 0;
    std::vector<std::pair<int, Line>> beats;
    m->rready_i = 1;
    for (int c = 0; c < 400 && beats.size() < 4; c++) {
      m->arvalid_i = ar < rd.size();
      if (ar < rd.size()) { m->arid_i = rd[ar].id; m->araddr_i = rd[ar].addr; m->arlen_i = rd[ar].beats - 1; m->arsize_i = 6; }
      m->eval();
      bool argo = m->arvalid_i && m->arready_o;
      if (m->rvalid_o) beats.push_back({m->rid_o | m->rresp_o << 8 | m->rlast_o << 12, get_rdata()});
      tick();
      ar += argo;
    }
    m->arvalid_i = 0; m->rready_i = 0;
    bool ok = beats.size() == 4 && beats[0].first == 6 && beats[1].first == (6 | 1 << 12) &&
              beats[2].first == (7 | 1 << 12) && beats[3].first == (8 | 1 << 12);
    for (int b : {0, 1, 3}) ok = ok && beats.size() == 4 && beats[b].second == Line(64);
    ok = ok && beats.size() == 4 && rd32(beats[2].second, 0x40) == model[4][0] && rd32(beats[2].second, 0x44) == model[4][1];
    t.check(ok, "bar-split-reads-in-order", "%zu beats", beats.size());
  }
  m->final();
  delete m;
  return t.exit_code();
}
