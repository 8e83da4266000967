// rv_csr: machine-mode CSR file, trap entry and mret.
//   Read and legality check are combinational on addr_i; the write (csr_we_i) and the trap /
//   mret updates take effect at the clock edge. Counters: mcycle every cycle, minstret on
//   instret_i. A CSR write of one half of a counter is done instead of that cycle's increment:
//   the written half takes the value and the other half holds, so neither the writing
//   instruction's increment nor its carry reaches the other half (unprivileged spec, CSR
//   instructions: "the write is done instead of the increment").
module rv_csr #(
  parameter logic [31:0] HartId = 32'd0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // CSR instruction access
  input  logic [11:0] addr_i,
  input  logic        write_i,     // the instruction would write the CSR (legality check)
  input  logic        csr_we_i,    // commit the write
  input  logic [31:0] wdata_i,     // value to write (already combined with the old value)
  output logic [31:0] rdata_o,
  output logic        illegal_o,
  // trap / return
  input  logic        trap_i,
  input  logic [31:0] trap_cause_i,
  input  logic [31:0] trap_pc_i,
  input  logic [31:0] trap_tval_i,
  input  logic        mret_i,
  output logic [31:0] mtvec_o,
  output logic [31:0] mepc_o,
  // interrupts
  input  logic        irq_timer_i,
  input  logic        irq_ext_i,
  output logic        irq_pending_o,
  output logic [31:0] irq_cause_o,
  // counters
  input  logic        instret_i,
  input  logic [63:0] time_i
);
  logic        mie_q, mpie_q;         // mstatus.MIE, mstatus.MPIE
  logic        msie_q, mtie_q, meie_q;// mie
  logic [31:0] mtvec_q, mscratch_q, mepc_q, mcause_q, mtval_q;
  logic [63:0] mcycle_q, minstret_q;

  // counter half writes; a trap in the same cycle takes priority as for every other CSR
  logic ctr_we, wr_cyc_lo, wr_cyc_hi, wr_ins_lo, wr_ins_hi;
  assign ctr_we    = csr_we_i && !trap_i && !mret_i;
  assign wr_cyc_lo = ctr_we && (addr_i == rv_pkg::CsrMcycle);
  assign wr_cyc_hi = ctr_we && (addr_i == rv_pkg::CsrMcycleh);
  assign wr_ins_lo = ctr_we && (addr_i == rv_pkg::CsrMinstret);
  assign wr_ins_hi = ctr_we && (addr_i == rv_pkg::CsrMinstreth);

  logic [31:0] mstatus, mie, mip;
  assign mstatus = {19'd0, 2'b11, 3'd0, mpie_q, 3'd0, mie_q, 3'd0};  // MPP fixed to M
  assign mie     = {20'd0, meie_q, 3'd0, mtie_q, 3'd0, msie_q, 3'd0};
  assign mip     = {20'd0, irq_ext_i, 3'd0, irq_timer_i, 7'd0};

  assign mtvec_o = mtvec_q;
  assign mepc_o  = mepc_q;

  assign irq_pending_o = mie_q & ((meie_q & irq_ext_i) | (mtie_q & irq_timer_i));
  assign irq_cause_o   = (meie_q & irq_ext_i) ? rv_pkg::IrqExternal : rv_pkg::IrqTimer;

  // ---- read mux and legality
  logic known;
  always_comb begin
    known   = 1'b1;
    rdata_o = 32'd0;
    unique case (addr_i)
      rv_pkg::CsrMstatus:   rdata_o = mstatus;
      rv_pkg::CsrMisa:      rdata_o = rv_pkg::MisaValue;
      rv_pkg::CsrMie:       rdata_o = mie;
      rv_pkg::CsrMtvec:     rdata_o = mtvec_q;
      rv_pkg::CsrMscratch:  rdata_o = mscratch_q;
      rv_pkg::CsrMepc:      rdata_o = mepc_q;
      rv_pkg::CsrMcause:    rdata_o = mcause_q;
      rv_pkg::CsrMtval:     rdata_o = mtval_q;
      rv_pkg::CsrMip:       rdata_o = mip;
      rv_pkg::CsrMcycle,   rv_pkg::CsrCycle:    rdata_o = mcycle_q[31:0];
      rv_pkg::CsrMcycleh,  rv_pkg::CsrCycleh:   rdata_o = mcycle_q[63:32];
      rv_pkg::CsrMinstret, rv_pkg::CsrInstret:  rdata_o = minstret_q[31:0];
      rv_pkg::CsrMinstreth,rv_pkg::CsrInstreth: rdata_o = minstret_q[63:32];
      rv_pkg::CsrTime:      rdata_o = time_i[31:0];
      rv_pkg::CsrTimeh:     rdata_o = time_i[63:32];
      rv_pkg::CsrMvendorid, rv_pkg::CsrMarchid, rv_pkg::CsrMimpid: rdata_o = 32'd0;
      rv_pkg::CsrMhartid:   rdata_o = HartId;
      default:              known   = 1'b0;
    endcase
  end
  // addr[11:10] == 2'b11: read-only CSRs
  assign illegal_o = !known || (write_i && (addr_i[11:10] == 2'b11));

  // ---- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mie_q      <= 1'b0;
      mpie_q     <= 1'b0;
      msie_q     <= 1'b0;
      mtie_q     <= 1'b0;
      meie_q     <= 1'b0;
      mtvec_q    <= 32'd0;
      mscratch_q <= 32'd0;
      mepc_q     <= 32'd0;
      mcause_q   <= 32'd0;
      mtval_q    <= 32'd0;
      mcycle_q   <= 64'd0;
      minstret_q <= 64'd0;
    end else begin
      if (wr_cyc_lo)      mcycle_q <= {mcycle_q[63:32], wdata_i};
      else if (wr_cyc_hi) mcycle_q <= {wdata_i, mcycle_q[31:0]};
      else                mcycle_q <= mcycle_q + 64'd1;
      if (wr_ins_lo)      minstret_q <= {minstret_q[63:32], wdata_i};
      else if (wr_ins_hi) minstret_q <= {wdata_i, minstret_q[31:0]};
      else if (instret_i) minstret_q <= minstret_q + 64'd1;
      if (trap_i) begin
        mepc_q   <= trap_pc_i;
        mcause_q <= trap_cause_i;
        mtval_q  <= trap_tval_i;
        mpie_q   <= mie_q;
        mie_q    <= 1'b0;
      end else if (mret_i) begin
        mie_q    <= mpie_q;
        mpie_q   <= 1'b1;
      end else if (csr_we_i) begin
        unique case (addr_i)
          rv_pkg::CsrMstatus: begin
            mie_q  <= wdata_i[3];
            mpie_q <= wdata_i[7];
          end
          rv_pkg::CsrMie: begin
            msie_q <= wdata_i[3];
            mtie_q <= wdata_i[7];
            meie_q <= wdata_i[11];
          end
          rv_pkg::CsrMtvec:     mtvec_q    <= {wdata_i[31:2], 2'b00};   // direct mode only
          rv_pkg::CsrMscratch:  mscratch_q <= wdata_i;
          rv_pkg::CsrMepc:      mepc_q     <= {wdata_i[31:2], 2'b00};
          rv_pkg::CsrMcause:    mcause_q   <= wdata_i;
          rv_pkg::CsrMtval:     mtval_q    <= wdata_i;
          // the counters are written above
          default: ;
        endcase
      end
    end
  end
endmodule
