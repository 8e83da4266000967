#!/usr/bin/env bash
# test_kmod.sh DIR KDIR: builds host-driver/linux from clean in DIR against the kernel headers
# KDIR with W=1 and sparse (C=1), and checks the build log: PASS/FAIL lines.
set -uo pipefail
dir=${1:?usage: test_kmod.sh DIR KDIR}; kdir=${2:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 $2"; echo "RERUN tb/kmod/test_kmod.sh $dir $kdir"; fails=$((fails + 1)); }
if [ ! -d "$kdir" ]; then fail kmod-headers "$kdir missing (linux-headers-amd64)"; exit 1; fi
if ! command -v sparse >/dev/null; then fail kmod-sparse "sparse not installed (scripts/install-deps.sh)"; exit 1; fi
rm -rf "$dir"; mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
for f in "$top"/host-driver/linux/*.c "$top"/host-driver/linux/Kbuild "$top"/host-driver/core/*.c; do ln -s "$f" "$dir/"; done
log=$dir/build.log
t0=$(date +%s.%N)
# Not the caller's make flags: -s would hide the CHECK lines counted below.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$kdir" M="$dir" RNIC_SRC="$top" W=1 C=1 modules >"$log" 2>&1
rc=$?
t1=$(date +%s.%N)
nobj=$(ls "$dir"/*.o 2>/dev/null | grep -vc 'rnic\.o\|\.mod\.o')
nchk=$(grep -c '^  CHECK ' "$log")
echo "INFO kmod: make W=1 C=1 exit $rc in $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s; $nobj objects, $nchk files checked by sparse"
if [ $rc -eq 0 ] && [ -f "$dir/rnic.ko" ]; then pass kmod-build; else fail kmod-build "make exit $rc (log $log)"; tail -20 "$log"; fi
# Every source file compiled must also have been checked by sparse (C=1 ran).
srcs=$(ls "$top"/host-driver/linux/*.c "$top"/host-driver/core/*.c | wc -l)
if [ "$nchk" -eq "$srcs" ]; then pass kmod-sparse-ran; else fail kmod-sparse-ran "sparse checked $nchk of $srcs files"; fi
w=$(grep -Ei 'warning|error:' "$log" | grep -v 'Skipping BTF generation' || true)
if [ -z "$w" ]; then pass kmod-no-warnings; else fail kmod-no-warnings "$(echo "$w" | wc -l) warning lines"; echo "$w" | head -20; fi
# The module declares what the guest and a board need: the PCI ID table, the parameters, ib_core.
if [ -f "$dir/rnic.ko" ]; then
  info=$(/sbin/modinfo "$dir/rnic.ko" 2>&1)
  a=$(printf 'pci:v%08Xd%08X' 0x10EE 0x5252)
  if echo "$info" | grep -q "^alias: *${a}sv"; then pass kmod-pci-alias; else fail kmod-pci-alias "no alias $a"; fi
  if echo "$info" | grep -q '^depends:.*ib_core'; then pass kmod-depends-ib_core; else fail kmod-depends-ib_core "$(echo "$info" | grep depends)"; fi
  kv=$(basename "$kdir"); kv=${kv#linux-headers-}
  if echo "$info" | grep -q "^vermagic: *$kv "; then pass kmod-vermagic; else fail kmod-vermagic "$(echo "$info" | grep vermagic) (want $kv)"; fi
  for p in netdev fw_image cmd_timeout_ms mbox_timeout_ms; do
    if echo "$info" | grep -q "^parm: *$p:"; then pass "kmod-param-$p"; else fail "kmod-param-$p" missing; fi
  done
fi
exit $((fails > 0))
