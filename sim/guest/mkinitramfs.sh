#!/usr/bin/env bash
# mkinitramfs.sh KROOT KV OUT [PROGRAM...]: the interop guest's initramfs, gzipped cpio, from
# what is installed on this machine (Debian packages: busybox-static, kmod's depmod, rdma-core's
# libibverbs/librxe, ibverbs-utils, perftest, iproute2) and the stock kernel's modules (KROOT/lib/
# modules/KV, see guest-kernel.sh), plus our own guest PROGRAMs. Library closure by ldd; the
# dlopen()ed pieces ldd cannot see are named here (the rxe provider, libgcc_s).
set -euo pipefail
kroot=$(cd "${1:?usage: mkinitramfs.sh KROOT KV OUT [PROGRAM...]}" && pwd); kv=${2:?}; out=${3:?}; shift 3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${out}.d.XXXXXX")
trap 'rm -rf "$work"' EXIT
r=$work/root
mkdir -p "$r"/usr/{bin,sbin,lib,lib64} "$r"/{etc,proc,sys,dev,tmp,mnt/host,tests} "$r"/lib/modules
for d in bin sbin lib64; do ln -s usr/$d "$r/$d"; done
ln -s usr/lib "$r/lib.tmp" && rmdir "$r/lib/modules" && rmdir "$r/lib" && mv "$r/lib.tmp" "$r/lib"
mkdir -p "$r/usr/lib/modules"

# Kernel modules: rxe and the virtio devices with everything they need (modprobe --show-depends),
# and crc32 for rxe's ICRC (requested at run time through /sbin/modprobe).
# dummy: a netdev for the kernel module's GID table (tb/guest).
mods="rdma_rxe ib_uverbs crc32_generic crc32-pclmul virtio_net virtio_pci 9p 9pnet_virtio dummy"
kmods=$kroot/lib/modules/$kv
for m in $mods; do modprobe -d "$kroot" -S "$kv" --show-depends "$m" | awk '$1=="insmod"{print $2}'; done |
  sort -u | while read -r ko; do rel=${ko#"$kroot"/}; rel=${rel#lib/}; rel=${rel#usr/lib/}
    mkdir -p "$r/usr/lib/${rel%/*}"; cp "$ko" "$r/usr/lib/$rel"; done
for f in modules.order modules.builtin modules.builtin.modinfo; do cp "$kmods/$f" "$r/usr/lib/modules/$kv/"; done
depmod -b "$r" "$kv"

# busybox applets first, so real binaries copied after them replace the links.
cp /bin/busybox "$r/usr/bin/busybox"
for a in $(/bin/busybox --list-full); do
  [ -e "$r/$a" ] || [ -L "$r/$a" ] || ln -s /usr/bin/busybox "$r/$a" 2>/dev/null || true
done
bins="ibv_devinfo ibv_devices ibv_rc_pingpong ibv_ud_pingpong ibv_srq_pingpong ib_send_bw ib_write_bw
      ib_read_bw ib_atomic_bw ib_send_lat ib_write_lat ib_read_lat rdma ip"
libs=()
add_bin() {  # real file at the same path in the guest (merged /usr); no busybox link shadows it
  local src=$1 dst=$2 d
  for d in bin sbin; do [ -L "$r/usr/$d/${dst##*/}" ] && rm -f "$r/usr/$d/${dst##*/}"; done
  rm -f "$r$dst"; mkdir -p "$(dirname "$r$dst")"; cp -L "$src" "$r$dst"
  while read -r l; do libs+=("$l"); done < <(ldd "$src" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib64/{print $1}')
}
for b in $bins; do p=$(command -v "$b") || { echo "mkinitramfs: $b not installed" >&2; exit 1; }
  p=$(readlink -f "$p"); add_bin "$p" "/usr/${p#/usr/}"; done
# iproute2's ip also where scripts name it to get past busybox's applet (/usr/sbin/ip)
ipb=$(readlink -f "$(command -v ip)"); rm -f "$r/usr/sbin/ip"; cp "$ipb" "$r/usr/sbin/ip"
for p in "$@"; do add_bin "$p" "/usr/bin/$(basename "$p")"; done
ma=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
rxe=/usr/lib/$ma/libibverbs/librxe-rdmav34.so
[ -f "$rxe" ] || { echo "mkinitramfs: $rxe missing (ibverbs-providers)" >&2; exit 1; }
libs+=("$rxe" "/usr/lib/$ma/libgcc_s.so.1" /lib64/ld-linux-x86-64.so.2)
while read -r l; do libs+=("$l"); done < <(ldd "$rxe" | awk '/=> \//{print $3}')
for l in $(printf '%s\n' "${libs[@]}" | sort -u); do
  real=$(readlink -f "$l"); dst=$l; case $dst in /usr/*) ;; *) dst=/usr$dst;; esac
  mkdir -p "$(dirname "$r$dst")"; cp -L "$real" "$r$dst"
done
mkdir -p "$r/etc/libibverbs.d"
echo "driver rxe" > "$r/etc/libibverbs.d/rxe.driver"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$r/etc/passwd"
printf 'root:x:0:\n' > "$r/etc/group"
cp "$here/init" "$r/init"; chmod +x "$r/init"
(cd "$r" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$out.tmp"
mv -f "$out.tmp" "$out"
