#!/usr/bin/env bash
# coverage.sh DIR: annotate DIR/coverage.dat (line coverage of rtl/dma), write DIR/summary.txt and
# print "PASS dma_line_coverage_ge_90pct" when >= 90 %, otherwise an INFO line.
set -uo pipefail
dir=$1
verilator_coverage --annotate "$dir/annotated" --annotate-min 1 "$dir/coverage.dat" > "$dir/summary.txt" 2>&1 || {
  echo "FAIL dma_line_coverage verilator_coverage failed"; cat "$dir/summary.txt"; exit 1; }
pct=$(sed -n 's/^Total coverage ([0-9]*\/[0-9]*) \([0-9.]*\)%.*/\1/p' "$dir/summary.txt")
line=$(grep '^Total coverage' "$dir/summary.txt")
echo "INFO rtl/dma $line (annotated sources in $dir/annotated)"
if [ -z "$pct" ]; then echo "FAIL dma_line_coverage no summary"; exit 1; fi
if awk -v p="$pct" 'BEGIN { exit !(p >= 90) }'; then
  echo "PASS dma_line_coverage_ge_90pct ($pct %)"
else
  echo "INFO dma_line_coverage below 90 % ($pct %)"
fi
