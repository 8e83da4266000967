#!/usr/bin/env bash
# test_synth_report.sh: synth_report.py's depth count and its over-budget listing
# (bitstream-scripts/synth/synth_report.py, TOP.over.txt) on a netlist written here: flops in
# two RTL files, one with a 10-LUT path (two bits), one with a 3-LUT path, a carry cell (zero
# levels) on the deep path and a 9-LUT path to an output port. The deep file's logic sits in an
# instance u_a as flattening leaves it (src = the instance's line | its own line, sorted by name,
# the instance line first): the listing names the file of the logic, not of the instance, and
# leaves the instance line out. No Yosys run: well under 1 s.
set -uo pipefail
rerun="tb/infra/test_synth_report.sh"
. "$(dirname "$0")/checks.sh"
root=$(pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/n.json" <<'PY'
import json, sys
cells, nets, nb = {}, {}, [10]
SITE = "rtl/a/aa_top.sv:5.1-9.2"  # where u_a is instantiated (sorts before rtl/a/deep.sv)
def ua(own):
    return SITE + "|" + own
def bit():
    nb[0] += 1
    return nb[0]
def cell(name, typ, ins, outs, src=""):
    conn, dirs = {}, {}
    for i, b in enumerate(ins):
        conn[f"I{i}"], dirs[f"I{i}"] = [b], "input"
    for i, b in enumerate(outs):
        conn[f"O{i}"], dirs[f"O{i}"] = [b], "output"
    cells[name] = {"type": typ, "connections": conn, "port_directions": dirs,
                   "attributes": {"src": src} if src else {}}
def chain(prefix, start, n, carry_at=None):
    b = start
    for i in range(n):
        o = bit()
        cell(f"{prefix}{i}", "LUT2", [b], [o])
        b = o
        if i == carry_at:
            o = bit()
            cell(f"{prefix}c", "CARRY8", [b], [o], ua("rtl/a/deep.sv:7.1-7.20"))
            nets[f"u_a.{prefix}_sum"] = {"bits": [o], "attributes": {"src": ua("rtl/a/deep.sv:7.1-7.20")}}
            b = o
    return b
# rtl/a/deep.sv: s_q -> 10 LUTs (a carry after the 4th) -> d_q[0], d_q[1]
s = bit(); cell("s_q", "FDRE", [], [s], ua("rtl/a/deep.sv:3.1-3.9"))
nets["u_a.s_q"] = {"bits": [s], "attributes": {"src": ua("rtl/a/deep.sv:2.1-2.9")}}
e = chain("a", s, 10, carry_at=3)
d0, d1 = bit(), bit()
cell("d_q0", "FDRE", [e], [d0], ua("rtl/a/deep.sv:12.1-12.9"))
cell("d_q1", "FDRE", [e], [d1], ua("rtl/a/deep.sv:12.1-12.9"))
nets["u_a.d_q"] = {"bits": [d0, d1], "attributes": {"src": ua("rtl/a/deep.sv:11.1-11.9")}}
# rtl/b/shallow.sv: d_q[0] -> 3 LUTs -> t_q
e2 = chain("b", d0, 3)
t = bit(); cell("t_q", "FDRE", [e2], [t], "rtl/b/shallow.sv:5.1-5.9")
nets["t_q"] = {"bits": [t], "attributes": {"src": "rtl/b/shallow.sv:4.1-4.9"}}
# t_q -> 9 LUTs -> output port out_o
e3 = chain("c", t, 9)
ports = {"out_o": {"direction": "output", "bits": [e3]}}
json.dump({"modules": {"tr_top": {"ports": ports, "cells": cells, "netnames": nets}}},
          open(sys.argv[1], "w"))
PY
rep="$root/bitstream-scripts/synth/synth_report.py"
out=$(python3 "$rep" tr_top "$tmp/n.json" "$tmp/r.json" 2>&1); st=$?
over=$tmp/r.over.txt
why="exit $st: $out"; check synth-report-runs test $st -eq 0 -a -f "$over" -a -f "$tmp/r.path.txt"
why="$(head -3 "$tmp/r.path.txt" 2>/dev/null)"
check synth-report-longest-path-10 grep -q "longest combinational path, 10 LUT levels" "$tmp/r.path.txt"
why="$out"
check synth-report-summary-counts grep -q "endpoints over 8 LUT levels by file: deep 2 (max 10), tr_top 1 (max 9) " <<< "$out"
why="$(cat "$over")"
check synth-report-over-entry grep -qE '^ +10  u_a.d_q  \(2 bits; end FDRE rtl/a/deep.sv:12' "$over"
check synth-report-over-start grep -qE '^ +from FDRE u_a.s_q \[deep\] rtl/a/deep.sv:3' "$over"
check synth-report-over-no-instance-line bash -c "! grep -q aa_top '$over'"
check synth-report-over-sv-lines grep -q 'rtl/a/deep.sv:7.1-7.20' "$over"
check synth-report-over-port grep -qE '^ +9  port out_o  \(1 bits' "$over"
check synth-report-over-leaves-shallow bash -c "! grep -q '^== shallow' '$over'"
# a budget argument: at 2 the 3-LUT path into t_q is over too, and listed after the deeper files
python3 "$rep" --budget 2 tr_top "$tmp/n.json" "$tmp/r2.json" > "$tmp/o2" 2>&1
why="$(cat "$tmp/o2")"
check synth-report-budget-argument grep -q "over 2 LUT levels by file: deep 2 (max 10), tr_top 1 (max 9), shallow 1 (max 3) " "$tmp/o2"
# a budget no path exceeds: "none"
python3 "$rep" --budget 10 tr_top "$tmp/n.json" "$tmp/r3.json" > "$tmp/o3" 2>&1
why="$(cat "$tmp/o3" "$tmp/r3.over.txt")"
check synth-report-none-over bash -c "grep -q 'by file: none' '$tmp/o3' && grep -qx none '$tmp/r3.over.txt'"
exit $rc
