#!/usr/bin/env bash
# coverage.sh DIR: annotate DIR/coverage.dat and report the line coverage of rtl/xport_rx and rtl/qp_table only
# (the model also holds mkey_table and dma_engine). Prints INFO lines; PASS when >= 90 %.
set -uo pipefail
dir=$1
verilator_coverage --annotate "$dir/annotated" --annotate-min 1 --annotate-all "$dir/coverage.dat" > "$dir/summary.txt" 2>&1 || {
  echo "FAIL xport_rx_line_coverage verilator_coverage failed"; cat "$dir/summary.txt"; exit 1; }
tot=0; hit=0
for f in "$dir"/annotated/*xport_rx*.sv "$dir"/annotated/*qp_table*.sv; do
  [ -f "$f" ] || continue
  t=$(grep -cE '^[ %][0-9]{6}' "$f"); m=$(grep -cE '^%[0-9]{6}' "$f")
  echo "INFO $(basename "$f"): $((t - m))/$t coverage points hit"
  tot=$((tot + t)); hit=$((hit + t - m))
done
if [ "$tot" -eq 0 ]; then echo "FAIL xport_rx_line_coverage no annotated rtl/xport_rx sources"; exit 1; fi
pct=$(awk -v h=$hit -v t=$tot 'BEGIN { printf "%.1f", 100 * h / t }')
if awk -v p="$pct" 'BEGIN { exit !(p >= 90) }'; then
  echo "PASS xport_rx_line_coverage_ge_90pct ($hit/$tot = $pct %)"
else
  echo "INFO xport_rx line coverage below 90 % ($hit/$tot = $pct %)"
fi
