#!/usr/bin/env bash
# bitstream.sh BOARD [CONFIG]: the Vivado flow for one board (common/build.tcl), outputs in
# build/vivado/BOARD/. `make bitstream BOARD=vcu118` calls it after building the firmware image.
# Without Vivado it says what is missing and exits 2 (nothing is downloaded or installed).
set -euo pipefail
board=${1:?usage: bitstream.sh BOARD [CONFIG]}
config=${2:-100g}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ ! -f "$here/$board/board.tcl" ]; then
  echo "bitstream: unknown board '$board'; boards: $(cd "$here" && ls */board.tcl | cut -d/ -f1 | tr '\n' ' ')" >&2
  exit 2
fi
pinned=$(sed -n 's/^set rnic_vivado_version //p' "$here/common/build.tcl")
if ! command -v vivado >/dev/null 2>&1; then
  cat >&2 <<MSG
bitstream: Vivado is not installed (no 'vivado' on PATH), so no bitstream for $board.
  This flow needs AMD Vivado $pinned (ML Standard or Enterprise: the XCVU9P/XCU250 are not in
  the free edition's device list) with UltraScale+ support, and the IP it generates from Tcl:
  DMA/Bridge Subsystem for PCIe (xdma 4.1) and UltraScale+ 100G Ethernet (cmac_usplus 3.1, whose
  license is free of charge but must be requested from AMD and installed).
  Board file: $(sed -n 's/^ *board_part *\([^ ]*\).*/\1/p' "$here/$board/board.tcl")$([ "$board" = u250 ] && echo " (from the Vivado board store)").
  Then: source <Vivado>/settings64.sh && make bitstream BOARD=$board
  What can run here without Vivado: make test-boards (lint, Yosys synthesis, the Tcl parsed with
  stubs) and make synth-board-$board.
MSG
  exit 2
fi
out="$repo/build/vivado/$board"
fw="$repo/build/firmware"
mkdir -p "$out"
cd "$out"
exec vivado -mode batch -nojournal -log "$out/vivado.log" -source "$here/common/build.tcl" \
  -tclargs "$board" "$config" "$repo" "$out" "$fw"
