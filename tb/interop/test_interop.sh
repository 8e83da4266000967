#!/usr/bin/env bash
# Suite interop: our simulated NIC against Linux Soft-RoCE (rxe) in a QEMU guest (TCG), the
# stock Debian kernel and rdma-core, over the simulator's external frame port (docs/interop.md).
#
# Usage: test_interop.sh [--long] [REGEX]: only the sessions whose name matches REGEX.
# A session is one simulator (`rnic_sim run --ext`, rnic0 = 10.0.0.1) and one guest boot
# (rxe0 on eth0 = 10.0.0.2). Its cases run one after the other in the guest as clients; their
# servers run on the host side against rnic0 through the service, all started before the guest
# boots (QEMU connects each out-of-band guestfwd target once, at start-up). Per session it
# checks every case's output, then the evidence: rxe's hw_counters against the NIC's frame
# counters and the link's, the guest kernel log (no rxe/ICRC complaint), the link capture
# (pcap_icrc.py: ICRC and headers of every RoCE frame; tshark: decodes as RoCE, nothing malformed).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
long=0
[ "${1:-}" = --long ] && { long=1; shift; }
filter=${1:-.}
out=$root/build/interop
sim=$root/build/sim/rnic_sim
mkdir -p "$out"
failures=0
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1 $2"
  echo "RERUN tb/interop/test_interop.sh$([ $long = 1 ] && echo ' --long') '^$3\$'   (outputs in build/interop/$3/)"
  failures=$((failures + 1))
}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# ---- the guest: kernel and initramfs (cached by kernel ABI and inputs) ----------------------------
if ! command -v qemu-system-x86_64 > /dev/null; then
  echo "FAIL interop-qemu qemu-system-x86_64 not installed (scripts/install-deps.sh installs qemu-system-x86)"
  echo "RERUN make test-interop"
  exit 1
fi
if ! read -r kv kroot < <(sim/guest/guest-kernel.sh "$root/build/guest"); then
  echo "FAIL interop-kernel cannot find or fetch Debian's linux-image-amd64"
  echo "RERUN make test-interop"
  exit 1
fi
initrd=$root/build/guest/initramfs-$kv.gz
progs=("$root/build/interop-bin/ix_rdma")
if [ ! -f "$initrd" ] || [ -n "$(find sim/guest/init sim/guest/mkinitramfs.sh "${progs[@]}" -newer "$initrd" 2>/dev/null)" ]; then
  sim/guest/mkinitramfs.sh "$kroot" "$kv" "$initrd" "${progs[@]}" || {
    echo "FAIL interop-initramfs mkinitramfs.sh failed"
    echo "RERUN make test-interop"
    exit 1
  }
fi
kernel=$kroot/boot/vmlinuz-$kv
# QEMU must start. No boot of its own to find out (a whole kernel boot, ~10 CPU s under TCG):
# the first session's guest tells (run-guest.sh exits 3 when QEMU itself could not start).
booted=0
qemu_cannot_start() {
  # Only when QEMU itself cannot run (never on the project's machines: CI fails instead).
  if [ "${CI:-}" = true ]; then
    echo "FAIL interop-qemu QEMU cannot start: $(head -3 "$1" | tr '\n' ' ')"
    echo "RERUN make test-interop"
    exit 1
  fi
  echo "SKIP interop: QEMU cannot start on this machine: $(head -3 "$1" | tr '\n' ' ')"
  exit 0
}

# ---- sessions -----------------------------------------------------------------------------------
# TCP ports on 127.0.0.1 for this run: base+i the guestfwd target of case i, base+20+i its
# hostfwd port (cases whose server runs in the guest).
base=$((20000 + ($$ % 1000) * 40))
CASES=()
# case NAME "HOST_SERVER_CMD" "GUEST_CLIENT_CMD" CHECK: the server gets "-p PORT", the client
# "-p PORT 10.0.2.100" (the out-of-band address that guestfwd maps to the host's PORT); in both,
# @GID@ is the GID index of the side's IPv4 address. CHECK names a check_* function below.
# A GUEST_CLIENT_CMD starting with "REV " turns the roles round (our NIC as the requester of a
# perftest stream, whose requester is perftest's client): the guest runs it as the server
# (rev_guest.sh), the host runs HOST_SERVER_CMD as the client once the guest says it listens
# (on_go.py), through a hostfwd rule; check_*_rev read the host side's output.
case_() { CASES+=("$1|$2|$3|$4"); }

# pingpong SIZE ITERS: both sides say "N bytes in" (N = size x iters x 2) and "ITERS iters in";
# -c had each side compare every received buffer with the sender's pattern.
check_pingpong() {
  local d=$1 c=$2 size=$3 iters=$4 f
  for f in "$d/$c.server.out" "$d/$c.client.out"; do
    grep -q "^$((size * iters * 2)) bytes in " "$f" && grep -q "^$iters iters in " "$f" || {
      echo "$(basename "$f"): want $((size * iters * 2)) bytes and $iters iters: $(tail -2 "$f" | tr '\n' ' ')"
      return 1
    }
  done
}
# perftest SIZE ITERS [SIDE]: the client's result line has the size and the iteration count
# (SIDE server: a REV case, whose perftest client runs on the host side).
check_perf() {
  local d=$1 c=$2 size=$3 iters=$4 side=${5:-client} l
  l=$(awk '/^ #bytes/ {getline; print; exit}' "$d/$c.$side.out")
  read -r b it _ <<< "$l"
  [ "$b" = "$size" ] && [ "$it" = "$iters" ] || { echo "perftest client ($side side) result line '$l': want $size bytes, $iters iterations"; return 1; }
}

# own_results SESSION DIR CASE WANT: ix_rdma's PASS/FAIL lines of both sides, named
# SESSION.CASE.SIDE.CHECK, and WANT of them passed on each side.
own_results() {
  local name=$1 d=$2 c=$3 want=$4 f got r rest
  for f in server client; do
    while read -r r rest; do
      echo "$r $rest"
      [ "$r" = PASS ] || echo "RERUN tb/interop/test_interop.sh '^$name\$'   (outputs in build/interop/$name/)"
    done < <(sed -n 's/^\(PASS\|FAIL\) \(.*\)/\1 '"$name.$c.$f"'.\2/p' "$d/$c.$f.out")
    got=$(grep -c '^PASS ' "$d/$c.$f.out")
    [ "$got" = "$want" ] || fail "$name.$c.$f" "$got checks passed, want $want" "$name"
  done
}

# session NAME ETH_MTU "SIM ARGS" [WALL_LIMIT_S]: the simulator's and the guest's wall-time
# limit (default 600 s).
session() {
  local name=$1 mtu=$2 simargs=$3 wall=${4:-600} d=$out/$1 i n=${#CASES[@]}
  if ! [[ $name =~ $filter ]]; then CASES=(); return; fi
  rm -rf "$d"; mkdir -p "$d"
  local hs=$d/host.sh gs=$d/guest.sh fwd=() c srv cli chk
  # Host side: every server in the background, each on its own TCP port.
  {
    echo 'cd "$(dirname "$0")"'
    for ((i = 0; i < n; i++)); do
      IFS='|' read -r c srv cli chk <<< "${CASES[$i]}"
      srv=${srv//@GID@/1}
      srv=${srv/#ix_rdma/$root/build/interop-bin/ix_rdma}
      [[ $cli == REV\ * ]] && srv="python3 $root/tb/interop/on_go.py $srv"
      echo "( $srv -p $((base + i)) > $c.server.out 2>&1; echo \$? > $c.server.rc ) &"
    done
    echo wait
  } > "$hs"
  # Guest side: the clients in order, then the evidence.
  {
    # The IPv4 GID's index (the table is filled from a workqueue: poll). Only the first few
    # entries: every read of the 1024-entry table costs a process under TCG.
    echo 'G=/sys/class/infiniband/rxe0/ports/1/gids'
    echo 'for t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do'
    echo '  for i in 0 1 2 3; do case $(cat $G/$i 2>/dev/null) in 0000:0000:0000:0000:0000:ffff:*) IDX=$i; break;; esac; done'
    echo '  [ -n "$IDX" ] && break; sleep 0.1; done'
    # No neighbour entry is pinned: the guest resolves 10.0.0.1 by ARP, answered by the NIC's
    # firmware (firmware/app/fw_arp.c); the evidence below counts those frames.
    echo 'H=/sys/class/infiniband/rxe0/ports/1/hw_counters'
    echo 'ibv_devinfo -d rxe0 > devinfo.out 2>&1'
    for ((i = 0; i < n; i++)); do
      IFS='|' read -r c srv cli chk <<< "${CASES[$i]}"
      cli=${cli//@GID@/\$IDX}
      cli=${cli/#REV /sh rev_guest.sh }
      echo "echo \"[guest] case $c start \$(cut -d' ' -f1 /proc/uptime)\""
      echo "$cli -p $((base + i)) 10.0.2.100 > $c.client.out 2>&1; echo \$? > $c.client.rc"
      echo "for f in \$H/*; do echo \"\${f##*/} \$(cat \$f)\"; done > $c.counters"
    done
    echo 'for f in $H/*; do echo "${f##*/} $(cat $f)"; done > final.counters'
    echo 'dmesg > dmesg.out'
    echo 'echo "[guest] done $(cut -d" " -f1 /proc/uptime)"'
  } > "$gs"
  for ((i = 0; i < n; i++)); do
    fwd+=(--oob "tcp:10.0.2.100:$((base + i))-tcp:127.0.0.1:$((base + i))")
    IFS='|' read -r c srv cli chk <<< "${CASES[$i]}"
    [[ $cli == REV\ * ]] && fwd+=(--hostfwd "tcp:127.0.0.1:$((base + 20 + i))-10.0.2.15:$((base + 20 + i))")
  done
  cp tb/interop/rev_guest.sh "$d/"
  local t0=$SECONDS
  # shellcheck disable=SC2086
  # The RoCE port: a UNIX stream socket (flow-controlled; UDP lost frames when QEMU's socket
  # buffer filled under a 1 MiB burst at MTU 4096).
  local sock
  sock=$(mktemp -u /tmp/rnic-interop.XXXXXX.sock)
  "$sim" run --ext-stream "$sock" --ext-peer 10.0.0.2=52:54:00:00:00:02 --pcap "$d/link.pcap" \
    --timeout "$wall" $simargs -- sh "$hs" > "$d/sim.out" 2>&1 &
  local spid=$!
  listening() { grep -qi ":$(printf %04X "$1") 00000000:0000 0A" /proc/net/tcp 2>/dev/null; }
  for ((i = 0; i < n; i++)); do
    for _ in $(seq 1 600); do listening $((base + i)) && break; kill -0 $spid 2>/dev/null || break; sleep 0.1; done
  done
  sim/guest/run-guest.sh --kernel "$kernel" --initrd "$initrd" --share "$d" --test guest --roce-stream "$sock" \
    --roce-mtu "$mtu" "${fwd[@]}" --log "$d/console.log" --timeout "$wall"
  local grc=$?
  # The servers end with their clients; a server whose client failed would wait: stop it then.
  for _ in $(seq 1 100); do kill -0 $spid 2>/dev/null || break; sleep 0.2; done
  kill $spid 2>/dev/null
  wait $spid
  rm -f "$sock"
  [ $grc = 3 ] && [ $booted = 0 ] && qemu_cannot_start "$d/console.log"
  booted=1
  echo "# session $name: $((SECONDS - t0)) s wall (guest rc $grc)"
  # Per case: exit statuses and output.
  for ((i = 0; i < n; i++)); do
    IFS='|' read -r c srv cli chk <<< "${CASES[$i]}"
    local src crc why
    src=$(cat "$d/$c.server.rc" 2>/dev/null || echo none) crc=$(cat "$d/$c.client.rc" 2>/dev/null || echo none)
    if [ "$src" != 0 ] || [ "$crc" != 0 ]; then
      fail "$name.$c" "exit status server $src client $crc: $(tail -2 "$d/$c.client.out" "$d/$c.server.out" 2>/dev/null | tr '\n' ' ' | cut -c1-300)" "$name"
    elif [[ $chk == ix:* ]]; then
      # ix_rdma's own result lines, both sides (7 per size, 3 atomics and the RNR send per side).
      own_results "$name" "$d" "$c" "${chk#ix:}"
      # Its RNR case went both ways: rxe sent and received RNR NAKs, and so did the NIC.
      local snd rcv nic
      snd=$(awk '$1=="send_rnr_err"{print $2}' "$d/$c.counters") rcv=$(awk '$1=="rcvd_rnr_err"{print $2}' "$d/$c.counters")
      nic=$(grep -o 'rx_rnr_sent [0-9]*' "$d/sim.out" | awk '{print $2}')
      if [ "${snd:-0}" -gt 0 ] && [ "${rcv:-0}" -gt 0 ] && [ "${nic:-0}" -gt 0 ]; then
        pass "$name.$c.rnr-both-ways"
        echo "# $name.$c: rxe send_rnr_err $snd rcvd_rnr_err $rcv (after this case), NIC rx_rnr_sent $nic (whole session)"
      elif [[ $simargs == *--loss* ]]; then
        # On a lossy link the RNR case's first SEND can be lost; its retransmission (an ACK
        # timeout later, ~16 s of guest wall time) lands after the receive was posted, so no RNR
        # NAK is due. The SEND itself is checked byte for byte (rnr-send above); clean sessions
        # require the NAKs both ways.
        echo "INFO $name.$c.rnr-both-ways not required on a lossy link: rxe send_rnr_err ${snd:-?} rcvd_rnr_err ${rcv:-?}, NIC rx_rnr_sent ${nic:-?}"
      else
        fail "$name.$c.rnr-both-ways" "rxe send_rnr_err ${snd:-?} rcvd_rnr_err ${rcv:-?}, NIC rx_rnr_sent ${nic:-?}: want all > 0" "$name"
      fi
    elif [[ $chk == ud:* ]]; then
      # ix_rdma -u: its result lines, both sides, then the datagram accounting (check_ud).
      own_results "$name" "$d" "$c" "${chk#ud:}"
      if why=$(check_ud "$d" "$c"); then pass "$name.$c.accounting"; else fail "$name.$c.accounting" "$why" "$name"; fi
    elif why=$($chk "$d" "$c"); then
      pass "$name.$c"
    else
      fail "$name.$c" "$why" "$name"
    fi
  done
  evidence "$name" "$d" "$simargs"
  CASES=()
}

# rnr_ok COUNTERS SIM_OUT LOST: the RNR NAKs the NIC sent (rx_rnr_sent) reached rxe
# (rcvd_rnr_err): all of them on a clean link, no more than were sent on a lossy one.
rnr_ok() {
  nic_rnr=$(grep -o 'rx_rnr_sent [0-9]*' "$2" | awk '{print $2}')
  rxe_rnr=$(awk '$1=="rcvd_rnr_err"{print $2}' "$1")
  [ "$3" = 0 ] && [ "${nic_rnr:-0}" = "${rxe_rnr:-0}" ] || { [ "$3" != 0 ] && [ "${rxe_rnr:-0}" -le "${nic_rnr:-0}" ]; }
}

# Counters of both ends and the capture must account for every frame.
evidence() {
  local name=$1 d=$2 last
  last=$d/final.counters
  if [ ! -s "$last" ]; then
    fail "$name.evidence" "no hw_counters from the guest" "$name"
    return
  fi
  local nic_rnr rxe_rnr sent rcvd nic_rx nic_tx nic_fw_rx nic_fw_tx arp_from_guest arp_to_guest link_out written lost0 link_in read lost1
  sent=$(awk '$1=="sent_pkts"{print $2}' "$last") rcvd=$(awk '$1=="rcvd_pkts"{print $2}' "$last")
  nic_rx=$(grep -o 'rx_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  nic_tx=$(grep -o 'tx_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  nic_fw_rx=$(grep -o 'rx_fw_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  nic_fw_tx=$(grep -o 'tx_fw_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  read -r link_out written lost0 link_in read lost1 < <(sed -n 's/.*nic0->socket \([0-9]*\) (written \([0-9]*\), lost \([0-9]*\)), socket->nic0 \([0-9]*\) (read \([0-9]*\), lost \([0-9]*\)).*/\1 \2 \3 \4 \5 \6/p' "$d/sim.out")
  local pc roce_to_guest roce_from_guest rep_to_guest
  roce_to_guest=$(tshark -r "$d/link.pcap" -Y 'udp.dstport==4791 && eth.dst==52:54:00:00:00:02' -T fields -e frame.number 2>/dev/null | wc -l)
  roce_from_guest=$(tshark -r "$d/link.pcap" -Y 'udp.dstport==4791 && eth.src==52:54:00:00:00:02' -T fields -e frame.number 2>/dev/null | wc -l)
  arp_to_guest=$(tshark -r "$d/link.pcap" -Y 'arp.opcode==2 && eth.dst==52:54:00:00:00:02 && arp.src.proto_ipv4==10.0.0.1' -T fields -e frame.number 2>/dev/null | wc -l)
  arp_from_guest=$(tshark -r "$d/link.pcap" -Y 'arp && eth.src==52:54:00:00:00:02' -T fields -e frame.number 2>/dev/null | wc -l)
  rep_to_guest=$(python3 tb/interop/pcap_icrc.py "$d/link.pcap" | awk '$1=="to" && $2=="52:54:00:00:00:02" {print $6}')
  echo "# $name counters: rxe sent_pkts $sent rcvd_pkts $rcvd; NIC rx_frames $nic_rx tx_frames $nic_tx; link guest->nic $link_in (lost $lost1) nic->guest $link_out (lost $lost0, written $written); pcap RoCE guest->nic $roce_from_guest nic->guest $roce_to_guest (repeats ${rep_to_guest:-?}); ARP guest->nic $arp_from_guest (NIC queued $nic_fw_rx) replies nic->guest $arp_to_guest (NIC sent $nic_fw_tx)"
  grep -h -E '^(rcvd_seq_err|duplicate_request|out_of_seq_request|completer_retry_err|retry_exceeded_err|rcvd_rnr_err|send_rnr_err|ack_deferred|lifespan) ' "$last" | tr '\n' ' ' | sed 's/^/# rxe: /;s/$/\n/'
  # Every frame accounted for. Guest to NIC: what rxe sent the bridge read and the link carried
  # (the capture is the sender's view, lost frames included); the NIC received that less the
  # link's losses. NIC to guest: the NIC's frames are on the link, the bridge wrote them less the
  # losses, and rxe counted all of those but at most the repeats (same DestQP, PSN and opcode as
  # an earlier frame): rxe drops a response for a QP that has gone or moved on before counting
  # it (rxe_rcv: hdr_check before rcvd_pkts), which is where the answers to its own spurious
  # retransmissions end (docs/interop.md). Beside the RoCE frames the link carries the guest's
  # ARP requests (each taken into the NIC's firmware queue: nothing else on the link is ARP,
  # the queue overflows only under a burst) and the firmware's replies (tx_fw_frames, not in
  # tx_frames; rcvd_pkts does not count them).
  if [ -z "$sent" ] || [ -z "$read" ] || [ -z "$rep_to_guest" ] || [ -z "$nic_fw_tx" ] || [ "$read" != "$link_in" ] ||
    [ "$sent" != "$roce_from_guest" ] || [ "$read" != "$((sent + arp_from_guest))" ] || [ "$nic_rx" != "$((link_in - lost1))" ] ||
    [ "$arp_from_guest" = 0 ] || [ "$arp_to_guest" = 0 ] || [ "$nic_fw_tx" != "$arp_to_guest" ] ||
    [ "$nic_fw_rx" -gt "$arp_from_guest" ] || [ "$nic_fw_tx" -gt "$nic_fw_rx" ] ||
    [ "$link_out" != "$((nic_tx + nic_fw_tx))" ] || [ "$nic_tx" != "$roce_to_guest" ] || [ "$written" != "$((link_out - lost0))" ] ||
    [ "$rcvd" -gt "$written" ] || [ "$rcvd" -lt "$((written - arp_to_guest - rep_to_guest))" ]; then
    fail "$name.counters" "rxe sent $sent rcvd $rcvd, NIC rx $nic_rx tx $nic_tx, link in $link_in/$read lost $lost1 out $link_out/$written lost $lost0, pcap guest->nic $roce_from_guest nic->guest $roce_to_guest (repeats $rep_to_guest), ARP guest->nic $arp_from_guest NIC queued ${nic_fw_rx:-?} sent ${nic_fw_tx:-?} replies in pcap $arp_to_guest" "$name"
  elif [ "$((lost0 + lost1))" = 0 ] &&
    [ "$(awk '$1=="rcvd_seq_err"||$1=="duplicate_request"||$1=="out_of_seq_request"||$1=="retry_exceeded_err"{s+=$2} END{print s+0}' "$last")" != 0 ]; then
    fail "$name.counters" "rxe sequence/duplicate/retry counters not 0 on a clean link: $(grep -E 'seq|dup|retry' "$last" | tr '\n' ' ')" "$name"
  elif [[ $3 == *--loss* ]] && [ "$((lost0 + lost1))" = 0 ]; then
    fail "$name.counters" "a lossy session in which the link lost no frame: it tested nothing" "$name"
  elif [ "$(awk '$1=="retry_exceeded_err"||$1=="retry_rnr_exceeded_err"{s+=$2} END{print s+0}' "$last")" != 0 ]; then
    fail "$name.counters" "rxe gave up retrying: $(grep -E 'exceeded' "$last" | tr '\n' ' ')" "$name"
  elif ! rnr_ok "$last" "$d/sim.out" "$((lost0 + lost1))"; then
    fail "$name.counters" "RNR NAKs: NIC rx_rnr_sent ${nic_rnr:-0}, rxe rcvd_rnr_err $rxe_rnr: want equal on a clean link, rxe's at most the NIC's on a lossy one" "$name"
  else
    pass "$name.counters"
  fi
  # The NIC dropped no frame as malformed or for want of room: no runt/oversize/no-room
  # (rx_drop_trunc), bad ICRC, IPv4, UDP or BTH (transport drops such as duplicates are the retry
  # accounting's business). rxe's datagram bursts in the UD sessions arrive back to back; the
  # pause headroom holds them (docs/decisions/link-pause.md; tb/sys/test_pause_burst.cpp).
  local nicdrops
  nicdrops=$(grep -o -E 'rx_drop_(trunc|icrc|ipv4_hdr|ipv4_csum|udp|bth) [0-9]+' "$d/sim.out" | grep -v ' 0$' | tr '\n' ' ')
  if [ -z "$nicdrops" ]; then
    pass "$name.nic-drops"
  else
    fail "$name.nic-drops" "the NIC dropped frames: $nicdrops" "$name"
  fi
  if [ ! -s "$d/dmesg.out" ]; then
    fail "$name.dmesg" "no guest kernel log" "$name"
  elif { grep -i -E 'icrc|rxe|rdma|infiniband|ib_core|ib_uverbs' "$d/dmesg.out"; grep -E 'WARNING:|BUG:|Oops:' "$d/dmesg.out"; } |
    grep -v -E 'rdma_rxe: loaded|infiniband rxe0: (set active|added eth0)' > "$d/dmesg.bad"; then
    fail "$name.dmesg" "$(head -2 "$d/dmesg.bad" | tr '\n' ' ')" "$name"
  else
    pass "$name.dmesg"
  fi
  if pc=$(python3 tb/interop/pcap_icrc.py "$d/link.pcap" 2>&1); then
    pass "$name.pcap-icrc"
  else
    fail "$name.pcap-icrc" "$(echo "$pc" | tail -3 | tr '\n' ' ')" "$name"
  fi
  local malformed total
  total=$(tshark -r "$d/link.pcap" -Y infiniband -T fields -e frame.number 2>/dev/null | wc -l)
  # RPC-over-RDMA's heuristic claims small SENDs (ix_rdma's 1-byte one) and calls them malformed.
  malformed=$(tshark --disable-protocol rpcordma -r "$d/link.pcap" -Y '_ws.malformed || _ws.expert.severity >= error' -T fields -e frame.number 2>/dev/null | wc -l)
  if [ "$total" -gt 0 ] && [ "$total" = "$((roce_to_guest + roce_from_guest))" ] && [ "$malformed" = 0 ]; then
    pass "$name.pcap-tshark"
  else
    fail "$name.pcap-tshark" "tshark: $total frames decoded as InfiniBand of $((roce_to_guest + roce_from_guest)) to port 4791, $malformed malformed/error" "$name"
  fi
}

# UD under loss (a session with nothing but this case on the RoCE port): UD has no
# retransmission, so what passes is that every datagram that arrives is right (ix_rdma checks
# each: tag, length, source QP, bytes, no repeats) and that the ones which do not arrive are
# exactly those the link lost or the NIC counted as dropped. Per direction, from the capture
# (the sender's view, lost frames included), the link's counters, rxe's hw_counters and the
# NIC's counters:
#   guest -> NIC: datagrams in the capture = arrived at our program + rx_drop_ud (the NIC had no
#     receive buffer staged, xport_rx) + lost on the link (the link's loss count less the
#     guest's ARP frames it lost: ARP requests from the guest less those the NIC queued);
#   NIC -> guest: datagrams in the capture = arrived at the guest's program (= rxe's rcvd_pkts:
#     it delivered every datagram it took) + lost on the link, which may also have lost up to
#     all of the NIC's ARP replies.
check_ud() {
  local d=$1 c=$2 last=$1/final.counters
  local srv cli sent_g rcvd_g nic_rx nic_fw_rx drop_ud lost0 lost1 ud_from ud_to roce_from roce_to arp_from arp_to
  srv=$(awk '$1=="UDTOTAL"{print $3}' "$d/$c.server.out") cli=$(awk '$1=="UDTOTAL"{print $3}' "$d/$c.client.out")
  sent_g=$(awk '$1=="sent_pkts"{print $2}' "$last") rcvd_g=$(awk '$1=="rcvd_pkts"{print $2}' "$last")
  nic_rx=$(grep -o 'rx_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  nic_fw_rx=$(grep -o 'rx_fw_frames [0-9]*' "$d/sim.out" | awk '{print $2}')
  drop_ud=$(grep -o 'rx_drop_ud [0-9]*' "$d/sim.out" | awk '{print $2}')
  read -r lost0 lost1 < <(sed -n 's/.*nic0->socket [0-9]* (written [0-9]*, lost \([0-9]*\)), socket->nic0 [0-9]* (read [0-9]*, lost \([0-9]*\)).*/\1 \2/p' "$d/sim.out")
  local tsk=(tshark -r "$d/link.pcap" -T fields -e frame.number)
  ud_from=$("${tsk[@]}" -Y 'infiniband.bth.opcode==100 && eth.src==52:54:00:00:00:02' 2>/dev/null | wc -l)
  ud_to=$("${tsk[@]}" -Y 'infiniband.bth.opcode==100 && eth.dst==52:54:00:00:00:02' 2>/dev/null | wc -l)
  roce_from=$("${tsk[@]}" -Y 'udp.dstport==4791 && eth.src==52:54:00:00:00:02' 2>/dev/null | wc -l)
  roce_to=$("${tsk[@]}" -Y 'udp.dstport==4791 && eth.dst==52:54:00:00:00:02' 2>/dev/null | wc -l)
  arp_from=$("${tsk[@]}" -Y 'arp && eth.src==52:54:00:00:00:02' 2>/dev/null | wc -l)
  arp_to=$("${tsk[@]}" -Y 'arp.opcode==2 && eth.dst==52:54:00:00:00:02' 2>/dev/null | wc -l)
  drop_ud=${drop_ud:-0} nic_fw_rx=${nic_fw_rx:-0}
  echo "# $c datagrams guest->NIC: $ud_from sent, $srv arrived, $drop_ud dropped in the NIC (rx_drop_ud), $((ud_from - srv - drop_ud)) lost on the link (link lost $lost1, ARP $((arp_from - nic_fw_rx)))" >&2
  echo "# $c datagrams NIC->guest: $ud_to sent, $cli arrived (rxe rcvd_pkts $rcvd_g), $((ud_to - cli)) lost on the link (link lost $lost0)" >&2
  [ -n "$srv" ] && [ -n "$cli" ] && [ -n "$lost0" ] && [ -n "$rcvd_g" ] || { echo "missing UDTOTAL lines, counters or link figures"; return 1; }
  [ "$ud_from" = "$roce_from" ] && [ "$ud_to" = "$roce_to" ] && [ "$ud_from" = "$sent_g" ] ||
    { echo "RoCE frames other than UD SEND on the link, or rxe sent_pkts $sent_g != $ud_from datagrams from the guest"; return 1; }
  [ "$srv" = "$((nic_rx - nic_fw_rx - drop_ud))" ] && [ "$((ud_from - srv - drop_ud))" = "$((lost1 - (arp_from - nic_fw_rx)))" ] ||
    { echo "guest->NIC: $ud_from sent, $srv arrived, rx_drop_ud $drop_ud, NIC rx_frames $nic_rx (ARP $nic_fw_rx), link lost $lost1: does not add up"; return 1; }
  [ "$cli" = "$rcvd_g" ] && [ "$((ud_to - cli))" -le "$lost0" ] && [ "$((lost0 - (ud_to - cli)))" -le "$arp_to" ] ||
    { echo "NIC->guest: $ud_to sent, $cli arrived, rxe rcvd_pkts $rcvd_g, link lost $lost0 (ARP replies $arp_to): does not add up"; return 1; }
  [ "$((ud_from - srv + ud_to - cli))" -gt 0 ] || { echo "no datagram lost: the case tested nothing"; return 1; }
}

PP=ibv_rc_pingpong
PF="-F -u 20"   # perftest: no CPU-frequency check; rxe's ACK timeout 4.096 us x 2^20 = 4.3 s
# MTU 1024 (eth0 at 1500): SEND/RECV both ways, single and multi-packet, UD SEND; the guest as
# requester of WRITE, READ, SEND streams and atomics against the NIC as responder.
case_ pp64 "$PP -d rnic0 -g @GID@ -s 64 -n 20 -c -m 1024" "$PP -d rxe0 -g @GID@ -s 64 -n 20 -c -m 1024" "check_pingpong_64_20"
case_ pp4096 "$PP -d rnic0 -g @GID@ -s 4096 -n 10 -c -m 1024" "$PP -d rxe0 -g @GID@ -s 4096 -n 10 -c -m 1024" "check_pingpong_4096_10"
check_pingpong_64_20() { check_pingpong "$1" "$2" 64 20; }
check_pingpong_4096_10() { check_pingpong "$1" "$2" 4096 10; }
# Both ways, byte-exact: WRITE, WRITE_IMM, READ, SEND at 1, 4095, 4096, 65536 B, CAS and FAA.
# ACK timeouts (4.096 us x 2^t): rxe's run in wall time, so t=20 (4.3 s) there; the NIC's run in
# simulated time, which passes about a thousand times slower here, so t=10 (4.2 ms simulated,
# seconds of wall time) on the host side: the guest answers well within it, and a lost frame
# costs seconds, not the hour t=20 would (docs/interop.md).
IX="ix_rdma -s 1,4095,4096,65536"
# RNR timers likewise (the value a QP puts in its RNR NAKs, which the peer waits in its own
# clock): ours -r 0 (655 ms of rxe's wall time), rxe's -r 1 (10 us of our simulated time).
IXH="$IX -t 10 -r 0 -d rnic0 -g @GID@"
IXG="$IX -t 20 -r 1 -d rxe0 -g @GID@"
case_ ix "$IXH -m 1024 server" "$IXG -m 1024 client" "ix:33"
case_ ud64 "ibv_ud_pingpong -d rnic0 -g @GID@ -s 64 -n 20 -c" "ibv_ud_pingpong -d rxe0 -g @GID@ -s 64 -n 20 -c" "check_pingpong_64_20"
case_ write64k "ib_write_bw -d rnic0 -x @GID@ $PF -s 65536 -n 20 -m 1024" "ib_write_bw -d rxe0 -x @GID@ $PF -s 65536 -n 20 -m 1024" "check_perf_65536_20"
case_ read64k "ib_read_bw -d rnic0 -x @GID@ $PF -s 65536 -n 10 -m 1024" "ib_read_bw -d rxe0 -x @GID@ $PF -s 65536 -n 10 -m 1024" "check_perf_65536_10"
case_ send4k "ib_send_bw -d rnic0 -x @GID@ $PF -s 4096 -n 20 -m 1024" "ib_send_bw -d rxe0 -x @GID@ $PF -s 4096 -n 20 -m 1024" "check_perf_4096_20"
case_ atomic "ib_atomic_bw -d rnic0 -x @GID@ $PF -n 20 -m 1024" "ib_atomic_bw -d rxe0 -x @GID@ $PF -n 20 -m 1024" "check_perf_8_20"
check_perf_65536_20() { check_perf "$1" "$2" 65536 20; }
check_perf_65536_10() { check_perf "$1" "$2" 65536 10; }
check_perf_4096_20() { check_perf "$1" "$2" 4096 20; }
check_perf_8_20() { check_perf "$1" "$2" 8 20; }
# The same streams with our NIC as the requester (perftest's client on the host side, rxe's
# server in the guest; clean link: the host side's ACK timeout -u 14 is 67 ms of simulated time).
PFH="-F -u 14"
case_ rwrite64k "ib_write_bw -d rnic0 -x @GID@ $PFH -s 65536 -n 20 -m 1024" "REV ib_write_bw -d rxe0 -x @GID@ $PF -s 65536 -n 20 -m 1024" "check_perf_rev_65536_20"
# -o 16 on both: perftest makes the client's initiator depth (max_rd_atomic) the server's
# advertised outstanding reads, rxe's 128 by default, which our device (16) refuses at RTS.
case_ rread64k "ib_read_bw -d rnic0 -x @GID@ $PFH -o 16 -s 65536 -n 10 -m 1024" "REV ib_read_bw -d rxe0 -x @GID@ $PF -o 16 -s 65536 -n 10 -m 1024" "check_perf_rev_65536_10"
case_ rsend4k "ib_send_bw -d rnic0 -x @GID@ $PFH -s 4096 -n 20 -m 1024" "REV ib_send_bw -d rxe0 -x @GID@ $PF -s 4096 -n 20 -m 1024" "check_perf_rev_4096_20"
check_perf_rev_65536_20() { check_perf "$1" "$2" 65536 20 server; }
check_perf_rev_65536_10() { check_perf "$1" "$2" 65536 10 server; }
check_perf_rev_4096_20() { check_perf "$1" "$2" 4096 20 server; }
session mtu1024 1500 ""

# MTU 4096 (eth0 at 9000): multi-packet SEND both ways and a WRITE stream.
case_ pp16k "$PP -d rnic0 -g @GID@ -s 16384 -n 10 -c -m 4096" "$PP -d rxe0 -g @GID@ -s 16384 -n 10 -c -m 4096" "check_pingpong_16384_10"
case_ ix "$IXH -m 4096 server" "$IXG -m 4096 client" "ix:33"
case_ write64k "ib_write_bw -d rnic0 -x @GID@ $PF -s 65536 -n 20 -m 4096" "ib_write_bw -d rxe0 -x @GID@ $PF -s 65536 -n 20 -m 4096" "check_perf_65536_20"
check_pingpong_16384_10() { check_pingpong "$1" "$2" 16384 10; }
session mtu4096 9000 ""

# Loss on the link (2 % of the frames in each direction): both rxe and the NIC retransmit. rxe's timeout
# t=16 (268 ms of wall time): a lost frame costs that, and a spurious retransmission is a
# duplicate the NIC answers again. (ibv_rc_pingpong and perftest fix the host side's timeout at
# t=14 or more, 67 ms of simulated time, minutes of wall time per loss: not under loss here.)
# Our NIC retries a READ from the first missing response; rxe answers such a retry with the
# original message's MIDDLE/LAST (docs/interop.md): seen here and accepted.
case_ ix "$IXH -m 1024 server" "${IXG/-t 20/-t 16} -m 1024 client" "ix:33"
session loss2 1500 "--loss 0.02 --reorder 0.02 --seed 1"
# 1 % loss at MTU 4096 with 1 MiB messages both ways (256 packets each): our NIC as requester
# sends them in 32-packet pieces and resumes at the PSN of rxe's NAK; rxe as requester resumes
# at ours. (Sizes below 1 MiB are the loss2 session's.)
IXL="ix_rdma -s 65536,1048576"
case_ ix "$IXL -t 10 -r 0 -d rnic0 -g @GID@ -m 4096 server" "$IXL -t 16 -r 1 -d rxe0 -g @GID@ -m 4096 client" "ix:19"
session loss1-1m 9000 "--loss 0.01 --seed 11"
# UD under 2 % loss and 2 % reordering: 200 datagrams of 8 B and of 1024 B (the MTU) each way.
IXU="ix_rdma -u 200 -s 8,1024"
case_ ud "$IXU -d rnic0 -g @GID@ server" "$IXU -d rxe0 -g @GID@ client" "ud:4"
session ud-loss2 1500 "--loss 0.02 --reorder 0.02 --seed 2"
if [ $long = 1 ]; then
  # 1 MiB at MTU 1024 (1024 packets) under 5 % loss, the case go-back-N by message never finished.
  # Each message is ~4000 packets on the wire (every NAK resends what was in flight) and takes
  # 35-90 s of wall time here: -w 400 per completion, 1500 s for the session.
  case_ ix "$IXL -w 400 -t 10 -r 0 -d rnic0 -g @GID@ -m 1024 server" "$IXL -w 400 -t 16 -r 1 -d rxe0 -g @GID@ -m 1024 client" "ix:19"
  session loss5-1m 1500 "--loss 0.05 --seed 12" 1500
  # 5 % loss; 1 MiB messages on clean links at both MTUs (under loss a 1 MiB message of 1024
  # packets at MTU 1024 takes many minutes of wall time: nearly every attempt loses a packet).
  case_ ix "$IXH -m 1024 server" "${IXG/-t 20/-t 16} -m 1024 client" "ix:33"
  session loss5 1500 "--loss 0.05 --reorder 0.05 --seed 5"
  IXL="ix_rdma -s 1,4095,4096,65536,1048576"
  case_ ix "$IXL -t 10 -r 0 -d rnic0 -g @GID@ -m 1024 server" "$IXL -t 20 -r 1 -d rxe0 -g @GID@ -m 1024 client" "ix:40"
  session mtu1024-1m 1500 ""
  case_ ix "$IXL -t 10 -r 0 -d rnic0 -g @GID@ -m 4096 server" "$IXL -t 20 -r 1 -d rxe0 -g @GID@ -m 4096 client" "ix:40"
  session mtu4096-1m 9000 ""
fi

[ $failures = 0 ] && exit 0 || exit 1
