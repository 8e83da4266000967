// rv_cpu: soft-core subsystem = rv_core + IMEM + DMEM (block RAMs) + machine timer + MMIO port
// + host load port. Memory map and port rules: rtl/cpu/README.md.
// Reset: rst_ni is active low and synchronous. While it is low the core is held and the host
// load port owns the data ports of both memories.
module rv_cpu #(
  parameter int unsigned ImemBytes = 65536,
  parameter int unsigned DmemBytes = 65536,
  parameter              ImemInit  = "",
  parameter              DmemInit  = "",
  parameter logic [31:0] HartId    = 32'd0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // host load port (only while rst_ni is low): one access per cycle, read data next cycle
  input  logic        ld_req_i,
  input  logic        ld_we_i,
  input  logic [31:0] ld_addr_i,
  input  logic [31:0] ld_wdata_i,
  output logic [31:0] ld_rdata_o,
  output logic        ld_rvalid_o,
  // host debug read port into DMEM while the core runs (the memory's otherwise idle port A):
  // read data the next cycle
  input  logic        dbg_req_i,
  input  logic [31:0] dbg_addr_i,
  output logic [31:0] dbg_rdata_o,
  output logic        dbg_rvalid_o,
  // MMIO master (addresses >= 0x4000_0000): request held until mmio_gnt_i; a load completes
  // with mmio_rvalid_i (any later cycle), a store completes at its grant
  output logic        mmio_req_o,
  output logic        mmio_we_o,
  output logic [31:0] mmio_addr_o,
  output logic [31:0] mmio_wdata_o,
  output logic [3:0]  mmio_be_o,
  input  logic        mmio_gnt_i,
  input  logic        mmio_rvalid_i,
  input  logic [31:0] mmio_rdata_i,
  // tightly coupled port (0x3000_0000..0x3FFF_FFFF): always granted, a store is complete at its
  // request; a load's data comes with tc_rvalid_i, one or more cycles later, from a register
  // (tc_rvalid_i must be a register too: it reaches the core's stall). One load at a time.
  output logic        tc_req_o,
  // a data request of the core is accepted this cycle, whatever its address (tc_req_o is this
  // and the address decode): a target registers it apart from the address it decodes, so no
  // cone holds both (the address add's decode and the request logic, issue 16)
  output logic        tc_go_o,
  output logic        tc_we_o,
  output logic [31:0] tc_addr_o,
  output logic [31:0] tc_wdata_o,
  output logic [3:0]  tc_be_o,
  input  logic        tc_rvalid_i,
  input  logic [31:0] tc_rdata_i,
  // external interrupt (level, registered once here)
  input  logic        irq_ext_i,
  // retirement trace
  output logic        ret_valid_o,
  output logic [31:0] ret_pc_o,
  output logic [31:0] ret_insn_o,
  output logic [4:0]  ret_rd_o,
  output logic        ret_rd_we_o,
  output logic [31:0] ret_rd_wdata_o,
  output logic        ret_trap_o
);
  localparam int unsigned IAw = $clog2(ImemBytes / 4);
  localparam int unsigned DAw = $clog2(DmemBytes / 4);

  // ---- core
  logic        imem_en;
  logic [31:0] imem_addr, imem_rdata;
  logic        d_req, d_we, d_gnt, d_rvalid;
  logic [31:0] d_addr, d_wdata, d_rdata;
  logic [3:0]  d_be;
  logic        irq_timer, irq_ext_q;
  logic [63:0] mtime_q, mtimecmp_q;

  rv_core #(.HartId(HartId), .ResetPc(rv_pkg::ImemBase)) u_core (
    .clk_i, .rst_ni,
    .imem_en_o(imem_en), .imem_addr_o(imem_addr), .imem_rdata_i(imem_rdata),
    .d_req_o(d_req), .d_we_o(d_we), .d_addr_o(d_addr), .d_wdata_o(d_wdata), .d_be_o(d_be),
    .d_gnt_i(d_gnt), .d_rvalid_i(d_rvalid), .d_rdata_i(d_rdata),
    .irq_timer_i(irq_timer), .irq_ext_i(irq_ext_q), .time_i(mtime_q),
    .ret_valid_o, .ret_pc_o, .ret_insn_o, .ret_rd_o, .ret_rd_we_o, .ret_rd_wdata_o, .ret_trap_o
  );

  // the core's data request is accepted unless a posted MMIO request waits for its grant (below)
  // ... or a timer store waits to be written (tw_v, below)
  logic        mq_v, mq_busy, d_go, d_wait, tw_v;
  assign mq_busy = mq_v & !mmio_gnt_i;
  assign d_wait  = mq_busy | tw_v;
  assign d_go    = d_req & !d_wait;

  // ---- address decode of the data side (core, or host while in reset)
  logic        a_req, a_we;
  logic [31:0] a_addr, a_wdata;
  assign a_req   = rst_ni ? d_go    : ld_req_i;
  assign a_we    = rst_ni ? d_we    : ld_we_i;
  assign a_addr  = rst_ni ? d_addr  : ld_addr_i;
  assign a_wdata = rst_ni ? d_wdata : ld_wdata_i;

  // The memories' port B reads every cycle (its data is taken only the cycle after a load, by
  // lrv and ld_rvalid_o) and writes by its byte enables alone, each byte's the whole decision:
  // a core store of that byte accepted (dwe_go) in the region, or a loader store. Behind the
  // address add's carry chain that is one LUT of six inputs per byte (the four region bits,
  // dwe_go[i] and the loader's flag, both kept as nets so ABC does not fold the request logic in
  // behind the chain). ABC sees the chain's outputs arrive at time 0, and an enable made of the
  // a_addr mux, the compares and the request (port-B enable and byte enables, ANDed again at the
  // RAM) was mapped 8-9 LUT levels from the register file's write address (sessions 24-25).
  logic dsel_imem, dsel_dmem, dsel_tc;
  (* keep *) logic [3:0] dwe_go;      // core store of byte i accepted this cycle
  (* keep *) logic       lwe_imem, lwe_dmem;   // loader store into IMEM / DMEM (core in reset)
  assign dsel_imem = (d_addr[31:28] == rv_pkg::ImemBase[31:28]);
  assign dsel_dmem = (d_addr[31:28] == rv_pkg::DmemBase[31:28]);
  assign dsel_tc   = (d_addr[31:28] == rv_pkg::TcBase[31:28]);
  assign dwe_go    = {4{rst_ni & d_go & d_we}} & d_be;
  assign lwe_imem  = !rst_ni & ld_req_i & ld_we_i & (ld_addr_i[31:28] == rv_pkg::ImemBase[31:28]);
  assign lwe_dmem  = !rst_ni & ld_req_i & ld_we_i & (ld_addr_i[31:28] == rv_pkg::DmemBase[31:28]);
  logic [3:0] imem_b_we, dmem_b_we;
  assign imem_b_we = (dwe_go & {4{dsel_imem}}) | {4{lwe_imem}};
  assign dmem_b_we = (dwe_go & {4{dsel_dmem}}) | {4{lwe_dmem}};
  // Last cycle's data address as it left the address add: its region bits registered raw
  // (ra_q) and decoded the cycle after, for the flags that register a request and its address
  // apart (below). Even a decode of the four bits between the carry chain and a flop was mapped
  // up to 4 LUTs deep (ABC sees the chain's outputs arrive at time 0 and chains the shared
  // compares), and the carry chain ends 3-4 levels after the IMEM.
  logic [3:0] ra_q;
  logic       ra_core_q;   // the core owned the data side (rst_ni) last cycle
  logic       ra_mmio, ra_imem, ra_dmem, ra_timer, ra_tc;
  always_ff @(posedge clk_i) begin
    ra_q      <= a_addr[31:28];
    ra_core_q <= rst_ni;
  end
  assign ra_mmio  = (ra_q[3:2] != 2'b00);
  assign ra_imem  = (ra_q == rv_pkg::ImemBase[31:28]);
  assign ra_dmem  = (ra_q == rv_pkg::DmemBase[31:28]);
  assign ra_timer = (ra_q == rv_pkg::TimerBase[31:28]);
  assign ra_tc    = (ra_q == rv_pkg::TcBase[31:28]);
  // address bits the decode and the RAM sizes leave out (aliasing)
  logic        dbg_rvalid_q;
  always_ff @(posedge clk_i) dbg_rvalid_q <= dbg_req_i;
  assign dbg_rvalid_o = dbg_rvalid_q;
  logic        unused_addr_bits;
  assign unused_addr_bits = ^{imem_addr, a_addr, rv_pkg::MmioBase, dbg_addr_i};

  // ---- memories
  logic [31:0] imem_b_rdata, dmem_b_rdata;
  rv_tcm #(.Bytes(ImemBytes), .InitFile(ImemInit)) u_imem (
    .clk_i,
    .a_en_i(rst_ni & imem_en), .a_addr_i(imem_addr[IAw+1:2]), .a_rdata_o(imem_rdata),
    .b_en_i(1'b1), .b_we_i(imem_b_we), .b_addr_i(a_addr[IAw+1:2]),
    .b_wdata_i(a_wdata), .b_rdata_o(imem_b_rdata)
  );
  rv_tcm #(.Bytes(DmemBytes), .InitFile(DmemInit)) u_dmem (
    .clk_i,
    .a_en_i(dbg_req_i), .a_addr_i(dbg_addr_i[DAw+1:2]), .a_rdata_o(dbg_rdata_o),
    .b_en_i(1'b1), .b_we_i(dmem_b_we), .b_addr_i(a_addr[DAw+1:2]),
    .b_wdata_i(a_wdata), .b_rdata_o(dmem_b_rdata)
  );

  // ---- machine timer: mtime (+0 lo, +4 hi) counts clock cycles, mtimecmp (+8 lo, +C hi)
  // Only the core reaches it (the host load port serves IMEM and DMEM, and the timer is in
  // reset while the host owns the port): decoded from the core's request alone, not through
  // the host/core muxes (issue 16: the loader's request reached the timer's 128 flops that way).
  // A store is posted: taken into tw_*_q and written the next cycle (issue 16: the decode of the
  // core's address add into the 128 timer flops' enables was 9 LUT levels). The core's next data
  // request, whatever its address, waits that one cycle (tw_v, like mq_busy), so a load that
  // follows a timer store reads the stored value. tw_v and the timer's read register are loaded
  // without the request and the address in one cone (tw_go_q, ra_q; timer_rdata_q every
  // cycle, read the cycle after): see the read data return below.
  logic [31:0] timer_rdata_q;
  logic [31:0] mtime_w, mtimecmp_w;
  logic [1:0]  tw_sel_q;
  logic [3:0]  tw_be_q;
  logic [31:0] tw_wdata_q;
  logic        tw_go_q;   // a store was accepted last cycle (its address: ra_timer)
  assign mtime_w    = d_addr[2] ? mtime_q[63:32]    : mtime_q[31:0];
  assign mtimecmp_w = d_addr[2] ? mtimecmp_q[63:32] : mtimecmp_q[31:0];
  always_ff @(posedge clk_i) begin
    tw_go_q <= rst_ni & d_go & d_we;
    if (d_go) begin
      tw_sel_q   <= d_addr[3:2];
      tw_be_q    <= d_be;
      tw_wdata_q <= d_wdata;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mtime_q    <= 64'd0;
      mtimecmp_q <= 64'hFFFF_FFFF_FFFF_FFFF;
    end else begin
      mtime_q <= mtime_q + 64'd1;
      if (tw_v) begin
        for (int i = 0; i < 4; i++) begin
          if (tw_be_q[i]) begin
            unique case (tw_sel_q)
              2'd0: mtime_q[8*i +: 8]         <= tw_wdata_q[8*i +: 8];
              2'd1: mtime_q[32 + 8*i +: 8]    <= tw_wdata_q[8*i +: 8];
              2'd2: mtimecmp_q[8*i +: 8]      <= tw_wdata_q[8*i +: 8];
              default: mtimecmp_q[32 + 8*i +: 8] <= tw_wdata_q[8*i +: 8];
            endcase
          end
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    timer_rdata_q <= d_addr[3] ? mtimecmp_w : mtime_w;
  end
  assign tw_v      = tw_go_q & ra_timer;
  assign irq_timer = (mtime_q >= mtimecmp_q);

  always_ff @(posedge clk_i) begin
    irq_ext_q <= rst_ni & irq_ext_i;
  end

  // ---- tightly coupled port (the core's own requests only)
  assign tc_req_o   = rst_ni & d_go & dsel_tc;
  assign tc_go_o    = rst_ni & d_go;
  assign tc_we_o    = d_we;
  assign tc_addr_o  = d_addr;
  assign tc_wdata_o = d_wdata;
  assign tc_be_o    = d_be;

  // ---- MMIO port: the request leaves from registers and is posted. The core's request (address
  // from its adder) is accepted in the cycle it appears and taken into mq_*_q, offered on the
  // port from the next cycle and held there until its grant. The core does not wait for that
  // grant: a store retires at once, a load goes to WB and waits there for its data. Only a
  // further data request waits, any request whatever its address, while mq holds one that is
  // not granted (mq_busy): so no path runs from the core's address add through the MMIO decode
  // into the core's stall (issue 16: it made stall, and with it every pipeline enable, the
  // soft core's longest path), accesses of all targets stay in program order, and one MMIO
  // load at most is outstanding (WB holds EX while it waits). docs/firmware.md.
  // mq_v: a request is offered, from registers loaded without the request and the address in
  // one cone (mq_go_q: a request was accepted last cycle, ra_mmio: last cycle's address was
  // MMIO, mq_hold_q: an offered one was not granted; see the read data return below)
  logic        mq_go_q, mq_hold_q;
  logic        mmio_pend_q;   // an MMIO load was granted and waits for its data
  logic        mq_we_q;
  logic [31:0] mq_addr_q, mq_wdata_q;
  logic [3:0]  mq_be_q;
  always_ff @(posedge clk_i) begin
    mq_go_q   <= rst_ni & d_go;
    mq_hold_q <= rst_ni & mq_busy;
    if (!mq_busy && d_req) begin
      mq_we_q    <= d_we;
      mq_addr_q  <= d_addr;
      mq_wdata_q <= d_wdata;
      mq_be_q    <= d_be;
    end
  end
  assign mq_v         = (mq_go_q & ra_mmio) | mq_hold_q;
  assign mmio_req_o   = mq_v & rst_ni;   // none in the first cycle of a reset, as before
  assign mmio_we_o    = mq_we_q;
  assign mmio_addr_o  = mq_addr_q;
  assign mmio_wdata_o = mq_wdata_q;
  assign mmio_be_o    = mq_be_q;
  assign d_gnt        = !d_wait;

  // ---- read data return
  // A tightly coupled load waits for tc_rvalid_i (tc_pend): the port's targets answer in one
  // cycle (the QP-context RAM) or two (the engines, whose requests rnic_fw_subsys registers).
  // The host's loads (in reset) of a tc address keep the fixed one-cycle answer.
  // What the data return needs of the request is registered in two halves, combined the cycle
  // after: that a load was issued (ld_q, from the request alone) and where its address points
  // (ra_q, the address alone, loaded every cycle, decoded here: loc, tca, rsel). A flag computed
  // from both at once put the decode of the core's address add behind its request logic in one
  // cone, which ABC (the carry chain's outputs arrive at time 0 for it) mapped 10 LUT levels
  // deep in the core (issue 16).
  logic       ld_q;       // a load (core's or host's) was issued last cycle
  logic       loc;        // last cycle's data address is local: TCM, timer, or the host's tc
  logic       tca;        // last cycle's data address is the core's tightly coupled port
  logic       lrv;        // local read data valid this cycle
  logic       tc_first;   // the first cycle of a tightly coupled load (its request last cycle)
  logic       tcw_q;      // a tightly coupled load still waits after its first cycle
  logic       tc_pend;    // a tightly coupled load waits for tc_rvalid_i
  logic [1:0] rsel;       // last cycle's data address: 0 IMEM, 1 DMEM, 2 timer, 3 tc port
  always_ff @(posedge clk_i) begin
    ld_q   <= a_req & !a_we;
    if (!rst_ni) mmio_pend_q <= 1'b0;
    else if (mmio_req_o && mmio_gnt_i && !mq_we_q) mmio_pend_q <= 1'b1;
    else if (mmio_rvalid_i) mmio_pend_q <= 1'b0;
    tcw_q <= rst_ni & tc_pend & !tc_rvalid_i;
  end
  assign loc      = !ra_mmio & !(ra_core_q & ra_tc);
  assign tca      = ra_core_q & ra_tc;
  assign rsel     = ra_imem ? 2'd0 : ra_dmem ? 2'd1 : ra_tc ? 2'd3 : 2'd2;
  assign lrv      = ld_q & loc;
  assign tc_first = ld_q & tca;
  assign tc_pend  = tc_first | tcw_q;
  // rsel is the last cycle's address, so a tightly coupled load that waits longer takes its
  // data by tc_pend
  logic [31:0] local_rdata;
  assign local_rdata = (rsel == 2'd0) ? imem_b_rdata :
                       (rsel == 2'd1) ? dmem_b_rdata :
                       (rsel == 2'd3) ? tc_rdata_i   : timer_rdata_q;
  assign d_rvalid    = (lrv & rst_ni) | (mmio_pend_q & mmio_rvalid_i) | (tc_pend & tc_rvalid_i);
  assign d_rdata     = tc_pend ? tc_rdata_i : lrv ? local_rdata : mmio_rdata_i;
  assign ld_rdata_o  = local_rdata;
  assign ld_rvalid_o = lrv & !rst_ni;
endmodule
