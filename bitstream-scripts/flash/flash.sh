#!/usr/bin/env bash
# flash.sh BOARD [BIT|MCS]: write the configuration flash, so the board comes up with the NIC at
# power-on (the host enumerates it at boot, no rescan needed). VCU118: openFPGALoader writes the
# bitstream into the primary quad-SPI flash through its SPI-over-JTAG bridge for the XCVU9P
# (shipped by Debian's package: spiOverJtag_xcvu9p-flga2104.bit.gz) and verifies it. U250 (and
# the VCU118 with --vivado): Vivado's hardware manager writes the .mcs that `make bitstream` made.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
use_vivado=0
if [ "${1:-}" = "--vivado" ]; then use_vivado=1; shift; fi
board=${1:?usage: flash.sh [--vivado] BOARD [BIT|MCS]}
out=$repo/build/vivado/$board
case $board in
  vcu118|u250) ;;
  *) echo "flash: unknown board '$board' (vcu118, u250)" >&2; exit 2 ;;
esac
if [ "$board" = vcu118 ] && [ "$use_vivado" = 0 ]; then
  bit=${2:-$out/rnic_vcu118_top.bit}
  [ -f "$bit" ] || { echo "flash: no bitstream $bit (make bitstream BOARD=vcu118)" >&2; exit 2; }
  command -v openFPGALoader >/dev/null || { echo "flash: openFPGALoader missing (apt-get install openfpgaloader)" >&2; exit 2; }
  exec openFPGALoader -b vcu118 -f --verify "$bit"
fi
bit=$out/rnic_${board}_top.bit
mcs=${2:-$out/rnic_${board}_top.mcs}
[ -f "$mcs" ] || { echo "flash: no flash image $mcs (make bitstream BOARD=$board)" >&2; exit 2; }
part=$(sed -n 's/^ *cfgmem_part *\([^ ]*\).*/\1/p' "$repo/bitstream-scripts/vivado/$board/board.tcl")
command -v vivado >/dev/null || { echo "flash: $board needs Vivado's hardware manager (vivado or Vivado Lab on PATH)" >&2; exit 2; }
exec vivado -mode batch -nojournal -nolog -source "$here/hw_manager.tcl" -tclargs flash "$bit" "$mcs" "$part"
