#!/bin/bash
# tb/tx_build/mutants.sh: the testbench must fail each of these one-line mutations of
# rtl/tx_build/tx_build.sv (each built in its own directory under $BUILD/tx_build/mut-N from a copy
# of the RTL with the mutation applied; the real RTL is not touched), at 512 bits. One PASS line
# per mutation the testbench caught, FAIL for one it let through.
# Usage: tb/tx_build/mutants.sh BUILD_DIR
set -u
build=$1
seed=${TXB_MUT_SEED:-1}
ops=${TXB_MUT_OPS:-4000}
src=rtl/tx_build/tx_build.sv
# name|sed expression (each must change the file: checked)
muts=(
  "bf-seq-not-checked|s/bfs.valid == 1'b1 \&\& bfs.seq == cmd_q.bf_seq \&\& /bfs.valid == 1'b1 \&\& /"
  "bf-valid-not-checked|s/!(bfs.valid == 1'b1 \&\& bfs.seq/!(bfs.seq/"
  "read-ops-taken|s/op_bad_q   <= c.opcode > rnic_spec_pkg::WQE_OP_SEND_WITH_IMM;/op_bad_q   <= c.opcode > rnic_spec_pkg::WQE_OP_RDMA_READ;/"
  "index-not-checked|s/idx_bad_q  <= c.wqe_index != idx_q;/idx_bad_q  <= 1'b0;/"
  "three-segments-taken|s/size_bad_q <= c.num_ds > 8'd2;/size_bad_q <= c.num_ds > 8'd3;/"
  "raddr-not-counted|s/9'(c.num_sge) + 9'(is_write) > /9'(c.num_sge) > /"
  "packet-bound-off-by-one|s/many_q <= !zlen_q \&\& shv\[24:PkW\] != '0;/many_q <= !zlen_q \&\& shv[24:PkW] != '0 \&\& shv[PkW-1:0] != '0;/"
  "no-record-margin|s/free_i < 2/free_i < 1/"
  "record-on-resend|s/rec_v_q <= need_rec;/rec_v_q <= 1'b1;/"
  "ignores-pending-firmware-commit|s/assign em_go  = !fw_txd_pend_i \&\& !fw_rec_pend_i;/assign em_go  = !fw_rec_pend_i;/"
  "write-sge-at-raddr|s/assign s0 = write_q ? /assign s0 = 1'b0 ? /"
  "second-sge-always|s/if (nsge_q\[1\]) begin/if (nsge_q != 2'd0) begin/"
  "next-psn-is-last|s/status_q.next_psn <= last_q + 24'd1;/status_q.next_psn <= last_q;/"
  "no-retransmit-flag|s/(8'(cmd_q.retx) << rnic_spec_pkg::TX_FLAG_RETRANSMIT)/8'd0/"
  "sig-all-ignored|s/sig_q      <= c.flags\[FSig\] || cmd_q.sig_all == 1'b1;/sig_q      <= c.flags[FSig];/"
  "send-imm-as-send|s/2'd3:    d.kind = rnic_spec_pkg::MSG_KIND_SEND_IMM;/2'd3:    d.kind = rnic_spec_pkg::MSG_KIND_SEND;/"
  "loads-outputs-without-ready-ports|s/assign em_ok  = em_go \&\& txd_ready_i \&\& rec_ok;/assign em_ok  = em_go;/"
  "no-wait-bound|s/end else if (wait_q == WaitW'(rnic_spec_pkg::TXB_WAIT - 1)) begin/end else if (1'b0) begin/"
  "wait-bound-early|s/end else if (wait_q == WaitW'(rnic_spec_pkg::TXB_WAIT - 1)) begin/end else if (wait_q == WaitW'(rnic_spec_pkg::TXB_WAIT - 8)) begin/"
  "run-no-wrap|s/assign bb_next = (bb_q \& ~wrap_q) | ((bb_q + 6'd1) \& wrap_q);/assign bb_next = bb_q + 6'd1;/"
  "run-index-not-advanced|s/idx_q  <= idx_q + 16'd1;/idx_q  <= idx_q;/"
  "run-psn-not-chained|s/psn_q  <= last_q + 24'd1;/psn_q  <= last_q;/"
  "run-one-short|s/if (left_q == 3'd0) begin/if (left_q <= 3'd1) begin/"
  "run-bf-not-single|s/left_q <= cmd_i\[CBf\] || cmd_i\[CRetx\] ? 3'd0 : /left_q <= cmd_i[CRetx] ? 3'd0 : /"
  "run-resend-not-single|s/left_q <= cmd_i\[CBf\] || cmd_i\[CRetx\] ? 3'd0 : /left_q <= cmd_i[CBf] ? 3'd0 : /"
  "sent-not-counted|s/sent_q <= sent_q + 4'd1;/sent_q <= sent_q;/"
  "done-before-taken|s/S_WT: if ((!txd_v_q || txd_ready_i) \&\& (!rec_v_q || rec_ready_i)) begin/S_WT: if (1'b1) begin/"
)
rerun=test-tx_build-mutants
. "$(dirname "$0")/../common/rtl_mutants.sh"
rtl_mutants "${muts[@]}"
