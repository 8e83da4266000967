#!/usr/bin/env bash
# Installs the Debian packages this project needs. Idempotent: does nothing when all are present.
# Only Debian's own archive is used; nothing is downloaded from anywhere else.
set -euo pipefail

PKGS=(
  make gcc g++ python3 python3-yaml ccache git
  clang-19 llvm-19 libclang-rt-19-dev
  verilator libsystemc-dev
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
  yosys
  libpciaccess-dev libibverbs-dev ibverbs-utils ibverbs-providers perftest
  linux-headers-amd64 sparse
  tshark gnuplot-nox
  gtkwave
  tcl openfpgaloader
  qemu-system-x86 busybox-static kmod cpio iproute2
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: error: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer once, non-interactively.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections

# Update the package lists only when they are missing or older than a day.
lists=/var/lib/apt/lists
if [ -z "$(find "$lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
  $SUDO apt-get update -q
fi
if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  # A stale list is the usual cause; refresh once and retry before giving up.
  $SUDO apt-get update -q
  if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    for p in "${missing[@]}"; do
      if ! apt-cache show "$p" >/dev/null 2>&1; then
        echo "install-deps: error: Debian package '$p' is not available from the configured archive" >&2
      fi
    done
    echo "install-deps: error: could not install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: done"
