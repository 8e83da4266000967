#!/usr/bin/env bash
# test_synth_warnings.sh: synth.sh fails on the Yosys warnings that mean the netlist is not the
# RTL (bitstream-scripts/synth/yosys_warnings.py) and passes a clean module; a reviewed warning
# in the allow-list passes only with a reason. Tiny modules through the real flow (synth.sh,
# Yosys synth_xilinx), outputs in a temporary directory; part of suite infra, ~10 s.
set -uo pipefail
rerun="tb/infra/test_synth_warnings.sh"
. "$(dirname "$0")/checks.sh"
root=$(pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat > pkg.sv <<'SV'
package tw_pkg;
  typedef struct packed { logic [7:0] a; logic [7:0] b; } s_t;
endpackage
SV
# clean: a single packed struct on a port (what Yosys 0.23 handles)
cat > tw_good.sv <<'SV'
module tw_good (input logic clk_i, input tw_pkg::s_t a_i, output logic [15:0] q_o);
  always_ff @(posedge clk_i) q_o <= {a_i.b, a_i.a};
endmodule
SV
# a wire read but never driven
cat > tw_undriven.sv <<'SV'
module tw_undriven (input logic clk_i, input logic a_i, output logic q_o);
  logic w;
  always_ff @(posedge clk_i) q_o <= a_i ^ w;
endmodule
SV
# a name never declared (Yosys makes it a 1-bit wire)
cat > tw_implicit.sv <<'SV'
module tw_implicit (input logic clk_i, input logic [3:0] a_i, output logic [3:0] q_o);
  assign w = a_i;
  always_ff @(posedge clk_i) q_o <= w;
endmodule
SV
# an unpacked array of packed structs connected to a (flat) port: the port gets nothing
cat > tw_uarr_in.sv <<'SV'
module tw_uarr_leaf (input logic clk_i, input logic [31:0] in_i, output logic [15:0] q_o);
  always_ff @(posedge clk_i) q_o <= in_i[15:0] ^ in_i[31:16];
endmodule
module tw_uarr_in (input logic clk_i, input logic [15:0] a_i, input logic [15:0] b_i, output logic [15:0] q_o);
  tw_pkg::s_t arr [2];
  assign arr[0] = a_i;
  assign arr[1] = b_i;
  tw_uarr_leaf u_leaf (.clk_i, .in_i(arr), .q_o);
endmodule
SV
# elements of an unpacked array of packed structs on output ports: 1 bit wide to Yosys, the
# rest dropped with only a "Resizing cell port" warning
cat > tw_uarr_out.sv <<'SV'
module tw_uarr_src (input logic [15:0] a_i, output tw_pkg::s_t o_o);
  assign o_o = a_i;
endmodule
module tw_uarr_out (input logic clk_i, input logic [15:0] a_i, input logic [15:0] b_i, output logic [15:0] q_o);
  tw_pkg::s_t arr [2];
  tw_uarr_src u0 (.a_i(a_i), .o_o(arr[0]));
  tw_uarr_src u1 (.a_i(b_i), .o_o(arr[1]));
  always_ff @(posedge clk_i) q_o <= arr[0] ^ arr[1];
endmodule
SV
synth() {  # synth TOP [ALLOW-FILE]: the project's synth.sh on pkg.sv + TOP.sv
  SYNTH_OUT=$tmp/out SYNTH_WARN_ALLOW=${2:-$tmp/none.txt} "$root/bitstream-scripts/synth/synth.sh" "$1" pkg.sv "$1.sv" \
    > "$tmp/$1.out" 2>&1
}
synth tw_good; r=$?
why="$(tail -3 "$tmp/tw_good.out" | tr '\n' ' ')"; check synth-warnings-clean-module-passes test $r -eq 0
for t in tw_undriven tw_implicit tw_uarr_in tw_uarr_out; do
  synth $t; r=$?
  why="exit $r: $(tail -3 "$tmp/$t.out" | tr '\n' ' ')"
  check "synth-warnings-fail-${t#tw_}" eval "[ $r -ne 0 ] && grep -q 'FAILED: undriven, implicitly declared or resized' '$tmp/$t.out'"
done
# the allow-list: a reviewed warning with its reason passes, the same line without one fails
printf '%s\n' '# comment' 'tw_undriven\.\\w is used but has no driver # test: reviewed' > "$tmp/allow.txt"
synth tw_undriven "$tmp/allow.txt"; r=$?
why="$(tail -3 "$tmp/tw_undriven.out" | tr '\n' ' ')"; check synth-warnings-allow-list-with-reason-passes test $r -eq 0
printf '%s\n' 'tw_undriven\.\\w is used but has no driver' > "$tmp/allow-noreason.txt"
synth tw_undriven "$tmp/allow-noreason.txt"; r=$?
why="exit $r"; check synth-warnings-allow-list-without-reason-refused eval "[ $r -ne 0 ] && grep -q 'no reason given' '$tmp/tw_undriven.out'"
# the project's own allow-list: every line has its reason
python3 - "$root/bitstream-scripts/synth/warnings-allow.txt" > "$tmp/own.txt" 2>&1 <<'PY'
import sys
for n, l in enumerate(open(sys.argv[1]), 1):
    t = l.strip()
    if t and not t.startswith("#") and not t.partition(" # ")[2].strip():
        print(f"line {n} has no reason"); sys.exit(1)
PY
r=$?; why="$(cat "$tmp/own.txt")"; check synth-warnings-own-allow-list-has-reasons test $r -eq 0
# ... and waives nothing of the RTL's own: the resized struct-array element still fails under it
# (its exception is for upper-case vendor primitive ports only)
synth tw_uarr_out "$root/bitstream-scripts/synth/warnings-allow.txt"; r=$?
why="exit $r: $(tail -3 "$tmp/tw_uarr_out.out" | tr '\n' ' ')"
check synth-warnings-own-allow-list-keeps-uarr-out-failing eval "[ $r -ne 0 ] && grep -q 'FAILED: undriven, implicitly declared or resized' '$tmp/tw_uarr_out.out'"
exit $rc
