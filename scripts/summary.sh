#!/usr/bin/env bash
# Prints each suite's wall time against its budget (docs/development.md, mk/suites.mk), then
# sums the PASS/FAIL lines of every suite log into the one closing line "N passed, N failed"
# (CI reads it); fails if any failed or nothing passed. A suite over its budget is named, not
# failed: the budget is for people to keep, a slow machine must not turn CI red.
set -uo pipefail
results=${RESULTS:-build/results}
budgets=${BUDGETS:-}
p=0; f=0; times=""
for log in "$results"/*.log; do
  [ -e "$log" ] || continue
  n=$(basename "$log" .log)
  p=$(( p + $(grep -c '^PASS ' "$log") )); f=$(( f + $(grep -c '^FAIL ' "$log") ))
  [ -f "$results/$n.time" ] && times+="$n $(cat "$results/$n.time")"$'\n'
done
if [ -n "$times" ]; then
  echo "== suite wall times (budget), CPU seconds"
  sort -k2,2nr <<< "${times%$'\n'}" | while read -r n t c; do
    b=$(awk -v n="$n" '$1 == n { print $2 }' <<< "$budgets")
    over=""; [ -n "$b" ] && [ "$t" -gt "$b" ] && over="  OVER BUDGET"
    printf '  %-22s %5ds  (%ss)  cpu %ss%s\n' "$n" "$t" "${b:-?}" "${c:-?}" "$over"
  done
  [ -f "$results/build.summary" ] && echo "  (and the build of the suites' programs before them: $(grep -o '([0-9]*s.*)' "$results/build.summary" | tr -d '()'))"
  [ -f "$results/all.time" ] && read -r w c < "$results/all.time" && \
    echo "  (all of it: ${w}s wall, cpu ${c}s)"
fi
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
