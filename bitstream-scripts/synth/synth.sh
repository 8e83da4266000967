#!/usr/bin/env bash
# synth.sh TOP FILES...: Yosys synth_xilinx (UltraScale+) of one top; reports in build/synth/.
set -euo pipefail
top=$1; shift
out=build/synth; mkdir -p "$out"
reads=""
for f in "$@"; do reads+="read_verilog -sv $f; "; done
if ! yosys -q -l "$out/$top.log" -p "${reads} synth_xilinx -flatten -family xcup -top $top; \
     tee -o $out/$top.stat.txt stat; write_json $out/$top.netlist.json" > /dev/null 2>&1; then
  echo "synth $top: FAILED (see $out/$top.log)"; tail -5 "$out/$top.log"; exit 1
fi
python3 "$(dirname "$0")/synth_report.py" "$top" "$out/$top.netlist.json" "$out/$top.json" | tee "$out/$top.summary"
