#!/usr/bin/env bash
# program.sh BOARD [BIT]: load a bitstream into the FPGA over JTAG (volatile). The VCU118 goes
# through openFPGALoader (Debian's 0.10 knows the board and its on-board FT2232 JTAG), the U250
# through Vivado's hardware manager (openFPGALoader has no Alveo support); `--vivado` uses the
# hardware manager on the VCU118 too. Then: docs/boards.md, "Bring-up" (PCIe rescan next).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
use_vivado=0
if [ "${1:-}" = "--vivado" ]; then use_vivado=1; shift; fi
board=${1:?usage: program.sh [--vivado] BOARD [BIT]}
bit=${2:-$repo/build/vivado/$board/rnic_${board}_top.bit}
[ -f "$bit" ] || { echo "program: no bitstream $bit (make bitstream BOARD=$board)" >&2; exit 2; }
case $board in
  vcu118) [ "$use_vivado" = 1 ] || { command -v openFPGALoader >/dev/null ||
            { echo "program: openFPGALoader missing (apt-get install openfpgaloader)" >&2; exit 2; }
            exec openFPGALoader -b vcu118 "$bit"; } ;;
  u250) ;;
  *) echo "program: unknown board '$board' (vcu118, u250)" >&2; exit 2 ;;
esac
command -v vivado >/dev/null || { echo "program: $board needs Vivado's hardware manager (vivado or Vivado Lab on PATH)" >&2; exit 2; }
ltx=${bit%.bit}.ltx
exec vivado -mode batch -nojournal -nolog -source "$here/hw_manager.tcl" -tclargs program "$bit" "$ltx"
