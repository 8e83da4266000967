#!/usr/bin/env bash
# Suite guest: the kernel module (host-driver/linux) in a QEMU guest (TCG, Debian's stock
# kernel, sim/guest/) against one simulated NIC served by `rnic_sim ivshmem` through the guest
# transport (docs/kernel-module.md). The guest (tb/guest/kmod.sh) loads the module, which probes
# the NIC over the ivshmem mailbox, checks the spec hash, brings up the command queue and EQ and
# registers rnic0 on a dummy netdev; then ibv_devinfo -v through our provider's kernel backend,
# rmmod. Here: every result checked field by field, the kernel log, the taint.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$root/build/guest-kmod
sim=$root/build/sim/rnic_sim
ko=$root/build/kmod/rnic.ko
prov=$root/build/provider/librnic-rdmav34.so
mrprog=$root/build/guest-bin/kmod_mr
asyncprog=$root/build/guest-bin/kmod_async
failures=0
RERUN="tb/guest/test_guest.sh   (outputs in build/guest-kmod/)"
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 $2"; echo "RERUN $RERUN"; failures=$((failures + 1)); }
check() { if eval "$2"; then pass "$1"; else fail "$1" "$3"; fi; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
t_start=$(date +%s)

for f in "$sim" "$ko" "$prov" "$mrprog" "$asyncprog"; do [ -f "$f" ] || { fail guest-inputs "$f missing (make kmod provider build/sim/rnic_sim)"; exit 1; }; done
if ! command -v qemu-system-x86_64 > /dev/null; then
  fail guest-qemu "qemu-system-x86_64 not installed (scripts/install-deps.sh installs qemu-system-x86)"; exit 1
fi
if ! read -r kv kroot < <(sim/guest/guest-kernel.sh "$root/build/guest"); then
  fail guest-kernel "cannot find or fetch Debian's linux-image-amd64"; exit 1
fi
# The module must have been built for the kernel the guest boots.
vm=$(/sbin/modinfo -F vermagic "$ko" | awk '{print $1}')
check guest-kernel-matches-module '[ "$vm" = "$kv" ]' "module built for $vm, guest boots $kv"
initrd=$root/build/guest/initramfs-kmod-$kv.gz
if [ ! -f "$initrd" ] || [ -n "$(find sim/guest/init sim/guest/mkinitramfs.sh -newer "$initrd" 2>/dev/null)" ]; then
  sim/guest/mkinitramfs.sh "$kroot" "$kv" "$initrd" || { fail guest-initramfs "mkinitramfs.sh failed"; exit 1; }
fi
kernel=$kroot/boot/vmlinuz-$kv

rm -rf "$out"; mkdir -p "$out/share/out"
cp "$ko" "$prov" "$mrprog" "$asyncprog" tb/guest/kmod.sh "$out/share/"
run=$(mktemp -d /tmp/rnic-guest.XXXXXX)
shm=/dev/shm/rnic-guest-$$.shm ram=/dev/shm/rnic-guest-$$.ram
trap 'rm -rf "$run"; rm -f "$shm" "$ram"; [ -n "${simpid:-}" ] && kill $simpid 2>/dev/null' EXIT
"$sim" ivshmem --sock "$run/ivs.sock" --shm "$shm" --ram "$ram" --ram-size 1G --vectors 4 --timeout 400 \
  > "$out/sim.log" 2>&1 &
simpid=$!
for i in $(seq 1 100); do grep -q listening "$out/sim.log" && break; kill -0 $simpid 2>/dev/null || break; sleep 0.1; done
if ! grep -q listening "$out/sim.log"; then fail guest-sim-start "$(head -3 "$out/sim.log" | tr '\n' ' ')"; exit 1; fi
# Phase 2 of the guest script asks for the device to disappear: SIGUSR1 to the simulator.
( for i in $(seq 1 3000); do
    if [ -f "$out/share/out/hang-request" ]; then kill -USR1 $simpid && touch "$out/share/out/hung"; break; fi
    sleep 0.1; done ) &
watcher=$!
t0=$(date +%s.%N)
sim/guest/run-guest.sh --kernel "$kernel" --initrd "$initrd" --share "$out/share" --test kmod \
  --ivshmem "$run/ivs.sock:4" --ram-file "$ram" --log "$out/console.log" --timeout 360 \
  --append "slub_debug=U"
grc=$?
t1=$(date +%s.%N)
wait $simpid; src=$?; simpid=
kill $watcher 2>/dev/null; wait $watcher 2>/dev/null
if [ $grc = 3 ]; then
  # Only when QEMU itself cannot run; CI must not skip.
  if [ "${CI:-}" = true ]; then fail guest-qemu "QEMU cannot start: $(head -3 "$out/console.log" | tr '\n' ' ')"; exit 1; fi
  echo "SKIP guest: QEMU CANNOT START ON THIS MACHINE, NOTHING OF THE KERNEL MODULE WAS TESTED: $(head -3 "$out/console.log" | tr '\n' ' ')"
  exit 0
fi
echo "INFO guest: boot + test + power-off $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s wall; simulator: $(grep -h 'register requests\|simulated' "$out/sim.log" | tr '\n' ' ')"
grep '^\[kmod\]' "$out/console.log" | sed 's/^/INFO /'
check guest-ran '[ $grc = 0 ]' "guest test did not finish (run-guest rc $grc, see $out/console.log)"
check guest-sim-exit '[ $src = 0 ]' "rnic_sim ivshmem exit $src: $(tail -2 "$out/sim.log" | tr '\n' ' ')"
o=$out/share/out
rd() { cat "$o/$1" 2>/dev/null; }
check guest-ivshmem-device 'grep -q " 0x1af4 0x1110$" "$o/pci.txt"' "no ivshmem device on the guest's PCI bus: $(rd pci.txt | tr '\n' ' ')"
check guest-insmod '[ "$(rd insmod.rc)" = 0 ]' "insmod exit $(rd insmod.rc)"
hash=$(awk '/define RNIC_SPEC_HASH/{print tolower($3)}' spec/include/rnic_spec.h); hash=${hash%u}
dm=$o/dmesg.txt
check guest-probe-transport 'grep -q "rnic-ivshmem.*guest transport: simulator peer 1" "$dm"' "no transport line in dmesg"
check guest-spec-hash 'grep -q "10ee:5252 hw .* spec hash $hash ok" "$dm"' "no 'spec hash $hash ok' in dmesg"
check guest-firmware-limits 'grep -q "firmware [0-9]*\.[0-9]*: [1-9][0-9]* QPs" "$dm"' "no QUERY_DEVICE line in dmesg"
check guest-registered 'grep -q "registered rnic0 on netdev dummy0 (RoCE v2, uverbs ABI 1)" "$dm"' "no registration line"
check guest-ibdev '[ "$(rd ibdevs.txt)" = rnic0 ]' "/sys/class/infiniband holds '$(rd ibdevs.txt)'"
check guest-abi '[ "$(rd abi.txt)" = 1 ]' "uverbs abi_version '$(rd abi.txt)'"
gid=$(awk '$2=="0000:0000:0000:0000:0000:ffff:0a00:0002"' "$o/gids.txt")
check guest-gid-rocev2 '[ -n "$gid" ] && echo "$gid" | grep -q " RoCE v2 dummy0$"' "no RoCE v2 GID for 10.0.0.2 on dummy0: $(rd gids.txt | tr '\n' ';')"
gi=${gid%% *}
mac=$(rd dummy0.mac)
check guest-gid-in-firmware 'grep -q "GID $gi = 10.0.0.2 ($mac) written to the firmware" "$dm"' "SET_GID of index $gi not logged"
sy=$o/sysfs.txt
check guest-sysfs-link-layer 'grep -qx "ports/1/link_layer: Ethernet" "$sy"' "$(grep link_layer "$sy")"
check guest-sysfs-port-active 'grep -qx "ports/1/state: 4: ACTIVE" "$sy"' "$(grep 'ports/1/state' "$sy")"
check guest-sysfs-node-type 'grep -qx "node_type: 1: CA" "$sy"' "$(grep node_type "$sy")"
check guest-ibv-devices '[ "$(rd ibv_devices.rc)" = 0 ] && grep -q "^ *rnic0 " "$o/ibv_devices.txt"' "ibv_devices: $(rd ibv_devices.txt | tr '\n' ' ')"
di=$o/devinfo.txt
check guest-devinfo-rc '[ "$(rd devinfo.rc)" = 0 ]' "ibv_devinfo -v exit $(rd devinfo.rc): $(head -3 "$di" | tr '\n' ' ')"
fv=$(sed -n 's/^fw_ver: //p' "$sy")
dv() { grep -E "^[[:space:]]*$1:[[:space:]]" "$di" | head -1 | sed -E "s/^[[:space:]]*$1:[[:space:]]*//"; }
for kvp in "hca_id|rnic0" "transport|InfiniBand (0)" "fw_ver|$fv" "vendor_id|0x10ee" "vendor_part_id|21074" \
           "phys_port_cnt|1" "state|PORT_ACTIVE (4)" "link_layer|Ethernet" "max_pkeys|1"; do
  k=${kvp%%|*} v=${kvp#*|}
  check "guest-devinfo-$k" '[ "$(dv "$k")" = "$v" ]' "ibv_devinfo -v $k '$(dv "$k")', want '$v'"
done
check guest-devinfo-gid 'grep -Eq "GID\[ *$gi\]:[[:space:]]+::ffff:10.0.0.2, RoCE v2" "$di"' "no 'GID[$gi]: ::ffff:10.0.0.2, RoCE v2' in ibv_devinfo -v"
# kmod_mr's own PASS/FAIL lines (PDs, MRs, bad input), as the guest printed them
check guest-mr-ran '[ "$(rd mr.rc)" = 0 ] || grep -q "^FAIL" "$o/mr.txt"' "kmod_mr exit '$(rd mr.rc)' without a FAIL line: $(tail -3 "$o/mr.txt" | tr '\n' ' ')"
while read -r verdict name why; do
  case $verdict in
    PASS) pass "guest-$name";;
    FAIL) fail "guest-$name" "$why";;
  esac
done < <(grep -E '^(PASS|FAIL) ' "$o/mr.txt" 2>/dev/null)
check guest-mr-all-checks '[ "$(grep -c "^PASS" "$o/mr.txt" 2>/dev/null)" = 32 ]' "$(grep -c "^PASS" "$o/mr.txt" 2>/dev/null) of 32 kmod_mr checks passed"
# Nothing the module (or ib_umem for it) allocated is left once the programs exited: the slab
# allocation sites (slub_debug=U) before rmmod are those right after insmod, count for count.
check guest-slab-tracking 'grep -q "slub_debug=U" "$o/cmdline" && [ -s "$o/slab-after-insmod.txt" ]' "no slab allocation sites of the module recorded ($(rd cmdline))"
check guest-slab-no-leak 'cmp -s "$o/slab-after-insmod.txt" "$o/slab-before-rmmod.txt"' "allocation sites changed: $(diff "$o/slab-after-insmod.txt" "$o/slab-before-rmmod.txt" | grep '^[<>]' | head -5 | tr '\n' ' ')"
# The CQ arm of kmod_mr went through the mmapped doorbell page to the NIC: the simulator's last
# page doorbell is a cq_arm (offset 0x00c) naming a CQ.
check guest-db-page-delivered 'grep -Eq "[1-9][0-9]* doorbells from the mmapped pages, the last page [0-9]+ offset 0x00c value 0x0000[0-9a-f]{3}[1-9a-f]" "$out/sim.log"' "$(grep 'mmapped pages' "$out/sim.log")"
res=$(grep " rnic0: " "$o/rdma-res-before-rmmod.txt")
check guest-rdma-res-empty '[ -n "$res" ] && ! echo "$res" | grep -Eq " (pd|cq|qp|cm_id|mr|ctx|srq) [1-9]"' "rdma resource show before rmmod: $(rd rdma-res-before-rmmod.txt | tr '\n' ' ')"
check guest-rmmod '[ "$(rd rmmod.rc)" = 0 ] && [ -z "$(rd ibdevs-after.txt)" ]' "rmmod exit $(rd rmmod.rc), devices left '$(rd ibdevs-after.txt)'"
check guest-dmesg-clean '! grep -Eq "WARNING:|BUG:|Oops|Call Trace|lockdep|general protection|rnic.*(timed out|marked dead)" "$dm"' "$(grep -Em3 "WARNING:|BUG:|Oops|Call Trace|lockdep|general protection|timed out|marked dead" "$dm" | tr '\n' ' ')"
# Taint: only out-of-tree (4096) and unsigned module (8192) may be added by our module.
tb=$(rd taint-before) ta=$(rd taint-after)
check guest-taint '[ -n "$ta" ] && [ $(( (ta & ~tb) & ~12288 )) = 0 ]' "taint before $tb after $ta"
# The device removed under the loaded module (phase 2).
check guest-hang-insmod '[ "$(rd hang-insmod.rc)" = 0 ]' "second insmod exit $(rd hang-insmod.rc)"
check guest-hang-sim-removed 'grep -q "device was removed" "$out/sim.log"' "the simulator never got SIGUSR1"
dh=$o/dmesg-hang.txt
check guest-hang-first-call-fails '[ "$(rd hang-devinfo1.rc)" != 0 ] && [ -s "$o/hang-devinfo1.rc" ]' "ibv_devinfo on a removed device exit '$(rd hang-devinfo1.rc)'"
check guest-hang-timeout-logged 'grep -q "command timed out (spec hash reads 0xffffffff" "$dh"' "no command timeout with all-ones registers in dmesg"
check guest-hang-marked-dead 'grep -q "device marked dead: registers read all-ones" "$dh"' "device not marked dead"
# A dead device fails at once: well under the command timeout (3 s) the first call waited out.
t2=$(awk '{print $2}' "$o/hang-times" 2>/dev/null)
check guest-hang-later-call-fast '[ "$(rd hang-devinfo2.rc)" != 0 ] && awk "BEGIN{exit !(${t2:-99} < 2.5)}"' "second ibv_devinfo exit $(rd hang-devinfo2.rc), took ${t2:-?} s (a dead device must fail at once)"
check guest-hang-fatal-event '[ "$(rd hang-async.rc)" = 0 ] && grep -qx "EVENT local catastrophic error" "$o/hang-async.txt" && grep -qx READY "$o/hang-async.txt"' "the process holding a context got: $(rd hang-async.txt | tr '\n' ' ') (exit $(rd hang-async.rc))"
check guest-hang-port-down '[ "$(rd hang-port-state)" = "1: DOWN" ]' "port state '$(rd hang-port-state)' on a dead device"
check guest-hang-rmmod '[ "$(rd hang-rmmod.rc)" = 0 ] && [ -z "$(rd hang-ibdevs-after.txt)" ]' "rmmod of a dead device exit $(rd hang-rmmod.rc), devices left '$(rd hang-ibdevs-after.txt)'"
check guest-hang-dmesg-clean '! grep -Eq "WARNING:|BUG:|Oops|Call Trace|lockdep|general protection|hung_task" "$dh"' "$(grep -Em3 "WARNING:|BUG:|Oops|Call Trace|lockdep|general protection|hung_task" "$dh" | tr '\n' ' ')"
echo "INFO guest: removed device: first call $(awk '{print $1}' "$o/hang-times" 2>/dev/null) s (the command timeout), second ${t2:-?} s, rmmod $(rd hang-rmmod-time) s"
echo "INFO guest: suite wall $(( $(date +%s) - t_start )) s"
exit $((failures > 0))
