#!/usr/bin/env bash
# test_tools_sim.sh TOOL RNIC_SIM FW_IMG: rnic-tool against the real simulator device service
# (rnic_sim run, two NICs): every command once through the socket protocol, so the tool and the
# service cannot drift apart. Values the simulation decides (cycles, counters) are not compared;
# names, structure and the firmware's answers are.
set -uo pipefail
TOOL=$(realpath "$1"); SIM=$(realpath "$2"); FWIMG=$(realpath "$3")
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
pass() { echo "PASS $1"; }
bad() { echo "FAIL $1 $2"; fail=1; }
same() {
  if cmp -s "$2" "$3"; then pass "$1"
  else bad "$1" "differs: $(diff "$3" "$2" | grep -m2 '^[<>]' | tr '\n' ' ')"; fi
}
HASH=$(sed -n 's/^#define RNIC_SPEC_HASH 0x\([0-9A-F]*\)u$/\1/p' "$ROOT/spec/include/rnic_spec.h")
NBLK=$(sed -n 's/^#define RNIC_SPEC_NUM_BLOCKS \([0-9]*\)u$/\1/p' "$ROOT/spec/include/rnic_spec_regs.h")
mapfile -t CNT < <(sed -n '/rnic_counter_names\[\]/,/^};/p' "$ROOT/spec/include/rnic_spec.h" | sed -n 's/^\t"\(.*\)",$/\1/p')
mapfile -t BLKS < <(sed -n 's/^\t{ "\([a-z0-9_]*\)", ".*",$/\1/p' "$ROOT/spec/include/rnic_spec_regs.h")
python3 "$HERE/mkimages.py" "$tmp/img" > /dev/null

# One simulator session; each command's stdout, stderr and status land in $tmp/NAME.{out,err,rc}.
cat > "$tmp/inner.sh" <<X
t() { n=\$1; shift; "$TOOL" "\$@" > "$tmp/\$n.out" 2> "$tmp/\$n.err"; echo \$? > "$tmp/\$n.rc"; }
t list --sim list
t regs --sim regs
t counters --sim -d rnic1 counters
t fwlog --sim fwlog
t badimg --sim fw-load "$tmp/img/bad_crc.img"
t reset --sim reset
t fwlog2 --sim fwlog
t load --sim -d rnic1 fw-load "$FWIMG"
t regs1 --sim -d rnic1 regs
X
"$SIM" run --quiet --timeout 300 -- bash "$tmp/inner.sh" > "$tmp/sim.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then pass tools-real-sim-session; else bad tools-real-sim-session "rnic_sim run exit $rc: $(grep -v '^$' "$tmp/sim.log" | tail -2 | tr '\n' ' ')"; fi
ok() { [ -f "$tmp/$1.rc" ] && [ "$(cat "$tmp/$1.rc")" = "$2" ]; }

if ok list 0 && [ "$(grep -cE '^rnic[01]  10ee:5252  simulated NIC [01] of 2 at ' "$tmp/list.out")" -eq 2 ]
then pass tools-real-sim-list; else bad tools-real-sim-list "$(head -c 200 "$tmp/list.out" "$tmp/list.err" 2>&1)"; fi

printf 'rnic0 (simulator): %s register blocks, PCI ID 10ee:5252, hw 1.0, spec hash 0x%s (this tool'"'"'s)\n' "$NBLK" "$HASH" > "$tmp/want"
head -1 "$tmp/regs.out" 2>/dev/null > "$tmp/got"
ok regs 0 && [ ! -s "$tmp/regs.err" ] && same tools-real-sim-regs-summary "$tmp/got" "$tmp/want" || \
  bad tools-real-sim-regs "exit $(cat "$tmp/regs.rc" 2>/dev/null): $(head -c 200 "$tmp/regs.err" 2>/dev/null)"
grep -o '^block [a-z0-9_]*' "$tmp/regs.out" | cut -d' ' -f2 > "$tmp/got"
printf '%s\n' "${BLKS[@]}" > "$tmp/want"; same tools-real-sim-regs-every-block-in-order "$tmp/got" "$tmp/want"
if grep -qE '^  0x224 fw_status +ro +0x00000002  READY$' "$tmp/regs.out" && grep -qE '^  0x214 cpu_status +ro +0x00000003$' "$tmp/regs.out"
then pass tools-real-sim-regs-firmware-ready; else bad tools-real-sim-regs-firmware-ready "$(grep -E 'fw_status|cpu_status' "$tmp/regs.out" | tr '\n' ' ')"; fi

awk '{print $1}' "$tmp/counters.out" > "$tmp/got" 2>/dev/null; printf '%s\n' "${CNT[@]}" > "$tmp/want"
ok counters 0 && same tools-real-sim-counters-named "$tmp/got" "$tmp/want" || bad tools-real-sim-counters-named "exit $(cat "$tmp/counters.rc" 2>/dev/null)"
if ok fwlog 0 && grep -q '^boot ok ' "$tmp/fwlog.out"; then pass tools-real-sim-fwlog
else bad tools-real-sim-fwlog "$(head -c 200 "$tmp/fwlog.out" "$tmp/fwlog.err" 2>&1)"; fi
if ok badimg 1 && grep -q 'refused, nothing written: bad CRC' "$tmp/badimg.err"; then pass tools-real-sim-fw-load-refuses-bad-crc
else bad tools-real-sim-fw-load-refuses-bad-crc "$(head -c 200 "$tmp/badimg.err" 2>/dev/null)"; fi
grep -E '^rnic0 \(simulator\): (soft core held in reset and released|firmware 0x[0-9A-F]{8} READY)$' "$tmp/reset.out" 2>/dev/null | wc -l > "$tmp/got"
if ok reset 0 && [ "$(cat "$tmp/got")" -eq 2 ] && grep -q '^boot ok ' "$tmp/fwlog2.out"; then pass tools-real-sim-reset
else bad tools-real-sim-reset "$(head -c 200 "$tmp/reset.out" "$tmp/reset.err" 2>&1)"; fi
if ok load 0 && grep -qE '^rnic1 \(simulator\): firmware 0x[0-9A-F]{8} READY$' "$tmp/load.out" && \
   grep -qE '^  0x224 fw_status +ro +0x00000002  READY$' "$tmp/regs1.out"
then pass tools-real-sim-fw-load-project-image; else bad tools-real-sim-fw-load-project-image "$(head -c 200 "$tmp/load.out" "$tmp/load.err" 2>&1)"; fi
exit $fail
