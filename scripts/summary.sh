#!/usr/bin/env bash
# Sums the PASS/FAIL lines of every suite log into the one closing line; fails if any failed.
set -uo pipefail
p=0; f=0
for log in build/results/*.log; do
  [ -e "$log" ] || continue
  p=$(( p + $(grep -c '^PASS ' "$log") )); f=$(( f + $(grep -c '^FAIL ' "$log") ))
done
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
