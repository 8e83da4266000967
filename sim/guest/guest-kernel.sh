#!/usr/bin/env bash
# guest-kernel.sh DIR: finds Debian's stock kernel (the package linux-image-amd64 depends on) and
# prints "KV ROOT": ROOT/boot/vmlinuz-KV and ROOT/lib/modules/KV. An installed package is used
# where it is (ROOT=/); otherwise the .deb is fetched with apt-get download (Debian's archive
# only), unpacked into DIR/kimg-KV once and kept there (the ABI name is the cache key).
set -euo pipefail
dir=${1:?usage: guest-kernel.sh DIR}
mkdir -p "$dir"
resolve() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}'; }
img=$(resolve)
if [ -z "$img" ]; then
  # The package lists are missing or stale: refresh once (the ABI name moves with updates).
  apt-get update -qq >&2 || true
  img=$(resolve)
fi
[ -n "$img" ] || { echo "guest-kernel: cannot resolve linux-image-amd64 (apt lists?)" >&2; exit 1; }
kv=${img#linux-image-}
if [ -f "/boot/vmlinuz-$kv" ] && [ -d "/lib/modules/$kv/kernel/drivers/infiniband" ]; then
  echo "$kv /"
  exit 0
fi
root=$dir/kimg-$kv
# Suites guest and interop run in parallel and both call this on a fresh build: one at a time,
# or one's `rm -rf deb` removes the other's download ("cannot find or fetch" in a fresh CI).
exec 9> "$dir/.lock"
flock 9
if [ ! -f "$root/.done" ]; then
  rm -rf "$root" "$dir/deb"
  mkdir -p "$dir/deb"
  if ! (cd "$dir/deb" && apt-get download "$img" >&2); then
    apt-get update -qq >&2 || true
    (cd "$dir/deb" && apt-get download "$img" >&2)
  fi
  dpkg-deb -x "$dir"/deb/"$img"_*.deb "$root"
  depmod -b "$root" "$kv"   # the .deb ships no modules.dep
  rm -rf "$dir/deb"
  touch "$root/.done"
fi
echo "$kv $root"
