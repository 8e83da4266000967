#!/usr/bin/env bash
# synth.sh TOP FILES...: Yosys synth_xilinx (UltraScale+) of one top; reports in build/synth/.
# SYNTH_CONFIG=NAME sets TOP's parameters from bitstream-scripts/configs/NAME.cfg (reports named
# TOP-NAME); SYNTH_LIBS="FILES" are read as black boxes (only their ports: a board top is
# synthesized around rnic_core without synthesizing the core again).
# Fails below the flip-flop/RAM floor of floors.txt, and on the Yosys warnings that mean a wire
# the RTL uses has no driver, was never declared or was connected at another width
# (yosys_warnings.py, reviewed exceptions in warnings-allow.txt): Yosys synthesizes those anyway
# (as undriven nets, 1-bit wires or truncated ports), so they would pass silently.
# SYNTH_CACHE (synth_cache.py, docs/development.md "Synthesis cache"): `use` takes the figures of
# the committed record cache/NAME.json when its key (hash of every input) is the current one and
# gates them without running Yosys; `write` runs Yosys and writes the record; `refresh` writes
# the record from the last run's (build/synth/NAME.record.json) if its key is current, else runs
# Yosys; `key` prints the key and stops. Every Yosys run leaves build/synth/NAME.record.json.
set -euo pipefail
top=$1; shift
out=${SYNTH_OUT:-build/synth}; mkdir -p "$out"
export SYNTH_OUT=$out
here=$(dirname "$0")
name=$top
reads=""
for f in "$@"; do reads+="read_verilog -sv $f; "; done
for f in ${SYNTH_LIBS:-}; do reads+="read_verilog -sv -lib $f; "; done
pre=""
if [ -n "${SYNTH_CONFIG:-}" ]; then
  pre="$("$(dirname "$0")/../configs/cfg.py" "$SYNTH_CONFIG" yosys "$top")"
  name=$top-$SYNTH_CONFIG
fi
cache=${SYNTH_CACHE:-}
# the key of the inputs as they are now, before Yosys reads them (build/synth/NAME.key.json)
key=$("$here/synth_cache.py" key "$name" "$top" "${SYNTH_CONFIG:-}" "$pre" "${SYNTH_LIBS:-}" -- "$@")
[ "$cache" != key ] || { echo "$key"; exit 0; }   # `make synth-key-CONFIG`: the key alone
if [ -n "$cache" ]; then
  if [ "$cache" = use ] && "$here/synth_cache.py" lookup "$name" | tee "$out/$name.summary"; then
    python3 "$here/resources.py" floor "$name" "$out/$name.json" | tee -a "$out/$name.summary"
    exit "${PIPESTATUS[0]}"
  fi
  if [ "$cache" = refresh ] && "$here/synth_cache.py" install "$name"; then
    exit 0
  fi
fi
# YOSYS_FLAGS="-d" adds the per-pass CPU table to the log (where the time goes)
if ! yosys ${YOSYS_FLAGS:-} -q -l "$out/$name.log" -p "${reads} ${pre}; synth_xilinx -flatten -family xcup -top $top; \
     tee -o $out/$name.stat.txt stat; write_json $out/$name.netlist.json" > /dev/null 2>&1; then
  echo "synth $name: FAILED (see $out/$name.log)"; tail -5 "$out/$name.log"; exit 1
fi
# undriven, implicitly declared or resized signals (yosys_warnings.py; reviewed exceptions in
# warnings-allow.txt, each with its reason)
if ! python3 "$here/yosys_warnings.py" "$out/$name.log" > "$out/$name.undriven.txt"; then
  echo "synth $name: FAILED: undriven, implicitly declared or resized signals (Yosys warnings;"\
       "reviewed exceptions: bitstream-scripts/synth/warnings-allow.txt):"
  head -20 "$out/$name.undriven.txt"; exit 1
fi
python3 "$(dirname "$0")/synth_report.py" "$top" "$out/$name.netlist.json" "$out/$name.json" | \
  sed "s/^synth $top:/synth $name:/" | tee "$out/$name.summary"
# flip-flops and RAM must not fall below the recorded floor (floors.txt: lost storage)
python3 "$(dirname "$0")/resources.py" floor "$name" "$out/$name.json" | tee -a "$out/$name.summary"
rc=${PIPESTATUS[0]}
"$here/synth_cache.py" record "$name" "$out/$name.json"
case $cache in
  write|refresh) [ "$rc" -ne 0 ] || "$here/synth_cache.py" install "$name" ;;
  use) echo "synth $name: the record is stale: refresh it with \`make synth-cache\` (writes the" \
         "record of this run, no second synthesis) and commit bitstream-scripts/synth/cache/$name.json" \
         "and docs/resources.md" | tee -a "$out/$name.summary" ;;
esac
exit "$rc"
