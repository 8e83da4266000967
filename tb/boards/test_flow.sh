#!/usr/bin/env bash
# The Vivado flow and the flashing scripts without Vivado or a board: the Tcl run against stubs
# (check_flow.tcl), the scripts' refusals, and the openFPGALoader commands they would run (a
# recording stand-in on PATH). One PASS/FAIL line per check.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/build/boards/flow}
rm -rf "$out"; mkdir -p "$out/bin"
fail=0
check() {  # check NAME OK WHY
  if [ "$2" = 1 ]; then echo "PASS $1"; else echo "FAIL $1 $3"; echo "RERUN tb/boards/test_flow.sh"; fail=1; fi
}
cd "$repo"
tclsh bitstream-scripts/vivado/stub/check_flow.tcl "$repo" "$out/tcl" vcu118 u250 | grep -E "^(PASS|FAIL|RERUN)" || fail=1

# without Vivado, make bitstream says what is missing and fails (exit 2)
if ! command -v vivado >/dev/null; then
  msg=$(bitstream-scripts/vivado/bitstream.sh vcu118 2>&1); rc=$?
  ok=0; [ $rc = 2 ] && grep -q "Vivado is not installed" <<< "$msg" && grep -q "xdma 4.1" <<< "$msg" && ok=1
  check bitstream-without-vivado $ok "rc $rc: $msg"
fi
msg=$(bitstream-scripts/vivado/bitstream.sh zcu999 2>&1); rc=$?
ok=0; [ $rc = 2 ] && grep -q "unknown board" <<< "$msg" && ok=1
check bitstream-unknown-board $ok "rc $rc: $msg"

# the openFPGALoader in Debian knows the VCU118 and ships the SPI bridge for its XCVU9P
ok=0; openFPGALoader --list-boards 2>/dev/null | awk '$1 == "vcu118" { f = 1 } END { exit !f }' && ok=1
check openfpgaloader-knows-vcu118 $ok "openFPGALoader --list-boards has no vcu118"
ok=0; [ -f /usr/share/openFPGALoader/spiOverJtag_xcvu9p-flga2104.bit.gz ] && ok=1
check openfpgaloader-xcvu9p-bridge $ok "no spiOverJtag_xcvu9p-flga2104.bit.gz"

# program.sh / flash.sh run the right command (a stand-in records its arguments)
printf '#!/bin/sh\necho "$@" > "%s/args"\n' "$out" > "$out/bin/openFPGALoader"
chmod +x "$out/bin/openFPGALoader"
bit="$out/t.bit"; : > "$bit"
PATH="$out/bin:$PATH" bitstream-scripts/flash/program.sh vcu118 "$bit" > /dev/null 2>&1
ok=0; [ "$(cat "$out/args" 2>/dev/null)" = "-b vcu118 $bit" ] && ok=1
check program-vcu118-openfpgaloader $ok "args: $(cat "$out/args" 2>/dev/null)"
rm -f "$out/args"
PATH="$out/bin:$PATH" bitstream-scripts/flash/flash.sh vcu118 "$bit" > /dev/null 2>&1
ok=0; [ "$(cat "$out/args" 2>/dev/null)" = "-b vcu118 -f --verify $bit" ] && ok=1
check flash-vcu118-openfpgaloader $ok "args: $(cat "$out/args" 2>/dev/null)"
rm -f "$out/args"
if ! command -v vivado >/dev/null; then
  msg=$(PATH="$out/bin:$PATH" bitstream-scripts/flash/program.sh u250 "$bit" 2>&1); rc=$?
  ok=0; [ $rc = 2 ] && grep -q "hardware manager" <<< "$msg" && [ ! -f "$out/args" ] && ok=1
  check program-u250-needs-vivado $ok "rc $rc: $msg"
fi
msg=$(bitstream-scripts/flash/flash.sh kc705 2>&1); rc=$?
ok=0; [ $rc = 2 ] && grep -q "unknown board" <<< "$msg" && ok=1
check flash-unknown-board $ok "rc $rc: $msg"
exit $fail
