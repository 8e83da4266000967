// rv_core: RV32IM + Zicsr, machine mode only, three-stage pipeline.
//
//   IF  : the fetch address is driven to the synchronous instruction RAM (imem_*).
//   EX  : the instruction arrives from the RAM; decode, register read (with forwarding from WB),
//         ALU, branch resolution, CSR access, data request, M-unit (stalls while busy), traps.
//   WB  : load data returns (one cycle for TCM, any number for MMIO), register write, trace.
//
// Branch prediction: static, decided in IF from the instruction leaving the RAM: JAL and backward
// conditional branches are predicted taken (no penalty when right), everything else falls
// through. A mispredict, JALR, trap or mret redirects fetch through a register: 2 bubbles.
// Interrupts are taken on the instruction in EX (precise: mepc = its PC), never while a load is
// outstanding in WB or a data request waits for its grant; a divide in flight is abandoned.
module rv_core #(
  parameter logic [31:0] HartId  = 32'd0,
  parameter logic [31:0] ResetPc = 32'd0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // instruction RAM (synchronous read, data one cycle after the address)
  output logic        imem_en_o,
  output logic [31:0] imem_addr_o,
  input  logic [31:0] imem_rdata_i,
  // data bus: request held until gnt; load data returned by rvalid (in order, one outstanding)
  output logic        d_req_o,
  output logic        d_we_o,
  output logic [31:0] d_addr_o,
  output logic [31:0] d_wdata_o,
  output logic [3:0]  d_be_o,
  input  logic        d_gnt_i,
  input  logic        d_rvalid_i,
  input  logic [31:0] d_rdata_i,
  // interrupts (level) and time for the time CSR
  input  logic        irq_timer_i,
  input  logic        irq_ext_i,
  input  logic [63:0] time_i,
  // retirement trace
  output logic        ret_valid_o,
  output logic [31:0] ret_pc_o,
  output logic [31:0] ret_insn_o,
  output logic [4:0]  ret_rd_o,
  output logic        ret_rd_we_o,
  output logic [31:0] ret_rd_wdata_o,
  output logic        ret_trap_o
);
  // ------------------------------------------------------------------ pipeline state
  logic        redir_q;      // fetch from redir_pc_q this cycle, EX holds no instruction
  logic [31:0] redir_pc_q;
  logic [31:0] ex_pc_q;      // PC of the instruction on imem_rdata_i

  logic        wb_valid_q, wb_we_q, wb_load_q, wb_trap_q;
  logic [4:0]  wb_rd_q;
  logic [2:0]  wb_f3_q;
  logic [1:0]  wb_alo_q;
  logic [31:0] wb_pc_q, wb_insn_q;
  // the EX result, registered unselected (rv_alu): the adder's sum, the SLT bit, every other
  // result, and which of them it is; wb_res picks one
  logic [31:0] wb_sum_q, wb_rest_q, wb_res;
  logic        wb_lt_q, wb_use_sum_q, wb_use_lt_q;
  logic        dreq_pend_q;  // a data request was presented and not granted yet

  // ------------------------------------------------------------------ decode
  logic [31:0] insn;
  logic        ex_valid;
  assign insn     = imem_rdata_i;
  assign ex_valid = !redir_q;

  logic [6:0]  opcode;
  logic [4:0]  rd, rs1, rs2;
  logic [2:0]  f3;
  logic [6:0]  f7;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;
  assign opcode = insn[6:0];
  assign rd     = insn[11:7];
  assign f3     = insn[14:12];
  assign rs1    = insn[19:15];
  assign rs2    = insn[24:20];
  assign f7     = insn[31:25];
  assign imm_i  = {{20{insn[31]}}, insn[31:20]};
  assign imm_s  = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  assign imm_b  = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
  assign imm_u  = {insn[31:12], 12'd0};
  assign imm_j  = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

  logic            dec_ill, dec_we, is_load, is_store, is_branch, is_jal, is_jalr, is_csr, is_md;
  logic            is_ecall, is_ebreak, is_mret, is_lui, is_auipc;
  logic            b_imm;      // ALU operand b is imm_i
  rv_pkg::alu_op_e alu_op;

  always_comb begin
    dec_ill = 1'b0; dec_we = 1'b0; is_load = 1'b0; is_store = 1'b0; is_branch = 1'b0;
    is_jal = 1'b0; is_jalr = 1'b0; is_csr = 1'b0; is_md = 1'b0; is_ecall = 1'b0;
    is_ebreak = 1'b0; is_mret = 1'b0; is_lui = 1'b0; is_auipc = 1'b0; b_imm = 1'b0;
    alu_op = rv_pkg::AluAdd;
    unique case (opcode)
      rv_pkg::OpLui:   begin is_lui = 1'b1;   dec_we = 1'b1; end
      rv_pkg::OpAuipc: begin is_auipc = 1'b1; dec_we = 1'b1; end
      rv_pkg::OpJal:   begin is_jal = 1'b1;   dec_we = 1'b1; end
      rv_pkg::OpJalr:  begin is_jalr = 1'b1;  dec_we = 1'b1; dec_ill = (f3 != 3'd0); end
      rv_pkg::OpBranch: begin is_branch = 1'b1; dec_ill = (f3 == 3'd2) || (f3 == 3'd3); end
      rv_pkg::OpLoad:  begin
        is_load = 1'b1; dec_we = 1'b1;
        dec_ill = (f3 == 3'd3) || (f3 == 3'd6) || (f3 == 3'd7);
      end
      rv_pkg::OpStore: begin is_store = 1'b1; dec_ill = (f3 > 3'd2); end
      rv_pkg::OpImm: begin
        dec_we = 1'b1; b_imm = 1'b1;
        unique case (f3)
          3'd0: alu_op = rv_pkg::AluAdd;
          3'd1: begin alu_op = rv_pkg::AluSll; dec_ill = (f7 != 7'd0); end
          3'd2: alu_op = rv_pkg::AluSlt;
          3'd3: alu_op = rv_pkg::AluSltu;
          3'd4: alu_op = rv_pkg::AluXor;
          3'd5: begin
            alu_op  = f7[5] ? rv_pkg::AluSra : rv_pkg::AluSrl;
            dec_ill = (f7 != 7'd0) && (f7 != 7'b0100000);
          end
          3'd6: alu_op = rv_pkg::AluOr;
          default: alu_op = rv_pkg::AluAnd;
        endcase
      end
      rv_pkg::OpReg: begin
        dec_we = 1'b1;
        if (f7 == 7'b0000001) begin
          is_md = 1'b1;
        end else begin
          dec_ill = (f7 != 7'd0) && !((f7 == 7'b0100000) && ((f3 == 3'd0) || (f3 == 3'd5)));
          unique case (f3)
            3'd0: alu_op = f7[5] ? rv_pkg::AluSub : rv_pkg::AluAdd;
            3'd1: alu_op = rv_pkg::AluSll;
            3'd2: alu_op = rv_pkg::AluSlt;
            3'd3: alu_op = rv_pkg::AluSltu;
            3'd4: alu_op = rv_pkg::AluXor;
            3'd5: alu_op = f7[5] ? rv_pkg::AluSra : rv_pkg::AluSrl;
            3'd6: alu_op = rv_pkg::AluOr;
            default: alu_op = rv_pkg::AluAnd;
          endcase
        end
      end
      rv_pkg::OpMiscMem: dec_ill = (f3 > 3'd1);            // FENCE, FENCE.I: no-ops
      rv_pkg::OpSystem: begin
        if (f3 == 3'd0) begin
          unique case (insn[31:7])
            25'h0000000: is_ecall  = 1'b1;
            25'h0002000: is_ebreak = 1'b1;
            25'h0604000: is_mret   = 1'b1;
            25'h020A000: ;                                   // WFI: no-op
            default:     dec_ill   = 1'b1;
          endcase
        end else if (f3 == 3'd4) begin
          dec_ill = 1'b1;
        end else begin
          is_csr = 1'b1; dec_we = 1'b1;
        end
      end
      default: dec_ill = 1'b1;
    endcase
  end

  // ------------------------------------------------------------------ register file + forwarding
  logic [31:0] rf_a, rf_b, rs1_v, rs2_v, wb_value, ld_ext;
  logic        wb_done, wb_wait, rf_we;
  assign wb_wait = wb_valid_q & wb_load_q & !d_rvalid_i;
  assign wb_done = wb_valid_q & !wb_wait;
  assign rf_we   = wb_done & wb_we_q & (wb_rd_q != 5'd0);

  // load alignment and extension
  logic [31:0] sh;
  assign sh = d_rdata_i >> {wb_alo_q, 3'b000};
  always_comb begin
    unique case (wb_f3_q)
      3'd0:    ld_ext = {{24{sh[7]}}, sh[7:0]};
      3'd1:    ld_ext = {{16{sh[15]}}, sh[15:0]};
      3'd4:    ld_ext = {24'd0, sh[7:0]};
      3'd5:    ld_ext = {16'd0, sh[15:0]};
      default: ld_ext = sh;
    endcase
  end
  assign wb_res   = wb_use_sum_q ? wb_sum_q : wb_use_lt_q ? {31'd0, wb_lt_q} : wb_rest_q;
  assign wb_value = wb_load_q ? ld_ext : wb_res;

  rv_regfile u_rf (
    .clk_i, .ra_i(rs1), .rdata_a_o(rf_a), .rb_i(rs2), .rdata_b_o(rf_b),
    .we_i(rf_we), .wa_i(wb_rd_q), .wdata_i(wb_value)
  );
  // Forwarding carries results computed in EX (wb_res) only, never load data: load data
  // arriving in WB in the same cycle as its consumer's address add, compare or ALU op made the
  // soft core's longest path (bus read mux -> align -> bypass -> adder -> next PC). An
  // instruction that reads the register a load in WB writes waits one cycle instead (load-use
  // interlock, lu_haz) and then reads it from the register file.
  logic fwd_ok, lu_haz, use_rs1, use_rs2;
  assign fwd_ok  = wb_valid_q & wb_we_q & (wb_rd_q != 5'd0);
  assign rs1_v   = (fwd_ok && !wb_load_q && (wb_rd_q == rs1)) ? wb_res : rf_a;
  assign rs2_v   = (fwd_ok && !wb_load_q && (wb_rd_q == rs2)) ? wb_res : rf_b;
  // which source fields the instruction reads (a stall for a field it ignores costs a cycle)
  assign use_rs1 = !(is_lui | is_auipc | is_jal | (is_csr & f3[2]));
  assign use_rs2 = is_branch | is_store | (opcode == rv_pkg::OpReg);
  assign lu_haz  = fwd_ok & wb_load_q &
                   (((wb_rd_q == rs1) & use_rs1) | ((wb_rd_q == rs2) & use_rs2));

  // ------------------------------------------------------------------ execute
  // the result of the instruction in EX, in the pieces rv_alu leaves unselected
  logic [31:0] ex_sum, ex_rest, ex_other;
  logic        ex_lt, ex_use_sum, ex_use_lt, ex_alu;

  // branch condition: one magnitude compare serves BLT/BGE and BLTU/BGEU (a signed compare is
  // the unsigned one with both sign bits flipped, f3[1] = 0), and the taken bit is a two-way
  // pick of a compare and its inversion instead of a six-way case on f3: the case's mux tree
  // put the soft core's redirect one LUT level over the core's budget (issue 16). f3 = 2, 3
  // (illegal, trapped) keep "not below, unsigned" as before.
  logic br_eq, br_lt_any, br_taken;
  assign br_eq     = (rs1_v == rs2_v);
  assign br_lt_any = ({rs1_v[31] ^ !f3[1], rs1_v[30:0]} < {rs2_v[31] ^ !f3[1], rs2_v[30:0]});
  assign br_taken  = (f3[2] | f3[1]) ? (br_lt_any ^ (f3[0] | !f3[2])) : (br_eq ^ f3[0]);

  // static prediction (also drives the fetch address)
  logic        pred_taken;
  logic [31:0] pc_plus4, pred_npc, br_target, jalr_target, jump_target;
  assign pc_plus4    = ex_pc_q + 32'd4;
  assign br_target   = ex_pc_q + (is_jal ? imm_j : imm_b);
  assign pred_taken  = is_jal | (is_branch & insn[31]);
  assign pred_npc    = pred_taken ? br_target : pc_plus4;
  assign jalr_target = (rs1_v + imm_i) & ~32'd1;
  assign jump_target = is_jalr ? jalr_target : br_target;

  // data access
  logic [31:0] mem_addr, mem_ofs;
  logic [1:0]  alo;        // mem_addr[1:0], from the operands' two low bits (no carry chain)
  logic        mis_ldst;
  assign mem_ofs  = is_store ? imm_s : imm_i;
  assign mem_addr = rs1_v + mem_ofs;
  assign alo      = {rs1_v[1] ^ mem_ofs[1] ^ (rs1_v[0] & mem_ofs[0]), rs1_v[0] ^ mem_ofs[0]};
  always_comb begin
    unique case (f3[1:0])
      2'd0:    mis_ldst = 1'b0;
      2'd1:    mis_ldst = alo[0];
      default: mis_ldst = (alo != 2'd0);
    endcase
  end

  // CSR access
  logic [31:0] csr_rdata, csr_src, csr_wdata, mtvec, mepc;
  logic        csr_write, csr_ill;
  assign csr_src   = f3[2] ? {27'd0, rs1} : rs1_v;
  assign csr_write = (f3[1:0] == 2'b01) || (rs1 != 5'd0);
  always_comb begin
    unique case (f3[1:0])
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end

  // Misaligned jump targets without the adders and without the branch compare (issue 16: the
  // exception made trap, and with it stall, every enable and the CSR writes, wait for the compare
  // and the target add). PCs are always 4-aligned (IALIGN 32: the reset PC, mtvec and mepc are,
  // and a misaligned target traps instead of being fetched), so the target's bit 1 is the
  // immediate's for JAL and branches; for JALR it is bit 1 of rs1 + imm, from the two low bits.
  // A branch whose offset has bit 1 set (never emitted by a compiler for RV32 without C) waits
  // one cycle in EX (hold): the compare is registered (brt_q) and the exception taken from it.
  logic jalr_t1, brw_q, brt_q, br_mis_cand, tgt_mis;
  assign jalr_t1     = rs1_v[1] ^ imm_i[1] ^ (rs1_v[0] & imm_i[0]);
  assign br_mis_cand = is_branch & imm_b[1];
  assign tgt_mis     = (is_jal & imm_j[1]) | (is_jalr & jalr_t1) | (br_mis_cand & brw_q & brt_q);

  // exceptions
  logic        exc;
  logic [31:0] exc_cause, exc_tval;
  always_comb begin
    exc = 1'b1; exc_cause = rv_pkg::ExcIllegal; exc_tval = insn;
    if (dec_ill || (is_csr && csr_ill)) begin
      exc_cause = rv_pkg::ExcIllegal; exc_tval = insn;
    end else if (is_ecall) begin
      exc_cause = rv_pkg::ExcEcallM; exc_tval = 32'd0;
    end else if (is_ebreak) begin
      exc_cause = rv_pkg::ExcBreakpoint; exc_tval = 32'd0;
    end else if (tgt_mis) begin
      exc_cause = rv_pkg::ExcInsnMisaligned; exc_tval = jump_target;
    end else if (is_load && mis_ldst) begin
      exc_cause = rv_pkg::ExcLoadMisaligned; exc_tval = mem_addr;
    end else if (is_store && mis_ldst) begin
      exc_cause = rv_pkg::ExcStoreMisaligned; exc_tval = mem_addr;
    end else begin
      exc = 1'b0;
    end
  end

  // interrupts, stalls, commit
  logic        irq_pending, run, irq_take, exc_take, trap, md_done, md_req, stall, commit;
  logic [31:0] irq_cause, md_res;
  // run: WB moves on; hold: the instruction in EX may not act yet (its load operand is not in
  // the register file). A load-use hold leaves a bubble in WB.
  logic hold;
  assign run      = !wb_wait;
  assign hold     = wb_wait | lu_haz | (br_mis_cand & !brw_q);
  assign irq_take = !hold & ex_valid & irq_pending & !dreq_pend_q;
  assign exc_take = !hold & ex_valid & !irq_take & exc;
  assign trap     = irq_take | exc_take;
  // a load or store traps only for its own decode or alignment, an M op only for an interrupt:
  // written so, the requests do not wait for the other exceptions' logic
  assign d_req_o  = !hold & ex_valid & !irq_take & (is_load | is_store) & !dec_ill & !mis_ldst;
  assign md_req   = !hold & ex_valid & !irq_take & is_md;
  assign stall    = hold | (d_req_o & !d_gnt_i) | (md_req & !md_done);
  assign commit   = ex_valid & !stall & !trap;

  assign d_we_o    = is_store;
  assign d_addr_o  = mem_addr;
  assign d_wdata_o = rs2_v << {alo, 3'b000};
  assign d_be_o    = (f3[1:0] == 2'd0) ? (4'b0001 << alo) :
                     (f3[1:0] == 2'd1) ? (4'b0011 << alo) : 4'b1111;

  rv_muldiv u_md (
    .clk_i, .rst_ni, .req_i(md_req), .kill_i(irq_take), .op_i(f3), .a_i(rs1_v), .b_i(rs2_v),
    .done_o(md_done), .result_o(md_res)
  );

  rv_csr #(.HartId(HartId)) u_csr (
    .clk_i, .rst_ni,
    .addr_i(insn[31:20]), .write_i(csr_write), .csr_we_i(commit & is_csr & csr_write),
    .wdata_i(csr_wdata), .rdata_o(csr_rdata), .illegal_o(csr_ill),
    .trap_i(trap), .trap_cause_i(irq_take ? irq_cause : exc_cause), .trap_pc_i(ex_pc_q),
    .trap_tval_i(irq_take ? 32'd0 : exc_tval), .mret_i(commit & is_mret),
    .mtvec_o(mtvec), .mepc_o(mepc),
    .irq_timer_i, .irq_ext_i, .irq_pending_o(irq_pending), .irq_cause_o(irq_cause),
    .instret_i(commit), .time_i
  );

  // result of an instruction that is no ALU op (loads and stores: not used)
  assign ex_alu = !(is_lui | is_auipc | is_jal | is_jalr | is_csr | is_md);
  always_comb begin
    if (is_lui)                 ex_other = imm_u;
    else if (is_auipc)          ex_other = ex_pc_q + imm_u;
    else if (is_jal || is_jalr) ex_other = pc_plus4;
    else if (is_csr)            ex_other = csr_rdata;
    else                        ex_other = md_res;
  end
  rv_alu u_alu (
    .op_i(alu_op), .a_i(rs1_v), .b_i(b_imm ? imm_i : rs2_v), .alu_i(ex_alu), .other_i(ex_other),
    .sum_o(ex_sum), .lt_o(ex_lt), .rest_o(ex_rest), .use_sum_o(ex_use_sum), .use_lt_o(ex_use_lt)
  );

  // ------------------------------------------------------------------ fetch
  // Only redir_q waits for the branch compare (issue 16): a branch redirects only when it was
  // mispredicted, so its redirect target is the address the prediction did not take, and
  // ex_pc_q / redir_pc_q load on every advance (ex_pc_q is not used while redir_q marks EX empty,
  // redir_pc_q only while redir_q is set).
  logic redirect_ex;
  logic [31:0] redirect_pc;
  assign redirect_ex = is_mret | is_jalr | (is_branch & (br_taken != pred_taken));
  always_comb begin
    if (trap)               redirect_pc = mtvec;
    else if (is_mret)       redirect_pc = mepc;
    else if (is_jalr)       redirect_pc = jalr_target;
    else if (pred_taken)    redirect_pc = pc_plus4;     // a branch predicted taken fell through
    else                    redirect_pc = br_target;    // one predicted not taken was taken
  end

  assign imem_en_o   = !stall;
  assign imem_addr_o = redir_q ? redir_pc_q : pred_npc;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      redir_q    <= 1'b1;
      redir_pc_q <= ResetPc;
      ex_pc_q    <= ResetPc;
    end else if (!stall) begin
      redir_q    <= !redir_q & (trap | (ex_valid & redirect_ex));
      redir_pc_q <= redirect_pc;
      ex_pc_q    <= redir_q ? redir_pc_q : pred_npc;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) dreq_pend_q <= 1'b0;
    else         dreq_pend_q <= d_req_o & !d_gnt_i;
  end

  // a branch with a misaligned offset: its compare, taken in the cycle it waits with valid
  // operands, decides the exception in the next (the instruction stays in EX until it leaves)
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      brw_q <= 1'b0;
    end else if (brw_q) begin
      brw_q <= stall & !trap;
    end else if (ex_valid & br_mis_cand & !wb_wait & !lu_haz) begin
      brw_q <= 1'b1;
    end
    if (!brw_q) brt_q <= br_taken;
  end

  // ------------------------------------------------------------------ write back
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wb_valid_q <= 1'b0;
      wb_load_q  <= 1'b0;
    end else if (run) begin
      wb_valid_q <= commit | trap;
      if (commit | trap) begin
        wb_we_q   <= commit & dec_we;
        wb_load_q <= commit & is_load;
        wb_trap_q <= trap;
        wb_rd_q   <= rd;
        wb_f3_q   <= f3;
        wb_alo_q  <= alo;
        wb_pc_q   <= ex_pc_q;
        wb_insn_q <= insn;
        wb_sum_q     <= ex_sum;
        wb_lt_q      <= ex_lt;
        wb_rest_q    <= ex_rest;
        wb_use_sum_q <= ex_use_sum;
        wb_use_lt_q  <= ex_use_lt;
      end
    end
  end

  assign ret_valid_o    = wb_done;
  assign ret_pc_o       = wb_pc_q;
  assign ret_insn_o     = wb_insn_q;
  assign ret_rd_o       = wb_we_q ? wb_rd_q : 5'd0;
  assign ret_rd_we_o    = wb_we_q & (wb_rd_q != 5'd0);
  assign ret_rd_wdata_o = (wb_we_q && (wb_rd_q != 5'd0)) ? wb_value : 32'd0;
  assign ret_trap_o     = wb_trap_q;
endmodule
