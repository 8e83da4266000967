# tb/common/rtl_mutants.sh: sourced by a block's mutants.sh. The block's testbench must fail each
# one-line mutation of its RTL file: each mutant is built in its own directory ($build/mut-N) from a
# copy of the RTL with the sed expression applied (the real RTL is not touched) and run with the
# block's seed and operation count. One PASS line per mutation caught, FAIL for one let through,
# for one that no longer applies (the RTL changed) or that does not build.
# Set before calling: build (the block's build dir), src (the RTL file), seed, ops, rerun (the make
# target that reruns the check); muts: "name|sed expression" entries. Usage: rtl_mutants "${muts[@]}"
rtl_mutants() {
  local top rc=0 i=0 m name expr dir
  top=$(basename "$src" .sv)
  for m in "$@"; do
    name=${m%%|*}; expr=${m#*|}; i=$((i + 1))
    dir=$build/mut-$i; mkdir -p "$dir/rtl"
    sed "$expr" "$src" > "$dir/rtl/$top.sv"
    if cmp -s "$src" "$dir/rtl/$top.sv"; then
      echo "FAIL mutant-$name the mutation did not apply (the RTL changed: update $0)"; rc=1; continue
    fi
    if ! make --no-print-directory -s "$dir/V$top" > "$dir/build.log" 2>&1; then
      echo "FAIL mutant-$name did not build (see $dir/build.log)"; rc=1; continue
    fi
    if "$dir/V$top" --seed "$seed" --ops "$ops" > "$dir/run.log" 2>&1; then
      echo "FAIL mutant-$name the testbench passed the mutated RTL (seed $seed, $ops operations)"; rc=1
    else
      echo "PASS mutant-$name caught: $(grep -m1 '^FAIL' "$dir/run.log" | cut -c1-150)"
    fi
  done
  [ $rc -eq 0 ] || echo "RERUN make $rerun"
  return $rc
}
