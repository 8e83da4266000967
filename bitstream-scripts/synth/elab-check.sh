#!/usr/bin/env bash
# elab-check.sh "TOP..." FILES...: the CI-time check of standalone block tops (suite synth-blocks).
# One Yosys run reads the RTL once (check yosys-parse-all-rtl: every file parses), then elaborates
# each TOP with its default parameters (hierarchy -check, proc, flatten, check) and fails a top on
# the same warnings synth.sh fails on (yosys_warnings.py): a wire used without a driver, an
# implicitly declared identifier, a port connected at another width. Prints PASS/FAIL per top and its
# RTL-level cell counts as INFO lines.
# Why not synth_xilinx: these tops are inside rnic_core (with the core's parameters), which suite
# synth maps in full; mapping them again at their defaults cost ~220 CPU s of make test's 15
# minutes. Their mapped figures (LUT, FF, RAM, LUT levels) come from make synth and from
# make test-long (suite synth-blocks-long: synth.sh of each, as this suite did before).
set -uo pipefail
tops=$1; shift
out=build/synth; mkdir -p "$out"
log=$out/elab.log
script=""
for f in "$@"; do script+="read_verilog -sv $f; "; done
script+="design -save rtl; "
for t in $tops; do
  # the markers split the log per top; what comes before the first one (reading) counts for all
  script+="log === elab $t ===; design -load rtl; hierarchy -check -top $t; proc; flatten; opt_clean; check; "
  script+="tee -q -o $out/$t.elab.stat.txt stat; "
done
script+="log === elab end ==="
yosys -q -l "$log" -p "$script" > /dev/null 2>&1; yrc=$?
# reading every file is the first step (it was suite lint's own Yosys run before): the first
# marker is logged only once all of them parsed
if grep -q '^=== elab ' "$log"; then echo "PASS yosys-parse-all-rtl"
else echo "FAIL yosys-parse-all-rtl"; echo "RERUN make test-synth-blocks"; tail -5 "$log" | sed 's/^/INFO /'; exit 1; fi
if [ $yrc -ne 0 ]; then
  # a top that does not elaborate: the last marker before the error names it
  bad=$(grep -o '^=== elab [^ ]* ===' "$log" | tail -1 | awk '{print $3}')
  for t in $tops; do
    if [ "$t" = "$bad" ]; then echo "FAIL elab-$t see $log"; echo "RERUN make synth-$t"; tail -5 "$log" | sed 's/^/INFO /'
    elif [ -f "$out/$t.elab.stat.txt" ] && [ "$t" != "$bad" ]; then echo "INFO elab-$t not judged: Yosys stopped at $bad"; fi
  done
  exit 1
fi
rc=0
here=$(dirname "$0")
for t in $tops; do
  awk -v t="$t" '/^=== elab / { cur = $3; next } cur == "" || cur == t' "$log" \
    | python3 "$here/yosys_warnings.py" - > "$out/$t.elab.undriven.txt"
  if [ -s "$out/$t.elab.undriven.txt" ]; then
    echo "FAIL elab-$t undriven, implicitly declared or resized signals (Yosys warnings)"; echo "RERUN make synth-$t"
    head -20 "$out/$t.elab.undriven.txt" | sed 's/^/INFO /'; rc=1
  else
    echo "PASS elab-$t"
  fi
  # the top's totals: cells, flip-flop bits and memories before technology mapping
  awk -v t="$t" '
    /Number of cells:/ { cells = $4 }
    /Number of memories:/ { mems = $4 }
    /Number of memory bits:/ { mbits = $5 }
    $1 ~ /^\$.*dff/ { ff += $2 }
    END { printf "INFO elab-%s: %d cells, %d flip-flop cells, %d memories (%d bits) before mapping\n", t, cells, ff, mems, mbits }' \
    "$out/$t.elab.stat.txt"
done
exit $rc
