#!/usr/bin/env bash
# trace-compare.sh OLD_RNIC_SIM NEW_RNIC_SIM [OUTDIR]: runs a fixed set of rnic_sim programs on
# both binaries with RNIC_TRACE_HASH set and compares every node's port trace hash (all port
# handshakes with their cycle, see sim/nic/rnic_node.h). A speed change to the RTL, the flags or
# the transactors must print PASS here: the same traffic at the same cycles, byte for byte.
set -uo pipefail
old=$1 new=$2 out=${3:-build/trace-compare}
mkdir -p "$out"
fw=build/firmware/fw.img
runs=(
  "test-bar0"
  "test-cmdq"
  "test-rdma 1"
  "test-rdma 4 0.05 0.05 0.05 0.05"
  "test-rdma 5 0.01 0 0 0 --hostile"
  "test-rdma-ops 1"
  "test-rdma-mtu 7 --faults 0.05 0.05 0.05 0.05"
  "test-rdma-qps 1 --qps 16 --pace 0"
  "bench-rdma $out/bench --quick"
)
rc=0
for r in "${runs[@]}"; do
  tag=$(echo "$r" | tr ' /' '__' | cut -c1-60)
  mkdir -p "$out/bench"
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    RNIC_TRACE_HASH=1 $bin $r > "$out/$tag.$side.log" 2>&1
    grep 'port trace hash' "$out/$tag.$side.log" > "$out/$tag.$side.hash"
  done
  if [ -s "$out/$tag.old.hash" ] && cmp -s "$out/$tag.old.hash" "$out/$tag.new.hash"; then
    echo "PASS trace-same $r ($(wc -l < "$out/$tag.new.hash") nodes, $(awk '{s+=$(NF-1)} END {print s}' "$out/$tag.new.hash") cycles)"
  else
    echo "FAIL trace-same $r"; diff "$out/$tag.old.hash" "$out/$tag.new.hash" | head -5; rc=1
  fi
done
exit $rc
