#!/usr/bin/env bash
# run-suite.sh NAME CMD...: runs one test suite, keeps its output in build/results/NAME.log.
# A suite reports each check as a line "PASS <name>" or "FAIL <name> <why>". A suite that
# exits non-zero without reporting a FAIL line gets one added, so a crash is never a pass.
set -uo pipefail
name=$1; shift
mkdir -p build/results
log=build/results/$name.log
start=$(date +%s)
"$@" > "$log" 2>&1
rc=$?
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
  echo "FAIL suite-$name exited with code $rc" >> "$log"
fi
if ! grep -qE '^(PASS|FAIL) ' "$log"; then
  echo "FAIL suite-$name reported no test results" >> "$log"
fi
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log")
printf '  %-22s %5d passed %4d failed  (%ds)\n' "$name" "$p" "$f" $(( $(date +%s) - start ))
grep -E '^(FAIL|INFO) ' "$log" | head -40 | sed 's/^/    /'
exit 0
