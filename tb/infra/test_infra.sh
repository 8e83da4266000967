#!/usr/bin/env bash
# test_infra.sh SIM_BIN FW_DIR TRAP_DIR: checks of the test machinery itself: shards, JUnit XML,
# rerun lines, the parallel suite runner, the CI workflow and SLURM script, the budget table,
# that the simulator reads the firmware image next to itself (a moved build runs its own), and
# the synthesis cache (tb/infra/test_synth_cache.sh) and the synthesis warning gate
# (tb/infra/test_synth_warnings.sh).
set -uo pipefail
sim=$1; fwdir=$2; trapdir=$3
root=$(pwd)
rerun="make suite-infra"
. "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

suites=$(make -s --no-print-directory list-suites)
names=$(awk '{print $1}' <<< "$suites" | sort)

# ---- shards: for n = 1..5 disjoint, together the full list, none empty while n <= suites -----
for n in 1 2 3 4 5; do
  all=""; ok=1
  for i in $(seq 1 "$n"); do
    part=$(scripts/shard.sh "$i/$n" <<< "$suites") || ok=0
    [ -n "$part" ] || ok=0
    all+="$part"$'\n'
  done
  got=$(awk 'NF' <<< "$all" | sort)
  dups=$(uniq -d <<< "$got")
  why="n=$n: duplicates [$dups], differs from list: $(diff <(echo "$names") <(uniq <<< "$got") | tr '\n' ' ')"
  check "shards-n$n-disjoint-and-cover" test $ok -eq 1 -a -z "$dups" -a "$got" = "$names"
done
# the same input gives the same split (no dependence on order or randomness)
why="order of the suite list changed the split"
check shards-deterministic test "$(scripts/shard.sh 2/3 <<< "$suites")" = "$(tac <<< "$suites" | scripts/shard.sh 2/3)"
bad=0; for s in 0/3 4/3 x 3; do scripts/shard.sh "$s" <<< "$suites" > /dev/null 2>&1 && bad=1; done
why="an invalid SHARD was accepted"; check shards-refuse-bad-spec test $bad -eq 0
# balance: no shard of 2 carries more than the largest suite above half the total budget
tot=$(awk '{s += $2} END {print s}' <<< "$suites"); big=$(awk '$2 > m {m = $2} END {print m}' <<< "$suites")
worst=0; for i in 1 2; do
  b=$(scripts/shard.sh "$i/2" <<< "$suites" | while read -r s; do awk -v s="$s" '$1 == s {print $2}' <<< "$suites"; done | awk '{t += $1} END {print t + 0}')
  [ "$b" -gt "$worst" ] && worst=$b
done
why="largest of 2 shards $worst s, total $tot s, largest suite $big s"
check shards-balanced test "$worst" -le $(( tot / 2 + big ))

# ---- the CI workflow: parses, has a matrix naming shards 1..SHARDS, runs make test SHARD= ----
wf=.github/workflows/ci.yml
out=$(python3 - "$wf" <<'EOF' 2>&1
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
n = int(d["env"]["SHARDS"])
job = d["jobs"]["test"]
shards = job["strategy"]["matrix"]["shard"]
assert shards == list(range(1, n + 1)), f"matrix {shards} is not 1..{n}"
runs = " ".join(s.get("run", "") for s in job["steps"])
assert "make test SHARD=${{ matrix.shard }}/${{ env.SHARDS }}" in runs, "no make test SHARD= step"
assert any("upload-artifact" in s.get("uses", "") for s in job["steps"]), "results not uploaded"
print(n)
EOF
)
why="$out"; check ci-workflow-parses-and-names-every-shard test $? -eq 0 -a -n "$out"

# ---- the SLURM script: bash -n, its array size, and the very same shard lists ---------------
why="$(bash -n scripts/slurm-shards.sh 2>&1)"; check slurm-script-bash-n bash -n scripts/slurm-shards.sh
why="#SBATCH --array is not 1-4 (the default SHARDS)"
check slurm-array-matches-default grep -qx '#SBATCH --array=1-4' scripts/slurm-shards.sh
ok=1
for n in 1 2 3 4 5; do
  want=$(for i in $(seq 1 "$n"); do echo "$i: $(scripts/shard.sh "$i/$n" <<< "$suites" | tr '\n' ' ' | sed 's/ $//')"; done)
  [ "$(scripts/slurm-shards.sh --list "$n")" = "$want" ] || ok=0
done
why="slurm-shards.sh --list differs from scripts/shard.sh"; check slurm-same-shard-lists test $ok -eq 1

# ---- run-suite.sh: JUnit XML of a sample log, counts, messages, RERUN lines ------------------
mkdir -p "$tmp/res"
printf '%s\n' 'PASS a-first' 'INFO noise' 'FAIL b-second value 3 < 4 & "x"' 'RERUN prog --seed 7' \
  'RERUN with waves: WAVES=1 prog --seed 7' \
  'PASS c-third' $'FAIL d-fourth ctrl \x01 char' 'SKIP e-gap' > "$tmp/sample.log"
RESULTS=$tmp/res scripts/run-suite.sh sample cat "$tmp/sample.log" > "$tmp/sum.txt"
out=$(python3 - "$tmp/res/sample.xml" <<'EOF' 2>&1
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
ts = r.find("testsuite")
cases = ts.findall("testcase")
assert ts.get("tests") == "4" and ts.get("failures") == "2", (ts.get("tests"), ts.get("failures"))
assert [c.get("name") for c in cases] == ["a-first", "b-second", "c-third", "d-fourth"]
f = cases[1].find("failure")
assert f.get("message") == 'value 3 < 4 & "x"', f.get("message")
assert f.text == "RERUN prog --seed 7\nRERUN with waves: WAVES=1 prog --seed 7", f.text
assert cases[3].find("failure").text == "RERUN make suite-sample\nRERUN with waves: make suite-sample WAVES=1"
assert cases[0].find("failure") is None
EOF
)
why="$out"; check junit-xml-well-formed-and-counts-match test $? -eq 0
why="$(cat "$tmp/sum.txt")"
check run-suite-shows-rerun-next-to-fail grep -q -- '^ *RERUN prog --seed 7$' "$tmp/sum.txt"
check run-suite-fallback-rerun grep -q -- '^ *RERUN make suite-sample$' "$tmp/sum.txt"
check run-suite-shows-waves-rerun grep -q -- '^ *RERUN with waves: WAVES=1 prog --seed 7$' "$tmp/sum.txt"
check run-suite-fallback-waves-rerun grep -q -- '^ *RERUN with waves: make suite-sample WAVES=1$' "$tmp/sum.txt"
RESULTS=$tmp/res scripts/run-suite.sh crash sh -c 'echo PASS x; exit 3' > /dev/null
why="$(cat "$tmp/res/crash.log")"; check run-suite-crash-is-a-failure grep -q '^FAIL suite-crash exited with code 3' "$tmp/res/crash.log"

# ---- a C++ testbench prints its own command line, quoted, as RERUN after a FAIL ------------
cat > "$tmp/rr.cpp" <<'EOF'
#include "tb_check.h"
int main() { TbResults r; r.check(true, "ok"); r.check(false, "bad", "why %d", 1); return r.exit_code(); }
EOF
if g++ -std=c++17 -I"$root/tb/common" "$tmp/rr.cpp" -o "$tmp/rr" 2> "$tmp/rr.err"; then
  out=$("$tmp/rr" --seed 5 'two words' "it's" 2>&1)
  line=$(sed -n '/^RERUN with waves: /d; s/^RERUN //p' <<< "$out")
  wline=$(sed -n 's/^RERUN with waves: //p' <<< "$out")
  # the printed command, run by a shell, gets the same arguments back
  got=$(eval "set -- $line"; printf '%s|' "$@")
  why="output [$out], reparsed [$got]"
  check tb-rerun-line-is-the-exact-command test "$got" = "$tmp/rr|--seed|5|two words|it's|"
  check tb-rerun-waves-line test "$wline" = "WAVES=1 $line"
else why="$(head -3 "$tmp/rr.err")"; check tb-rerun-line-is-the-exact-command false; fi

# ---- run-suites.sh: a fake project; suites run two at a time after one build, one log each ---
fk=$tmp/fake; mkdir -p "$fk"; ln -s "$root/scripts" "$fk/scripts"
cat > "$fk/Makefile" <<'EOF'
SHELL := /bin/bash
TEST_SUITES := alpha beta gamma
list-suites: ; @printf 'alpha 30\nbeta 20\ngamma 10\n'
print-suite-build: ; @true
out/prog: ; @mkdir -p out; sleep 1; echo built >> out/builds; touch $@
noop: ; @true
test-alpha: ; @mkdir -p out; echo run >> out/alpha.runs; $(MAKE) -s noop; date +%s.%N > out/alpha.start; sleep 4; date +%s.%N > out/alpha.end; echo PASS alpha-1
test-beta: out/prog ; @date +%s.%N > out/beta.start; sleep 2; echo PASS beta-1; echo FAIL beta-2 broken
test-gamma: out/prog ; @sleep 1; echo PASS gamma-1
EOF
( cd "$fk" && MAKE=make SHARD= TEST_JOBS=2 RESULTS=out/results scripts/run-suites.sh > out.txt 2>&1 &&
  BUDGETS="$(make -s list-suites)" RESULTS=out/results scripts/summary.sh >> out.txt 2>&1 )
last=$(tail -1 "$fk/out.txt")
why="$(tr '\n' '|' < "$fk/out.txt")"
check run-suites-final-line test "$last" = "3 passed, 1 failed"
check run-suites-one-log-and-xml-per-suite test -f "$fk/out/results/alpha.xml" -a -f "$fk/out/results/beta.log" -a -f "$fk/out/results/gamma.xml"
check run-suites-builds-once test "$(cat "$fk/out/builds" 2>/dev/null)" = built
# a suite whose recipe calls $(MAKE) runs once: finding prerequisites must not run recipes
why="alpha ran $(wc -l < "$fk/out/alpha.runs" 2>/dev/null) times"
check run-suites-finding-prerequisites-runs-nothing test "$(cat "$fk/out/alpha.runs" 2>/dev/null)" = run
# alpha needs no build and starts at once, beside the build; beta starts after the build, while
# alpha still runs
a=$(cat "$fk/out/alpha.end" 2>/dev/null || echo 0); b=$(cat "$fk/out/beta.start" 2>/dev/null || echo 9e9)
why="alpha ended at $a, beta started at $b"
check run-suites-runs-in-parallel python3 -c "import sys; sys.exit(0 if float('$b') < float('$a') else 1)"
why="$(tr '\n' '|' < "$fk/out.txt")"
check run-suites-prints-times grep -qE '^ +alpha +[0-9]+s +\(30s\)' "$fk/out.txt"
( cd "$fk" && rm -rf out && MAKE=make SHARD=2/2 RESULTS=out/results scripts/run-suites.sh > out2.txt 2>&1 )
why="$(ls "$fk/out/results" 2>&1 | tr '\n' ' ')"
check run-suites-shard-runs-only-its-suites test -f "$fk/out/results/beta.log" -a -f "$fk/out/results/gamma.log" -a ! -e "$fk/out/results/alpha.log"

# ---- every suite has its budget in docs/development.md, the same as make's ------------------
doc=$(awk -F'|' '/^\| *`[a-z0-9_-]+` *\| *[0-9]+ *\|/ { gsub(/[ `]/, "", $2); gsub(/ /, "", $3); print $2, $3 }' docs/development.md | sort)
why="$(diff <(sort <<< "$suites") <(echo "$doc") | tr '\n' ' ')"
check budgets-documented test "$(sort <<< "$suites")" = "$doc"

# ---- relocatable: a copy of the simulator runs the image next to it, not the tree's ----------
if [ -x "$sim" ]; then
  why="$(strings "$sim" | grep -m1 'firmware/imem.hex')"
  check sim-binary-has-no-image-path bash -c "! strings '$sim' | grep -q 'firmware/imem.hex'"
  mkdir -p "$tmp/moved/fw" "$tmp/trapped/fw" "$tmp/bare"
  cp "$sim" "$tmp/moved/"; cp "$fwdir/imem.hex" "$fwdir/dmem.hex" "$tmp/moved/fw/"
  cp "$sim" "$tmp/trapped/"; cp "$trapdir/imem.hex" "$trapdir/dmem.hex" "$tmp/trapped/fw/"
  cp "$sim" "$tmp/bare/"
  # run from another directory: the image is found from the binary, not the working directory
  out=$(cd "$tmp" && "$tmp/moved/rnic_sim" test-fw "$root/$fwdir/fw.img" "$root/$trapdir/fw.img" 2>&1); r1=$?
  why="$(grep -m3 '^FAIL' <<< "$out")"; check sim-moved-runs-its-image test $r1 -eq 0
  # the same binary next to the trap image boots that one: the baked-in image check fails
  out=$(cd "$tmp" && "$tmp/trapped/rnic_sim" test-fw "$root/$fwdir/fw.img" "$root/$trapdir/fw.img" 2>&1); r2=$?
  why="exit $r2, $(grep -m2 '^FAIL' <<< "$out")"; check sim-copy-next-to-other-image-runs-that-one test $r2 -ne 0
  out=$(cd "$tmp" && "$tmp/bare/rnic_sim" test-bar0 2>&1); r3=$?
  why="exit $r3: $out"
  check sim-without-image-refuses-to-run bash -c "[ $r3 -eq 2 ] && grep -q 'firmware image' <<< \"\$0\"" "$out"
  out=$(cd "$tmp" && RNIC_FW_DIR="$root/$fwdir" "$tmp/bare/rnic_sim" test-fw "$root/$fwdir/fw.img" "$root/$trapdir/fw.img" 2>&1); r4=$?
  why="$(grep -m3 '^FAIL' <<< "$out")"; check sim-rnic-fw-dir-overrides test $r4 -eq 0
else
  fail sim-relocatable "no simulator binary at $sim"
fi

# ---- the synthesis cache: its key follows every input, a hit gates, a stale record re-runs --
tb/infra/test_synth_cache.sh || rc=1
# ---- the synthesis flow fails on the Yosys warnings that mean a wrong netlist -----------------
tb/infra/test_synth_warnings.sh || rc=1
# ---- synth_report.py: LUT levels and the over-budget listing, on a netlist made here ----------
tb/infra/test_synth_report.sh || rc=1
exit $rc
