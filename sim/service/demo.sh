#!/usr/bin/env bash
# make demo: two simulated NICs (the verilated RTL and the firmware, cycle-accurate), and two
# unmodified Debian programs between them: ibv_rc_pingpong, then perftest's ib_write_bw. Then a
# short report: what ran, what each printed, and the simulator's own figures in simulated time.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/demo
rm -rf "$out"
mkdir -p "$out/pingpong" "$out/write_bw"
pair=$root/sim/service/run-pair.sh
echo "demo: two simulated NICs rnic0/rnic1 (250 MHz, 512-bit, 100 Gb/s link, PCIe 500 ns reads)"
echo "demo: running ibv_rc_pingpong (4 KiB x 50) and ib_write_bw (64 KiB x 100) between them..."
"$root/sim/rnic-sim" run --pcap "$out/demo.pcap" --timeout 600 -- bash -c "
  '$pair' '$out/pingpong' 18515 'ibv_rc_pingpong -d rnic0 -g 1 -s 4096 -n 50 -r 16 -p 18515' \
                                 'ibv_rc_pingpong -d rnic1 -g 1 -s 4096 -n 50 -r 16 -p 18515 127.0.0.1'
  '$pair' '$out/write_bw' 18516 'ib_write_bw -d rnic0 -x 1 -F -s 65536 -n 100 -p 18516' \
                                 'ib_write_bw -d rnic1 -x 1 -F -s 65536 -n 100 -p 18516 127.0.0.1'
  test \"\$(cat '$out/pingpong/client.rc' '$out/pingpong/server.rc' '$out/write_bw/client.rc' '$out/write_bw/server.rc')\" = \"\$(printf '0\n0\n0\n0')\"
" > "$out/sim.out" 2>&1
rc=$?
echo
echo "--- ibv_rc_pingpong (client on rnic1; its times are wall-clock times of the simulation) ---"
grep -E "address|bytes in|iters in|Failed|Couldn't" "$out/pingpong/client.out"
echo "--- ib_write_bw (client on rnic1; MB/sec is measured by perftest in wall-clock time) ---"
awk '/^ #bytes/ {print; getline; print}' "$out/write_bw/client.out"
grep -E "Couldn't|Unable|Failed|error" "$out/write_bw/client.out" "$out/write_bw/server.out"
echo "--- the simulator's report (simulated time at 250 MHz: the NIC's own performance) ---"
grep '^rnic-sim' -A100 "$out/sim.out" | grep -v '^--$'
echo
if [ $rc -eq 0 ]; then echo "demo: done (outputs in $out, link capture $out/demo.pcap)"; else echo "demo: FAILED (status $rc, see $out)"; fi
exit $rc
