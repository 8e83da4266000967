#!/usr/bin/env bash
# test_waves.sh RNIC_SIM WAVES_RNIC_SIM GTKW OUTDIR [long]: waveforms on demand (issue 11).
# RNIC_SIM is the normal build, WAVES_RNIC_SIM the trace build (make WAVES=1). Checks that the
# trace build writes one FST per node inside the --waves-from/--waves-to window, that fst2vcd
# reads it and that every signal of the GTKWave save file is in it and the groups toggle under
# RDMA traffic (tb/sim/waves_check.py), that tracing changes no behaviour (port trace hashes and
# results equal to the normal build's), that the normal build asked for waves runs the trace
# build itself, and that bad window options are refused. "long": a lossy RDMA run
# traced for 1.5 ms, and a block testbench (the soft core) asked for waves.
set -uo pipefail
sim=$(realpath "$1") wsim=$(realpath "$2") gtkw=$3 out=$4 long=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
rc=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 ${*:2}"; echo "RERUN tb/sim/test_waves.sh $sim $wsim $gtkw $out $long"; rc=1; }
check() { local n=$1; shift; if "$@" > /dev/null 2>&1; then pass "$n"; else fail "$n" "${why:-}"; fi; why=""; }
rm -rf "$out"; mkdir -p "$out"

# 1. RDMA between two nodes, traced from 640 to 700 us (where test-rdma 1 moves its data).
RNIC_TRACE_HASH=1 "$sim" test-rdma 1 > "$out/plain.log" 2>&1; prc=$?
RNIC_TRACE_HASH=1 "$wsim" test-rdma 1 --waves "$out/rdma.fst" --waves-from 640us --waves-to 0.7ms \
  > "$out/waves.log" 2>&1; wrc=$?
why="exit codes $prc / $wrc, see $out/plain.log, $out/waves.log"
check waves-run-passes test $prc -eq 0 -a $wrc -eq 0
h1=$(grep 'port trace hash' "$out/plain.log"); h2=$(grep 'port trace hash' "$out/waves.log")
why="normal [$h1] trace build [$h2]"
check waves-same-port-trace-as-normal-build test -n "$h1" -a "$h1" = "$h2"
why="results differ"
check waves-same-results-as-normal-build cmp <(grep -E '^(PASS|FAIL)' "$out/plain.log") <(grep -E '^(PASS|FAIL)' "$out/waves.log")
why="$(grep 'INFO waves' "$out/waves.log")"
check waves-one-fst-per-node test -s "$out/rdma.fst" -a -s "$out/rdma.1-nic1.fst"
if fst2vcd "$out/rdma.fst" > "$out/rdma.vcd" 2> "$out/fst2vcd.err"; then
  pass waves-fst2vcd-reads-it
  # BAR0 carries set-up and commands, not the RDMA window (doorbells use the doorbell BAR):
  # its group is checked on the test-bar0 trace below
  python3 "$here/waves_check.py" --skip=BAR0 "$out/rdma.vcd" "$gtkw" 640000000 700000000 || rc=1
else fail waves-fst2vcd-reads-it "$(head -3 "$out/fst2vcd.err")"; fi
rm -f "$out/rdma.vcd"

# 2. The normal build does not trace: asked for waves it builds and runs the trace build.
"$sim" test-bar0 > "$out/bar0-plain.log" 2>&1
why="$(grep -i waves "$out/bar0-plain.log")"
check waves-normal-build-writes-nothing test -z "$(ls "$out" | grep bar0.fst)" -a -z "$why"
"$sim" test-bar0 --waves "$out/bar0.fst" --waves-to 4us > "$out/bar0.log" 2>&1; brc=$?
why="exit $brc: $(grep -E 'waves|FAIL' "$out/bar0.log" | head -3)"
check waves-normal-build-runs-trace-build test $brc -eq 0 -a -s "$out/bar0.fst"
if fst2vcd "$out/bar0.fst" > "$out/bar0.vcd" 2> "$out/fst2vcd-bar0.err"; then
  python3 "$here/waves_check.py" --only=BAR0 "$out/bar0.vcd" "$gtkw" || rc=1
else fail waves-toggle-bar0-axilite "fst2vcd: $(head -3 "$out/fst2vcd-bar0.err")"; fi
rm -f "$out/bar0.vcd"
(cd "$out" && WAVES=1 WAVES_DIR=wdir "$wsim" test-bar0 --waves-to 1us > bar0-env.log 2>&1)
why="$(ls "$out/wdir" 2>&1)"
check waves-env-default-name test -s "$out/wdir/sim-rnic_sim_test-bar0.fst"
"$wsim" test-bar0 --waves "$out/x.fst" --waves-from soon > "$out/bad.log" 2>&1; xrc=$?
why="exit $xrc"
check waves-bad-window-refused test $xrc -eq 2 -a ! -e "$out/x.fst"

# 3. Long form: 1.5 ms of a lossy run (about 1 GB of VCD); a block testbench (rv_cpu) asked for waves.
if [ "$long" = long ]; then
  "$wsim" test-rdma 4 0.05 0.05 0.05 0.05 --waves "$out/lossy.fst" --waves-to 1.5ms > "$out/lossy.log" 2>&1; lrc=$?
  if [ $lrc -eq 0 ] && fst2vcd "$out/lossy.fst" > "$out/lossy.vcd" 2>/dev/null; then
    pass waves-long-lossy-run
    python3 "$here/waves_check.py" "$out/lossy.vcd" "$gtkw" | sed 's/^\(PASS\|FAIL\) waves-/\1 waves-long-/' 
    [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  else fail waves-long-lossy-run "exit $lrc"; fi
  rm -f "$out/lossy.vcd"
  root=$(cd "$here/../.." && pwd)
  make -s -C "$root" --no-print-directory build/cpu/obj/Vrv_cpu build/cpu/fw/isa.elf > "$out/cpu-build.log" 2>&1
  WAVES="$out/cpu.fst" "$root/build/cpu/obj/Vrv_cpu" elf "$root/build/cpu/fw/isa.elf" > "$out/cpu.log" 2>&1; crc=$?
  if [ $crc -eq 0 ] && fst2vcd "$out/cpu.fst" > "$out/cpu.vcd" 2>/dev/null; then
    id=$(awk '$5=="ret_pc_o" {print $4; exit}' "$out/cpu.vcd")
    n=$(grep -c "^b[01]* $id\$" "$out/cpu.vcd")
    why="ret_pc_o changed $n times"
    check waves-long-block-testbench test "$n" -gt 100
  else fail waves-long-block-testbench "exit $crc, $(tail -3 "$out/cpu.log")"; fi
fi
exit $rc
