#!/usr/bin/env bash
# run-tests.sh SIM FWDIR "TESTS": runs the rv_cpu suite: firmware tests (fast and slow/random
# MMIO latency) and the random-program lock-step test over several seeds.
set -uo pipefail
sim=$1; fw=$2; tests=$3
rc=0
run() { "$@" || rc=1; }
for t in $tests; do
  run "$sim" elf "$fw/$t.elf" --seed 1 --lat 0,1 --max-cycles 5000000
  run "$sim" elf "$fw/$t.elf" --seed 7 --lat 4,12 --max-cycles 5000000
done
total=0
for seed in 1 2 3 4 5 6 7 8 9 10; do
  lat="0,1"; [ $((seed % 2)) -eq 0 ] && lat="3,8"
  out=$("$sim" random --seed "$seed" --count 500000 --lat "$lat") || rc=1
  echo "$out"
  n=$(echo "$out" | sed -n 's/^PASS random-seed[0-9]* \([0-9]*\) instructions.*/\1/p')
  total=$((total + ${n:-0}))
done
for seed in 11 12 13 14 15; do
  # interrupt mode: irq_ext_i raised 1..N cycles after each clear, mepc/mcause compared via the handler
  out=$("$sim" random --seed "$seed" --count 200000 --irq $((seed * 20)) --lat "$((seed % 3)),$((seed - 6))") || rc=1
  echo "$out"
  n=$(echo "$out" | sed -n 's/^PASS random-seed[0-9]*-irq \([0-9]*\) instructions.*/\1/p')
  total=$((total + ${n:-0}))
done
for seed in 16 17 18 19; do
  # the second window on the tightly coupled port: loads answered 1..N cycles later (N = 1, 2, 3, 4)
  irqa=""; [ "$seed" -ge 18 ] && irqa="--irq 40"
  out=$("$sim" random --seed "$seed" --count 200000 --tc $((seed - 15)) $irqa) || rc=1
  echo "$out"
  n=$(echo "$out" | sed -n 's/^PASS random-seed[0-9]*\(-irq\)\{0,1\}-tc \([0-9]*\) instructions.*/\2/p')
  total=$((total + ${n:-0}))
done
echo "# random lock-step: $total instructions retired and compared (seeds 1-10: 500k each; seeds 11-15 with interrupts: 200k each; seeds 16-19 through the tightly coupled port: 200k each)"
if [ "$total" -ge 1000000 ]; then echo "PASS random-total $total"; else echo "FAIL random-total only $total"; rc=1; fi
exit $rc
