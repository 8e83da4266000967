#!/usr/bin/env bash
# coverage.sh DIR: merge DIR/parts/*.dat (one per testbench model instance), annotate, and report
# the line coverage of each rtl/roce source. summary.txt = verilator_coverage output + the
# per-file table. Prints INFO lines per file and PASS when the total is >= 90 %.
set -uo pipefail
dir=$1
verilator_coverage --write "$dir/coverage.dat" "$dir"/parts/*.dat > "$dir/merge.log" 2>&1 || {
  echo "FAIL roce_line_coverage merge failed"; cat "$dir/merge.log"; exit 1; }
verilator_coverage --annotate "$dir/annotated" --annotate-min 1 --annotate-all "$dir/coverage.dat" > "$dir/summary.txt" 2>&1 || {
  echo "FAIL roce_line_coverage verilator_coverage failed"; cat "$dir/summary.txt"; exit 1; }
tot=0; hit=0
echo "rtl/roce line coverage (points hit/total; uncovered lines are marked % in annotated/):" >> "$dir/summary.txt"
for f in "$dir"/annotated/roce_*.sv; do
  [ -f "$f" ] || continue
  t=$(grep -cE '^[ %][0-9]{6}' "$f"); m=$(grep -cE '^%[0-9]{6}' "$f")
  [ "$t" -eq 0 ] && continue
  line=$(awk -v n="$(basename "$f")" -v h=$((t - m)) -v t="$t" 'BEGIN { printf "%-16s %4d/%-4d %5.1f %%", n, h, t, 100 * h / t }')
  echo "  $line" >> "$dir/summary.txt"
  echo "INFO coverage $line"
  tot=$((tot + t)); hit=$((hit + t - m))
done
if [ "$tot" -eq 0 ]; then echo "FAIL roce_line_coverage no annotated rtl/roce sources"; exit 1; fi
pct=$(awk -v h=$hit -v t=$tot 'BEGIN { printf "%.1f", 100 * h / t }')
echo "  total            $hit/$tot $pct %" >> "$dir/summary.txt"
if awk -v p="$pct" 'BEGIN { exit !(p >= 90) }'; then
  echo "PASS roce_line_coverage_ge_90pct ($hit/$tot = $pct %)"
else
  echo "FAIL roce_line_coverage_ge_90pct ($hit/$tot = $pct %)"; exit 1
fi
