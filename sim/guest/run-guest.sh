#!/usr/bin/env bash
# run-guest.sh [options]: boots the interop guest under QEMU TCG and returns when it powers off.
#   --kernel F --initrd F      vmlinuz (guest-kernel.sh) and initramfs (mkinitramfs.sh)
#   --share DIR --test NAME    DIR is the guest's /mnt/host (virtio-9p); /init runs DIR/NAME.sh
#   --roce LPORT:RPORT         eth0 = the RoCE port: one Ethernet frame per UDP datagram, QEMU
#                              bound to 127.0.0.1:LPORT sending to 127.0.0.1:RPORT (the bridge)
#   --roce-stream PATH         eth0 = the RoCE port on the UNIX stream socket PATH (QEMU connects;
#                              length-prefixed frames, flow-controlled: nothing lost between the
#                              processes, unlike UDP when QEMU's socket buffer fills)
#   --roce-ip A/N --mac M      eth0's address and MAC (rxe0 is put on eth0)
#   --oob FWD                  eth1 = out-of-band port: restricted user-mode NIC with the
#                              guestfwd rule FWD (e.g. tcp:10.0.2.100:18515-tcp:127.0.0.1:18515;
#                              repeatable, one rule per exchange: QEMU connects each rule's target
#                              once, at start-up, so it must listen by then); the guest has
#                              10.0.2.15/24 on it and reaches nothing else
#   --hostfwd FWD              a hostfwd rule on the out-of-band port (e.g.
#                              tcp:127.0.0.1:18535-10.0.2.15:18535): a host-side client reaches
#                              a server in the guest (repeatable)
#   --roce-mtu N               eth0's MTU (rxe's active MTU follows: 1500 -> 1024, 9000 -> 4096)
#   --log FILE --timeout S     console log (CR and escapes stripped at the end); wall limit
#   --ivshmem SOCK:N           an ivshmem-doorbell device with N MSI-X vectors whose server is
#                              the UNIX socket SOCK (rnic_sim ivshmem: the kernel module's guest
#                              transport, docs/kernel-module.md); it must listen already
#   --ram-file F               guest RAM in the shared file F (memory-backend-file, share=on),
#                              so a simulator reaches guest-physical address A at offset A
#   --append ARGS              more kernel command-line words
# Exits 0 when the log holds "[init] test NAME rc=0", 3 when QEMU could not start at all (its
# message is in the log), 1 otherwise. TCG only: the CI machines have no usable KVM.
set -uo pipefail
ivshmem= ram_file= extra_append= kernel= initrd= share= test= roce= roce_ip=10.0.0.2/24 mac=52:54:00:00:00:02 oob= roce_stream= roce_mtu=1500 log=/dev/stdout timeout=300
smp=${GUEST_SMP:-2} mem=${GUEST_MEM:-1024}
while [ $# -gt 0 ]; do
  case $1 in
    --kernel) kernel=$2;; --initrd) initrd=$2;; --share) share=$2;; --test) test=$2;;
    --roce) roce=$2;; --roce-ip) roce_ip=$2;; --mac) mac=$2;; --oob) oob+=",guestfwd=$2";; --hostfwd) oob+=",hostfwd=$2";;
    --roce-mtu) roce_mtu=$2;; --roce-stream) roce_stream=$2;;
    --log) log=$2;; --timeout) timeout=$2;;
    --ivshmem) ivshmem=$2;; --ram-file) ram_file=$2;; --append) extra_append=$2;;
    *) echo "run-guest: unknown option $1" >&2; exit 2;;
  esac
  shift 2
done
[ -f "$kernel" ] && [ -f "$initrd" ] || { echo "run-guest: --kernel and --initrd needed" >&2; exit 2; }
args=(-accel tcg,thread=multi -machine q35 -cpu max -smp "$smp" -m "$mem" -nographic -no-reboot
      -kernel "$kernel" -initrd "$initrd")
# no_timer_check: under TCG on a loaded host the kernel's check that the IO-APIC timer ticks
# can fail ("IO-APIC + timer doesn't work!", a panic at 0.06 s); the timer works, it is only slow.
append="console=ttyS0 loglevel=4 panic=-1 no_timer_check qtest=$test${extra_append:+ $extra_append}"
if [ -n "$ram_file" ]; then
  args+=(-object "memory-backend-file,id=mem,size=${mem}M,mem-path=$ram_file,share=on" -machine memory-backend=mem)
fi
if [ -n "$ivshmem" ]; then
  args+=(-chardev "socket,path=${ivshmem%:*},id=ivs" -device "ivshmem-doorbell,chardev=ivs,vectors=${ivshmem##*:}")
fi
if [ -n "$roce_stream" ]; then
  args+=(-netdev "stream,id=roce,server=off,addr.type=unix,addr.path=$roce_stream"
         -device "virtio-net-pci,netdev=roce,mac=$mac")
  append+=" roce_ip=$roce_ip roce_mtu=$roce_mtu"
elif [ -n "$roce" ]; then
  args+=(-netdev "dgram,id=roce,local.type=inet,local.host=127.0.0.1,local.port=${roce%%:*},remote.type=inet,remote.host=127.0.0.1,remote.port=${roce##*:}"
         -device "virtio-net-pci,netdev=roce,mac=$mac")
  append+=" roce_ip=$roce_ip roce_mtu=$roce_mtu"
fi
if [ -n "$oob" ]; then
  args+=(-netdev "user,id=oob,restrict=on,net=10.0.2.0/24$oob" -device virtio-net-pci,netdev=oob)
  append+=" oob_ip=10.0.2.15/24"
fi
[ -n "$roce$roce_stream$oob" ] || args+=(-nic none)
[ -n "$share" ] && args+=(-fsdev "local,id=fs0,path=$share,security_model=none" -device virtio-9p-pci,fsdev=fs0,mount_tag=hostshare)
raw=$(mktemp)
timeout "$timeout" qemu-system-x86_64 "${args[@]}" -append "$append" </dev/null >"$raw" 2>&1
rc=$?
tr -d '\r' <"$raw" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' >"$log"
rm -f "$raw"
if grep -q "^\[init\] test $test rc=0" "$log"; then exit 0; fi
# QEMU itself failed before the guest printed anything (no binary, bad option, no memory).
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && ! grep -q "Linux version" "$log"; then exit 3; fi
exit 1
