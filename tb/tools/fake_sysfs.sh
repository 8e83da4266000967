#!/usr/bin/env bash
# fake_sysfs.sh TOOL TMP: run inside a private mount namespace (unshare -m) by test_tools.sh.
# Mounts a tmpfs over /sys/bus/pci/devices, builds fake PCI devices there the way Linux shows
# them (config, vendor, device, class, resource, resource0) and checks what rnic-tool finds
# through libpciaccess: two rnic cards, not the other devices; BAR0 mapped from resource0 (a
# file holding fake_sim's register image) gives the same text as the simulator backend.
set -uo pipefail
TOOL=$1 tmp=$2
D=/sys/bus/pci/devices
. "$(dirname "$0")/check_lib.sh"

if ! mount -t tmpfs rnic-fake-pci "$D"; then
  echo "SKIP tools-pci-fake-sysfs cannot mount a tmpfs over $D"; exit 0
fi
# fakedev SLOT VENDOR DEVICE CLASS BAR0_START BAR0_SIZE [RESOURCE0_IMAGE]
fakedev() {
  local dir=$D/$1
  mkdir -p "$dir"
  python3 - "$dir/config" "$2" "$3" "$4" "$5" <<'X'
import struct, sys
path, ven, dev, cls, bar = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16), int(sys.argv[4], 16), int(sys.argv[5], 16)
c = bytearray(256)
struct.pack_into("<HH", c, 0, ven, dev)
c[8] = 1                                   # revision
c[9:12] = cls.to_bytes(3, "little")        # prog-if, subclass, class
struct.pack_into("<I", c, 0x10, (bar & 0xFFFFFFF0) | 0xC)   # BAR0: 64-bit prefetchable memory
struct.pack_into("<I", c, 0x14, bar >> 32)
struct.pack_into("<HH", c, 0x2C, ven, 0x0007)               # subsystem
open(path, "wb").write(c)
X
  printf '0x%04x\n' "0x$2" > "$dir/vendor"; printf '0x%04x\n' "0x$3" > "$dir/device"
  printf '0x%06x\n' "0x$4" > "$dir/class"
  { printf '0x%016x 0x%016x 0x%016x\n' "$5" $(($5 + $6 - 1)) 0x14220c
    for _ in $(seq 12); do printf '0x%016x 0x%016x 0x%016x\n' 0 0 0; done; } > "$dir/resource"
  if [ -n "${7:-}" ]; then cp --sparse=always "$7" "$dir/resource0"; else truncate -s $(($6)) "$dir/resource0"; fi
}
fakedev 0000:00:02.0 8086 1572 020000 0xf8000000 0x800000
fakedev 0000:03:00.0 10ee 5252 020000 0xf0000000 0x400000 "$tmp/bar0.img"
fakedev 0000:04:00.0 10ee 9038 058000 0xe0000000 0x100000
fakedev 0000:81:00.0 10ee 5252 020000 0x38000000000 0x400000

run "$TOOL" list
cat > "$tmp/want" <<'X'
0000:03:00.0  10ee:5252  subsystem 10ee:0007  BAR0 0xf0000000 size 0x400000
0000:81:00.0  10ee:5252  subsystem 10ee:0007  BAR0 0x38000000000 size 0x400000
X
[ "$rc" -eq 0 ] && same tools-pci-list-finds-exactly-the-cards "$tmp/out" "$tmp/want" || \
  bad tools-pci-list-finds-exactly-the-cards "exit $rc: $(head -c 200 "$tmp/err")"
if ! grep -qE '0000:00:02.0|0000:04:00.0' "$tmp/out"; then pass tools-pci-list-skips-other-ids
else bad tools-pci-list-skips-other-ids "$(cat "$tmp/out")"; fi

run "$TOOL" regs
expect tools-pci-two-cards-need-a-slot 1 "rnic-tool: 2 rnic cards found: choose one with -s SLOT (see 'rnic-tool list')"
run "$TOOL" -s 0000:00:02.0 regs
expect tools-pci-slot-of-another-device 1 "rnic-tool: 0000:00:02.0 is 8086:1572, not an rnic card (10ee:5252)"
run "$TOOL" -s 0000:05:00.0 regs
expect tools-pci-empty-slot 1 "rnic-tool: no PCI device at 0000:05:00.0"
run "$TOOL" -s 3:0.x regs
expect tools-pci-bad-slot 1 "rnic-tool: bad slot '3:0.x' (want DDDD:BB:DD.F or BB:DD.F)"
run "$TOOL" -s 81:00.0 regs
expect tools-pci-blank-bar-not-a-card 1 "rnic-tool: 0000:81:00.0: BAR0 does not start with the identity block (read 0x00000000 at 0): not an rnic card, or no bitstream loaded"

# BAR0 mapped from resource0: the same text as through the simulator socket
run "$TOOL" -s 03:00.0 regs
tail -n +2 "$tmp/out" > "$tmp/got"; tail -n +2 "$tmp/regs_sim.txt" > "$tmp/want"
[ "$rc" -eq 0 ] && same tools-pci-regs-mapped-equals-sim "$tmp/got" "$tmp/want" || \
  bad tools-pci-regs-mapped-equals-sim "exit $rc: $(head -c 200 "$tmp/err")"
head -1 "$tmp/out" | sed 's/^0000:03:00.0: //' > "$tmp/got"; head -1 "$tmp/regs_sim.txt" | sed 's/^rnic0 (simulator): //' > "$tmp/want"
same tools-pci-regs-summary "$tmp/got" "$tmp/want"
run "$TOOL" -s 0000:03:00.0 counters
[ "$rc" -eq 0 ] && same tools-pci-counters "$tmp/out" "$tmp/counters.want" || bad tools-pci-counters "exit $rc"
run "$TOOL" -s 0000:03:00.0 fwlog
[ "$rc" -eq 0 ] && same tools-pci-fwlog "$tmp/out" "$tmp/fwlog.want" || bad tools-pci-fwlog "exit $rc"

rm -rf "$D/0000:03:00.0" "$D/0000:81:00.0"
run "$TOOL" list
expect tools-pci-list-no-card 1 "rnic-tool: no rnic card (10ee:5252) found"
umount "$D"
exit $fail
