#!/usr/bin/env bash
# test_synth_cache.sh: the synthesis cache cannot lie (bitstream-scripts/synth/synth_cache.py).
# In a copy of the checkout: the key `make synth-key-CONFIG` computes (from the flow's own file
# list) changes with one RTL byte, a new RTL file, a parameter, a flow script, and not with docs,
# testbenches or the gate files; synth.sh with SYNTH_CACHE=use gates a matching record's figures
# (ceiling, floors) without running Yosys, and runs Yosys on a stale one, naming what changed.
# A fake `yosys` first in PATH counts the runs (it answers -V as the real one, so keys agree).
# Runs from the checkout's root; part of suite infra. No real synthesis: a few seconds.
set -uo pipefail
# the make calls below are this test's own: a parent make's jobserver (make test) is not theirs,
# and its "jobserver unavailable" warning on stderr would become part of the key they print
unset MAKEFLAGS MFLAGS MAKELEVEL
root=$(pwd)
rerun="tb/infra/test_synth_cache.sh"
. "$(dirname "$0")/checks.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree; mkdir -p "$tree" "$tmp/bin"
# the checkout's files as they are (tracked and new, not build output)
git ls-files -co --exclude-standard | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
  tar -cf - -T - | tar -xf - -C "$tree"
cd "$tree" || exit 1
key() { make -s --no-print-directory synth-key-100g 2>&1; }
k0=$(key)
why="key '$k0'"; check synth-key-is-a-sha256 grep -qxE '[0-9a-f]{64}' <<< "$k0"
why="two computations differ"; check synth-key-deterministic test "$(key)" = "$k0"

# one byte of one RTL file (the last file of the list, so the whole list is read)
f=$(ls rtl/*/*.sv | tail -1); cp "$f" "$tmp/orig.sv"
python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)//2] ^= 0x01; open(p,'wb').write(b)" "$f"
why="$f changed by one byte, key unchanged"; check synth-key-changes-with-one-rtl-byte test "$(key)" != "$k0"
cp "$tmp/orig.sv" "$f"
why="restored $f, key differs"; check synth-key-back-after-restore test "$(key)" = "$k0"
# a new RTL file joins the flow's list (the Makefile's wildcard), so it changes the key
printf 'module cache_probe; endmodule\n' > rtl/dma/cache_probe.sv
why="a new rtl/dma/cache_probe.sv left the key unchanged"; check synth-key-changes-with-new-rtl-file test "$(key)" != "$k0"
rm rtl/dma/cache_probe.sv
# the configuration's parameters and the flow scripts
sed -i 's/^NumQps = .*/NumQps = 512/' bitstream-scripts/configs/100g.cfg
why="NumQps changed, key unchanged"; check synth-key-changes-with-a-parameter test "$(key)" != "$k0"
cp "$root/bitstream-scripts/configs/100g.cfg" bitstream-scripts/configs/100g.cfg
for s in bitstream-scripts/synth/synth.sh bitstream-scripts/synth/synth_report.py; do
  cp "$s" "$tmp/s"; echo "# probe" >> "$s"
  why="$s changed, key unchanged"; check "synth-key-changes-with-$(basename "$s")" test "$(key)" != "$k0"
  cp "$tmp/s" "$s"
done
# what cannot change the netlist: docs, testbenches, the gates (read at gate time), other configs
echo probe >> docs/development.md; echo '// probe' >> "$(ls tb/*/*.sv | head -1)"
echo '# probe' >> bitstream-scripts/synth/levels.txt; echo '# probe' >> bitstream-scripts/synth/floors.txt
echo '# probe' >> bitstream-scripts/configs/25g.cfg
why="docs/tb/levels/floors/25g.cfg changed the 100g key"; check synth-key-ignores-docs-tb-gates test "$(key)" = "$k0"

# ---- synth.sh with SYNTH_CACHE=use, against a fake yosys and a record made here --------------
real=$(command -v yosys)
printf '#!/bin/sh\n[ "$1" = -V ] && exec %s -V\necho run >> %s/yosys.runs\nexit 1\n' "$real" "$tmp" > "$tmp/bin/yosys"
chmod +x "$tmp/bin/yosys"
export SYNTH_OUT=$tmp/out SYNTH_CACHE_DIR=$tmp/cache
mkdir -p "$SYNTH_OUT"
srcs=$(make -s --no-print-directory -f - print-rtl <<< $'include Makefile\nprint-rtl: ; @echo $(RTL_SRCS)')
runs() { cat "$tmp/yosys.runs" 2>/dev/null | wc -l; }
# record(levels, ff): a record of rnic_core-100g with these figures and the tree's current key
record() {
  bitstream-scripts/synth/synth_cache.py key rnic_core-100g rnic_core 100g \
    "$(bitstream-scripts/configs/cfg.py 100g yosys rnic_core)" "" -- $srcs > /dev/null
  printf 'lvl %s\n' "$1" > "$tmp/path.txt"
  printf '{"top": "rnic_core", "lut": 1000, "lutram_srl": 10, "ff": %s, "bram36": 600, "bram18": 0, "uram": 0, "dsp": 4, "carry": 0, "lut_levels": %s, "cells": {}, "path_file": "%s"}\n' \
    "$2" "$1" "$tmp/path.txt" > "$tmp/rep.json"
  bitstream-scripts/synth/synth_cache.py record rnic_core-100g "$tmp/rep.json" &&
    bitstream-scripts/synth/synth_cache.py install rnic_core-100g > /dev/null
}
use() { PATH=$tmp/bin:$PATH SYNTH_CACHE=use SYNTH_CONFIG=100g bitstream-scripts/synth/synth.sh rnic_core $srcs > "$tmp/use.out" 2>&1; }
record 5 99999
use; st=$?
why="exit $st, yosys runs $(runs): $(tr '\n' ' ' < "$tmp/use.out")"
check synth-cache-hit-gates-without-yosys test $st -eq 0 -a "$(runs)" -eq 0
why="$(head -3 "$tmp/use.out" | tr '\n' ' ')"
check synth-cache-hit-says-cached grep -q "^synth rnic_core-100g: cached (hash ${k0:0:12}" "$tmp/use.out"
why="no ceiling/floor lines"; check synth-cache-hit-checks-ceiling-and-floors \
  grep -q 'LUT levels 5 <= ceiling' "$tmp/use.out"
grep -q 'floors kept: FF 99999' "$tmp/use.out" || fail synth-cache-hit-checks-floors "no floors line"
record 99 99999; use; st=$?
why="exit $st: $(tr '\n' ' ' < "$tmp/use.out")"
check synth-cache-hit-fails-over-ceiling test $st -ne 0 -a "$(runs)" -eq 0
grep -q 'FAILED LUT levels: 99' "$tmp/use.out" || fail synth-cache-hit-over-ceiling-message "$(cat "$tmp/use.out")"
record 5 10; use; st=$?
why="exit $st: $(tr '\n' ' ' < "$tmp/use.out")"
check synth-cache-hit-fails-below-floor test $st -ne 0 -a "$(runs)" -eq 0 -a -n "$(grep 'FAILED floor' "$tmp/use.out")"
# stale: one RTL byte changed after the record was made; Yosys must run (the fake one fails)
record 5 99999
python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[len(b)//2] ^= 0x01; open(p,'wb').write(b)" "$f"
use; st=$?
why="exit $st, yosys runs $(runs): $(tr '\n' ' ' < "$tmp/use.out")"
check synth-cache-stale-runs-yosys test "$(runs)" -eq 1 -a $st -ne 0
why="$(head -2 "$tmp/use.out" | tr '\n' ' ')"
check synth-cache-stale-names-the-change grep -q "cache record STALE.*changed $f" "$tmp/use.out"
[ -z "${SHOW:-}" ] || cat "$tmp/use.out"
exit $rc
