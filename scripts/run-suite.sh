#!/usr/bin/env bash
# run-suite.sh [--quiet] NAME CMD...: runs one test suite, keeps its output in
# build/results/NAME.log, its JUnit XML in build/results/NAME.xml and its wall and CPU seconds in
# build/results/NAME.time, and prints (or with --quiet only writes to NAME.summary) one line
# "NAME  N passed  N failed  (seconds)" followed by the FAIL lines, each with its rerun command.
# A suite reports each check as a line "PASS <name>" or "FAIL <name> <why>"; a program that knows
# how to rerun a failed check prints "RERUN <command>" after it. A FAIL without one gets
# "RERUN make suite-NAME" (the smallest rerun known). A line "RERUN with waves: ..." right after
# a RERUN line (the same check writing an FST) is shown under it. A suite that exits non-zero without
# reporting a FAIL line gets one added, so a crash is never a pass.
set -uo pipefail
quiet=0; [ "${1:-}" = --quiet ] && { quiet=1; shift; }
name=$1; shift
results=${RESULTS:-build/results}
mkdir -p "$results"
log=$results/$name.log
start=$(date +%s)
# CPU seconds too (user + system of everything the suite ran, from bash's `times`): unlike the
# wall time they do not depend on what else the machine runs.
( "$@" > "$log" 2>&1 < /dev/null; rc=$?; times > "$results/$name.cpu.tmp"; exit $rc )
rc=$?
cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%d", n + 0.5 }' \
  "$results/$name.cpu.tmp" 2>/dev/null); rm -f "$results/$name.cpu.tmp"
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
  echo "FAIL suite-$name exited with code $rc" >> "$log"
fi
if ! grep -qE '^(PASS|FAIL) ' "$log"; then
  echo "FAIL suite-$name reported no test results" >> "$log"
fi
secs=$(( $(date +%s) - start ))
echo "$secs ${cpu:-0}" > "$results/$name.time"
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log")
python3 "$(dirname "$0")/junit.py" "$name" "$log" "$secs" > "$results/$name.xml.tmp" && \
  mv -f "$results/$name.xml.tmp" "$results/$name.xml"
{
  printf '  %-22s %5d passed %4d failed  (%ds, cpu %ds)\n' "$name" "$p" "$f" "$secs" "${cpu:-0}"
  # FAIL lines with the RERUN line that follows each (or the suite's own), and INFO lines.
  awk -v suite="$name" '
    function close_fail() {
      if (open) print "  RERUN make suite-" suite "\n  RERUN with waves: make suite-" suite " WAVES=1"; open = 0 }
    /^FAIL / { close_fail(); print; open = 1; rr = 0; next }
    /^RERUN with waves: / { if (rr) print "  " $0; rr = 0; next }
    /^RERUN / { rr = open; if (open) print "  " $0; open = 0; next }
    /^INFO / { close_fail(); print; next }
    END { close_fail() }' "$log" | head -60 | sed 's/^/    /'
} > "$results/$name.summary"
[ $quiet -eq 1 ] || cat "$results/$name.summary"
exit 0
