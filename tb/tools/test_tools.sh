#!/usr/bin/env bash
# test_tools.sh TOOL FAKE_SIM [FW_IMG]: the board tool's tests, one "PASS name" or "FAIL name why" line
# per check. (a) PCI enumeration and BAR0 mapping through libpciaccess against a fake sysfs tree
# in a private mount namespace (fake_sysfs.sh; SKIP when no namespace can be made), (b) every
# command through the simulator socket protocol against fake_sim, outputs compared byte for
# byte where they are deterministic, (c) bad arguments.
set -uo pipefail
TOOL=$(realpath "$1"); FAKE=$(realpath "$2"); FWIMG=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
tmp=$(mktemp -d); pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/check_lib.sh"
start_fake() { # start_fake NAME ARGS...: a fake service at $tmp/NAME.sock, writes in $tmp/NAME.journal
  local name=$1; shift
  "$FAKE" --sock "$tmp/$name.sock" --journal "$tmp/$name.journal" "$@" &
  pids+=($!)
  for _ in $(seq 50); do [ -S "$tmp/$name.sock" ] && return 0; sleep 0.1; done
  bad "tools-fake-$name-started" "no socket"; return 1
}

# The spec's facts the expected texts need, read from the generated headers.
HASH=$(sed -n 's/^#define RNIC_SPEC_HASH 0x\([0-9A-F]*\)u$/\1/p' "$ROOT/spec/include/rnic_spec.h")
NBLK=$(sed -n 's/^#define RNIC_SPEC_NUM_BLOCKS \([0-9]*\)u$/\1/p' "$ROOT/spec/include/rnic_spec_regs.h")
mapfile -t CNT < <(sed -n '/rnic_counter_names\[\]/,/^};/p' "$ROOT/spec/include/rnic_spec.h" | sed -n 's/^\t"\(.*\)",$/\1/p')
mapfile -t BLKS < <(sed -n 's/^\t{ "\([a-z0-9_]*\)", ".*",$/\1/p' "$ROOT/spec/include/rnic_spec_regs.h")
NREGS=$(grep -cP '^\t\{ "[a-z0-9_]+", ".*", 0x[0-9A-F]+u, RNIC_SPEC_' "$ROOT/spec/include/rnic_spec_regs.h")
# fake_sim's counter k holds 1000 k + 1
for i in "${!CNT[@]}"; do printf '%-20s %10u\n' "${CNT[$i]}" $((1000 * i + 1)); done > "$tmp/counters.want"
printf 'boot ok 0x00010002 core 0\n' > "$tmp/fwlog.want"

# ---- (c) bad arguments ----------------------------------------------------------------------
usage_case() { # usage_case NAME REASON ARGS...
  local name=$1 why=$2; shift 2
  run env -u RNIC_SIM_SOCK "$TOOL" "$@"
  if [ "$rc" -eq 2 ] && grep -qxF "rnic-tool: $why" "$tmp/err" && grep -q '^usage: rnic-tool' "$tmp/err" && [ ! -s "$tmp/out" ]
  then pass "tools-usage-$name"; else bad "tools-usage-$name" "exit $rc: $(head -c 160 "$tmp/err")"; fi
}
usage_case no-command "no command given"
usage_case unknown-command "unknown command 'frob'" frob
usage_case unknown-option "unknown option '--bogus'" --bogus list
usage_case fw-load-no-file "fw-load needs exactly one FILE" fw-load
usage_case fw-load-two-files "fw-load needs exactly one FILE" fw-load a b
usage_case extra-argument "regs takes no argument" regs extra
usage_case bad-timeout "bad timeout 'abc' (whole seconds, 1 to 86400)" -t abc regs
usage_case slot-missing "-s needs a SLOT" regs -s
usage_case slot-and-sim "-s (a PCI slot) and --sim exclude each other" -s 0000:03:00.0 --sim /nowhere regs
usage_case sim-no-path "--sim needs a PATH or \$RNIC_SIM_SOCK" --sim regs
usage_case dev-without-sim "-d names a simulated NIC: it needs --sim" -d rnic1 regs
run "$TOOL" --help
if [ "$rc" -eq 0 ] && head -1 "$tmp/out" | grep -q '^usage: rnic-tool' && \
   [ "$(grep -cE '^  (list|regs|counters|fwlog|fw-load FILE|reset) ' "$tmp/out")" -eq 6 ]
then pass "tools-usage-help"; else bad "tools-usage-help" "exit $rc"; fi

# ---- (b) every command against a fake simulator service --------------------------------------
start_fake a --nics 2 || exit 1
S="$tmp/a.sock"
run "$TOOL" --sim "$S" list
printf 'rnic0  10ee:5252  simulated NIC 0 of 2 at %s\nrnic1  10ee:5252  simulated NIC 1 of 2 at %s\n' "$S" "$S" > "$tmp/want"
[ "$rc" -eq 0 ] && same tools-sim-list "$tmp/out" "$tmp/want" || bad tools-sim-list "exit $rc"

run env RNIC_SIM_SOCK="$S" "$TOOL" --sim regs
cp "$tmp/out" "$tmp/regs_sim.txt"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then pass tools-sim-regs-runs; else bad tools-sim-regs-runs "exit $rc: $(head -c 200 "$tmp/err")"; fi
printf 'rnic0 (simulator): %s register blocks, PCI ID 10ee:5252, hw 1.0, spec hash 0x%s (this tool'"'"'s)\n' "$NBLK" "$HASH" > "$tmp/want"
head -1 "$tmp/out" > "$tmp/got"; same tools-sim-regs-summary "$tmp/got" "$tmp/want"
# the chain in the spec's order, every register and counter once
grep -o '^block [a-z0-9_]*' "$tmp/out" | cut -d' ' -f2 > "$tmp/got"
printf '%s\n' "${BLKS[@]}" > "$tmp/want"; same tools-sim-regs-every-block-in-order "$tmp/got" "$tmp/want"
n=$(grep -c '^  0x' "$tmp/out")
if [ "$n" -eq $((NREGS + ${#CNT[@]})) ]; then pass tools-sim-regs-every-register
else bad tools-sim-regs-every-register "$n register lines, want $NREGS registers + ${#CNT[@]} counters"; fi
# the cpu block decoded: fields from the register docs, the fw_status enum
sed -n '/^block cpu /,/^$/p' "$tmp/out" > "$tmp/got"
cat > "$tmp/want" <<'X'
block cpu at 0x200: type 0x52435055 'RCPU', version 0x00010000
  0x210 cpu_control          rw    0x00000000
        [0] hold all soft cores in reset: 0
  0x214 cpu_status           ro    0x00000003
        [0] running: 1
        [1] image accepted: 1
        [2] image refused: 0
        [3] panicked: 0
  0x218 window_base          const 0x00100000
  0x21C window_size          const 0x00100000
  0x220 fw_version           ro    0x00010002
  0x224 fw_status            ro    0x00000002  READY
  0x228 log_base             ro    0x10000100
  0x22C log_head             ro    0x0000001A
  0x230 heartbeat            ro    0x00001092
  0x234 panic_mcause         ro    0x00000000
  0x238 panic_mepc           ro    0x00000000
  0x23C panic_mtval          ro    0x00000000
  0x240 log_size             ro    0x00000100

X
same tools-sim-regs-cpu-block-decoded "$tmp/got" "$tmp/want"
grep -E '^  0x028 caps ' "$tmp/out" > "$tmp/got"
echo '  0x028 caps                 ro    0x0000003F  RC UD ATOMICS BLUEFLAME MSIX FW_LOAD' > "$tmp/want"
same tools-sim-regs-caps-bits-named "$tmp/got" "$tmp/want"
grep -E '^  0x640 ' "$tmp/out" > "$tmp/got"
printf '  0x640 %-20s ro    0x00000001  1\n' "${CNT[0]}" > "$tmp/want"
same tools-sim-regs-counters-named "$tmp/got" "$tmp/want"
run "$TOOL" --sim "$S" -v regs
if [ "$rc" -eq 0 ] && grep -qxF '        firmware boot status: see fw_status enum' "$tmp/out"
then pass tools-sim-regs-verbose-docs; else bad tools-sim-regs-verbose-docs "exit $rc"; fi

run "$TOOL" --sim "$S" counters
[ "$rc" -eq 0 ] && same tools-sim-counters "$tmp/out" "$tmp/counters.want" || bad tools-sim-counters "exit $rc"
run "$TOOL" --sim "$S" fwlog
[ "$rc" -eq 0 ] && same tools-sim-fwlog "$tmp/out" "$tmp/fwlog.want" || bad tools-sim-fwlog "exit $rc"
if [ ! -s "$tmp/a.journal" ]; then pass tools-sim-reading-writes-nothing
else bad tools-sim-reading-writes-nothing "$(head -2 "$tmp/a.journal" | tr '\n' ' ')"; fi

# fw-load: every bad image refused before any write, the firmware untouched
python3 "$HERE/mkimages.py" "$tmp/img" > "$tmp/crc"
for f in "$tmp"/img/*.img; do
  name=$(basename "$f" .img); [ "$name" = good ] && continue
  run "$TOOL" --sim "$S" fw-load "$f"
  expect "tools-sim-fw-load-refuses-$name" 1 "rnic-tool: $f: refused, nothing written: $(cat "$tmp/img/$name.why")"
done
run "$TOOL" --sim "$S" fw-load "$tmp/img/missing.img"
expect tools-sim-fw-load-refuses-missing-file 1 "rnic-tool: $tmp/img/missing.img: No such file or directory"
if [ ! -s "$tmp/a.journal" ]; then pass tools-sim-fw-load-refused-wrote-nothing
else bad tools-sim-fw-load-refused-wrote-nothing "$(head -2 "$tmp/a.journal" | tr '\n' ' ')"; fi
run "$TOOL" --sim "$S" fwlog
[ "$rc" -eq 0 ] && same tools-sim-fw-load-refused-firmware-untouched "$tmp/out" "$tmp/fwlog.want" || \
  bad tools-sim-fw-load-refused-firmware-untouched "exit $rc"

# fw-load of a good image: hold, IMEM, DMEM, release, then the new firmware's boot line
run "$TOOL" --sim "$S" fw-load "$tmp/img/good.img"
printf 'rnic0 (simulator): loading %s: version 0x00020001, IMEM 256 bytes (CRC 0x%s), DMEM 64 bytes\nrnic0 (simulator): firmware 0x00020001 READY\n' \
  "$tmp/img/good.img" "$(cat "$tmp/crc")" > "$tmp/want"
[ "$rc" -eq 0 ] && same tools-sim-fw-load-good "$tmp/out" "$tmp/want" || bad tools-sim-fw-load-good "exit $rc: $(head -c 200 "$tmp/err")"
# hold, then (rnic_fw_load) no command queue, no event queue, no watchdog for the new image
reg() { printf '0x%06X' "$(sed -n "s/^#define RNIC_REG_$1 0x\([0-9A-F]*\)u$/0x\1/p" "$ROOT/spec/include/rnic_spec.h")"; }
{ echo "W 0x000210 0x00000001"
  for r in CMDQ_CMDQ_LOG_SIZE CMDQ_CMDQ_PROD EQ_EQ_LOG_SIZE CTRL_WDOG_TIMEOUT; do echo "W $(reg $r) 0x00000000"; done
  python3 - "$tmp/img/good.img" <<'X'
import struct, sys
d = open(sys.argv[1], "rb").read()
imem, dmem = struct.unpack_from("<II", d, 8)
for base, start, n in ((0x100000, 32, imem), (0x180000, 32 + imem, dmem)):
    for i in range(0, n, 4):
        print(f"W 0x{base + i:06X} 0x{struct.unpack_from('<I', d, start + i)[0]:08X}")
X
echo "W 0x000210 0x00000000"; } > "$tmp/want"
same tools-sim-fw-load-writes-hold-imem-dmem-release "$tmp/a.journal" "$tmp/want"
run "$TOOL" --sim "$S" fwlog
printf 'boot ok 0x00020001 core 0\n' > "$tmp/want"; same tools-sim-fw-load-new-firmware-runs "$tmp/out" "$tmp/want"

# the project's firmware image as firmware/tools/mkimage.py makes it
if [ -n "$FWIMG" ] && start_fake proj; then
  run "$TOOL" --sim "$tmp/proj.sock" fw-load "$FWIMG"
  if [ "$rc" -eq 0 ] && grep -q '^rnic0 (simulator): firmware 0x[0-9A-F]* READY$' "$tmp/out"
  then pass tools-sim-fw-load-project-image; else bad tools-sim-fw-load-project-image "exit $rc: $(head -c 200 "$tmp/err")"; fi
fi

# reset on the second NIC
: > "$tmp/a.journal.before"; cp "$tmp/a.journal" "$tmp/a.journal.before"
run "$TOOL" --sim "$S" -d rnic1 reset
printf 'rnic1 (simulator): soft core held in reset and released\nrnic1 (simulator): firmware 0x00010002 READY\n' > "$tmp/want"
[ "$rc" -eq 0 ] && same tools-sim-reset "$tmp/out" "$tmp/want" || bad tools-sim-reset "exit $rc: $(head -c 200 "$tmp/err")"
diff "$tmp/a.journal.before" "$tmp/a.journal" | sed -n 's/^> //p' > "$tmp/got"
printf 'W 0x000210 0x00000001\nW 0x000210 0x00000000\n' > "$tmp/want"
same tools-sim-reset-holds-and-releases "$tmp/got" "$tmp/want"
run "$TOOL" --sim "$S" -d rnic7 regs
expect tools-sim-unknown-nic 1 "rnic-tool: simulator at $S refused rnic7: No such device"
run "$TOOL" --sim "$tmp/none.sock" regs
expect tools-sim-no-service 1 "rnic-tool: cannot connect to the simulator at $tmp/none.sock: No such file or directory"

# a device from another spec: a warning, the hash marked, still printed
start_fake h --hash 0xDEADBEEF || exit 1
run "$TOOL" --sim "$tmp/h.sock" regs
expect tools-sim-regs-other-spec-warns 0 "rnic-tool: rnic0 (simulator): warning: built from another spec (hash 0xDEADBEEF, this tool 0x$HASH): names may not match"
if grep -qxF "  0x018 spec_hash            const 0xDEADBEEF  (spec: 0x$HASH)" "$tmp/out" && head -1 "$tmp/out" | grep -qF "(NOT this tool's)"
then pass tools-sim-regs-other-spec-marked; else bad tools-sim-regs-other-spec-marked "$(grep spec_hash "$tmp/out")"; fi
# a corrupted image in the NIC's memories: reset reports the loader's refusal
start_fake bad --bad-image || exit 1
run "$TOOL" --sim "$tmp/bad.sock" reset
expect tools-sim-reset-refused-image 1 "rnic-tool: rnic0 (simulator): the loader refused the image in the NIC's memories (cpu_status 0x00000004): the core stays in reset; load one with fw-load"
# a loader that refuses what the tool passed
start_fake refuse --refuse || exit 1
run "$TOOL" --sim "$tmp/refuse.sock" fw-load "$tmp/img/good.img"
expect tools-sim-fw-load-loader-refuses 1 "rnic-tool: rnic0 (simulator): the NIC's loader refused the image (cpu_status 0x00000004): the core stays held in reset"
# a log ring that wrapped: its newest bytes, and a note on stderr
start_fake wrap --log-wrap || exit 1
run "$TOOL" --sim "$tmp/wrap.sock" fwlog
for i in $(seq 4 11); do printf 'line %02d\n' "$i"; done > "$tmp/want"
same tools-sim-fwlog-wrapped "$tmp/out" "$tmp/want"
expect tools-sim-fwlog-wrapped-note 0 "rnic-tool: rnic0 (simulator): the log wrapped: its oldest 32 bytes are gone"

# ---- (a) libpciaccess against a fake PCI sysfs tree ------------------------------------------
# As root a mount namespace; as a normal user one inside a user namespace where the kernel allows.
if [ "$(id -u)" -eq 0 ]; then ns=(unshare -m --propagation private); else ns=(unshare -rm --propagation private); fi
if ! "${ns[@]}" true 2>/dev/null; then
  echo "SKIP tools-pci-fake-sysfs cannot create a mount namespace here (not root, no user namespaces)"
else
  "$FAKE" --bar-image "$tmp/bar0.img" || bad tools-pci-bar-image "fake_sim --bar-image failed"
  "${ns[@]}" bash "$HERE/fake_sysfs.sh" "$TOOL" "$tmp" || fail=1
fi
exit $fail
