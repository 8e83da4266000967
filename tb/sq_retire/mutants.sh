#!/bin/bash
# tb/sq_retire/mutants.sh: the testbench must fail each of these one-line mutations of
# rtl/sq_retire/sq_retire.sv (each built in its own directory under $BUILD/sq_retire/mut-N from a
# copy of the RTL with the mutation applied; the real RTL is not touched). One PASS line per
# mutation the testbench caught, FAIL for one it let through.
# Usage: tb/sq_retire/mutants.sh BUILD_DIR VERILATOR_COMMAND_PREFIX...
set -u
build=$1
seed=${SQR_MUT_SEED:-1}
ops=${SQR_MUT_OPS:-20000}
src=rtl/sq_retire/sq_retire.sv
# name|sed expression (each must change the file: checked)
muts=(
  "covered-off-by-one|s/covered  = psn_le(r_last, upto_q);/covered  = psn_le(r_last, una_q);/"
  "no-psn-wrap|s/psn_le = !d\[PsnW-1\];/psn_le = a <= b;/"
  "stale-ack-moves-una|s/l_ne \&\& !psn_le(psn_q, l_una - 1'b1);/l_ne;/"
  "unsignaled-failure-silent|s/emit     = (r_sig || fail) \&\& !is_drop;/emit     = r_sig \&\& !is_drop;/"
  "drop-writes-completions|s/emit     = (r_sig || fail) \&\& !is_drop;/emit     = r_sig || fail;/"
  "barrier-without-response|s/retire   = force_q || (covered \&\& (!r_bar || resp_hit));/retire   = force_q || covered;/"
  "told-every-time|s/stop_bar = !retire \&\& covered \&\& r_bar \&\& !told_q;/stop_bar = !retire \&\& covered \&\& r_bar;/"
  "pop-not-forced|s/force_q <= op_q == rnic_spec_pkg::SR_OP_POP || /force_q <= /"
  "find-answers-the-head|s/q_hit = op_q == rnic_spec_pkg::SR_OP_QUERY || /q_hit = 1'b1 || /"
  "find-looks-at-the-head-only|s/q_end = q_hit || last_one || !psn_le(r_first, psn_q);/q_end = 1'b1;/"
  "ci-not-plus-one|s/ci_q   <= r_idx + 1'b1;/ci_q   <= r_idx;/"
)
rerun=test-sq_retire-mutants
. "$(dirname "$0")/../common/rtl_mutants.sh"
rtl_mutants "${muts[@]}"
