#!/usr/bin/env bash
# run-suites.sh: what `make test` runs. Picks the suites of SHARD (all without one), builds what
# they need, then runs them TEST_JOBS at a time (default 2, the machine's cores), longest budget
# first, each through scripts/run-suite.sh (one log and one JUnit file per suite).
#   - Suites whose rules need nothing built (synth, lint, spec) start at once, beside the build:
#     synthesis of rnic_core is the longest suite and needs no compiler, so it overlaps the C++
#     builds; after the build, the longest pending suite takes the next free slot.
#   - The build is one `make -k` of every prerequisite of the chosen suites, so two suites never
#     build the same file at the same time. A failed build is not hidden: the suite that needs it
#     runs its own make again, fails, and reports it (the build log is build/results/build.out).
# Environment (set by the Makefile): MAKE, SHARD (I/N or empty), TEST_JOBS, RESULTS, TEST_NICE.
# On a terminal it shows which suites are running and for how long; in a log (CI) it prints one
# line per finished step and nothing else.
set -uo pipefail
MAKE=${MAKE:-make}
jobs=${TEST_JOBS:-2}
results=${RESULTS:-build/results}
mkdir -p "$results"
mk() { $MAKE --no-print-directory "$@"; }

all=$(mk -s list-suites) || { echo "run-suites: make list-suites failed" >&2; exit 1; }
if [ -n "${SHARD:-}" ]; then
  chosen=$(scripts/shard.sh "$SHARD" <<< "$all") || exit 1
  echo "== shard $SHARD: $(echo $chosen)"
else
  chosen=$(scripts/shard.sh 1/1 <<< "$all")
fi
[ -n "$chosen" ] || { echo "== shard $SHARD has no suites"; exit 0; }

# Prerequisites of each chosen suite's rule (make's own database, so fragments need no list of
# their own), plus SUITE_BUILD_<suite>: what a recipe builds by calling make itself. The
# database is printed for a target that does not exist: asking about test-* instead would run
# every recipe line that calls $(MAKE), as -q and -n do.
db=$(mk -pq __print_database_only__ 2>/dev/null)
extra=$(mk -s print-suite-build SUITES="$chosen")
declare -A needs
build_list=""
for s in $chosen; do
  pre=$(awk -v t="test-$s:" '$1 == t { sub(/^[^:]*:/, ""); sub(/\|.*/, ""); print; exit }' <<< "$db")
  pre="$pre $(awk -v t="$s:" '$1 == t { sub(/^[^:]*:/, ""); print; exit }' <<< "$extra")"
  needs[$s]=$(echo $pre)
  build_list="$build_list $pre"
done
build_list=$(tr ' ' '\n' <<< "$build_list" | awk 'NF && !seen[$0]++' | tr '\n' ' ')

tty=0; [ -t 1 ] && tty=1
declare -A pid_of start_of
running=()
built=0; [ -z "$build_list" ] && built=1
t0=$(date +%s)

# The longest suite (synthesis of rnic_core) bounds the whole run: it keeps its core at normal
# priority while everything else, the build included, runs niced and shares the other core
# (when the build's compilers and two suites want more than the two cores, they wait, not it).
# On a machine busy with other work the niced jobs wait for that too: TEST_NICE=0 turns it off.
crit=$(head -1 <<< "$chosen")
# cpu_secs FILE: the children's user + system seconds from the second line of bash's `times`
cpu_secs() {
  awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%d", n + 0.5 }' "$1" 2>/dev/null
}
start_job() {  # start_job NAME: a suite, or "build"
  local name=$1 nice="nice -n ${TEST_NICE:-10}"
  [ "$name" = "$crit" ] || [ "${TEST_NICE:-10}" = 0 ] && nice=""
  if [ "$name" = build ]; then
    ( s=$(date +%s)
      # CPU seconds of the build too (user + system of make and its compilers, bash's `times`)
      ( $nice $MAKE --no-print-directory -k -j"$jobs" $build_list > "$results/build.out" 2>&1; rc=$?
        times > "$results/build.cpu.tmp"; exit $rc )
      if [ $? -eq 0 ]; then r=ok; else r="FAILED (see $results/build.out)"; fi
      cpu=$(cpu_secs "$results/build.cpu.tmp"); rm -f "$results/build.cpu.tmp"
      printf '  %-22s %s  (%ds, cpu %ss)\n' build "$r" $(( $(date +%s) - s )) "$cpu" > "$results/build.summary" ) &
  else
    $nice scripts/run-suite.sh --quiet "$name" $MAKE --no-print-directory "test-$name" &
  fi
  pid_of[$name]=$!; start_of[$name]=$(date +%s); running+=("$name")
}

finish_done() {  # reaps finished jobs and prints their summary; returns when one finished
  local n still=() any=0
  for n in "${running[@]}"; do
    if kill -0 "${pid_of[$n]}" 2>/dev/null; then still+=("$n"); continue; fi
    wait "${pid_of[$n]}"
    [ $tty -eq 1 ] && printf '\r\033[K'
    if [ "$n" = build ]; then cat "$results/build.summary"; built=1
    else cat "$results/$n.summary"; fi
    any=1
  done
  running=("${still[@]}")
  return $(( any == 0 ))
}

progress() {
  [ $tty -eq 1 ] || return 0
  local now line="" n
  now=$(date +%s)
  for n in "${running[@]}"; do line+="$n $(( now - ${start_of[$n]} ))s, "; done
  printf '\r\033[K  [%ds] running: %s' $(( now - t0 )) "${line%, }"
}

pending=($chosen)   # longest budget first (shard.sh's order)
build_started=0; [ $built -eq 1 ] && build_started=1
while :; do
  # Fill free slots: the build first, then the longest pending suite that can run (one that
  # needs nothing built, or any once the build is done).
  while [ ${#running[@]} -lt "$jobs" ]; do
    if [ $build_started -eq 0 ]; then start_job build; build_started=1; continue; fi
    pick=""; rest=()
    for s in "${pending[@]}"; do
      if [ -z "$pick" ] && { [ $built -eq 1 ] || [ -z "${needs[$s]}" ]; }; then pick=$s; else rest+=("$s"); fi
    done
    [ -n "$pick" ] || break
    pending=("${rest[@]}"); start_job "$pick"
  done
  [ ${#running[@]} -eq 0 ] && break
  until finish_done; do progress; sleep 1; done
done
# the whole run: wall seconds, and CPU seconds of everything it started (scripts/summary.sh)
times > "$results/all.cpu.tmp"
echo "$(( $(date +%s) - t0 )) $(cpu_secs "$results/all.cpu.tmp")" > "$results/all.time"; rm -f "$results/all.cpu.tmp"
exit 0
