# Runs inside the guest (sim/guest/init, qtest=kmod) from the 9p share, which holds rnic.ko,
# the provider (librnic-rdmav34.so) and receives the outputs in out/. The host side
# (test_guest.sh) checks them; here every step only records what happened.
O=/mnt/host/out
mkdir -p $O
step() { echo "[kmod] $*"; }
cat /proc/sys/kernel/tainted > $O/taint-before
modprobe ib_uverbs; step "modprobe ib_uverbs rc=$?"
# dummy0 carries the GID table; its MAC is the one the simulator's second NIC (10.0.0.1, on the
# host side) sends to. ARP on, with a permanent entry for 10.0.0.1: ib_core resolves the
# destination MAC of a QP or AH through the neighbour table, and a dummy device answers nothing.
modprobe dummy; /usr/sbin/ip link add dummy0 type dummy 2>/dev/null  # numdummies=1 made it already
/usr/sbin/ip link set dummy0 address 02:00:00:00:00:02
/usr/sbin/ip addr add 10.0.0.2/24 dev dummy0; /usr/sbin/ip link set dummy0 arp on up
/usr/sbin/ip neigh replace 10.0.0.1 lladdr 02:00:00:00:00:01 dev dummy0 nud permanent
step "dummy0 $(cat /sys/class/net/dummy0/address)" ; cat /sys/class/net/dummy0/address > $O/dummy0.mac
for d in /sys/bus/pci/devices/*; do echo "${d##*/} $(cat $d/vendor) $(cat $d/device)"; done > $O/pci.txt
# Firmware load at probe (fw_image: request_firmware from /lib/firmware, then the image written
# through BAR0's window): a corrupt image (one IMEM byte flipped: the device's CRC check refuses
# it) must fail the probe with a clear error and leave a module that unloads; the good image
# then comes up and carries everything below.
mkdir -p /lib/firmware/rnic && cp /mnt/host/fw.img /mnt/host/fw-bad.img /mnt/host/fw-hooks.img /lib/firmware/rnic/
dmesg -c > /dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
insmod /mnt/host/rnic.ko netdev=dummy0 cmd_timeout_ms=30000 mbox_timeout_ms=10000 fw_image=rnic/fw-bad.img
echo $? > $O/fwbad-insmod.rc
t1=$(cut -d' ' -f1 /proc/uptime)
ls /sys/class/infiniband > $O/fwbad-ibdevs.txt 2>&1
rmmod rnic; echo $? > $O/fwbad-rmmod.rc
lsmod | grep -c '^rnic ' > $O/fwbad-lsmod.txt
dmesg -c > $O/dmesg-fwbad.txt
step "corrupt firmware image: insmod rc=$(cat $O/fwbad-insmod.rc) in $(awk "BEGIN{print $t1 - $t0}") s, devices '$(cat $O/fwbad-ibdevs.txt)', rmmod rc=$(cat $O/fwbad-rmmod.rc)"
t0=$(cut -d' ' -f1 /proc/uptime)
insmod /mnt/host/rnic.ko netdev=dummy0 cmd_timeout_ms=30000 mbox_timeout_ms=10000 fw_image=rnic/fw.img $(cat /mnt/host/insmod-args 2>/dev/null)
echo $? > $O/insmod.rc
t1=$(cut -d' ' -f1 /proc/uptime)
step "insmod rc=$(cat $O/insmod.rc) in $(awk "BEGIN{print $t1 - $t0}") s"
ls /sys/class/infiniband > $O/ibdevs.txt 2>&1
D=/sys/class/infiniband/rnic0
# The GID table is filled from a workqueue: wait for the IPv4 entry.
for i in $(seq 1 100); do grep -qs '0000:0000:0000:0000:0000:ffff:0a00:0002' $D/ports/1/gids/* && break; sleep 0.1; done
# Slab allocation sites of the module and of ib_umem (booted with slub_debug=U): what is
# allocated once the device is up, to compare with the state after the programs exited.
# (Linux 6.1 has them in debugfs: slab/CACHE/alloc_traces, one entry per site with its count and
# stack; the lines naming the module or ib_umem are kept. Not from entries whose stack went
# through an interrupt: an skb of the out-of-band NIC's receive ring, allocated by a softirq
# that ran on top of the module's command wait, names the module without being its object.)
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
slab_sites() {
  for c in /sys/kernel/debug/slab/*; do
    awk -v cache="${c##*/}" '
      function flush(i) { if (!irq) for (i = 1; i <= n; i++) if (l[i] ~ /\[rnic\]|ib_umem/) print cache " " l[i]; n = 0; irq = 0 }
      /^ *[0-9]+ / { flush() }
      { sub(/^ */, ""); sub(/ (age|pid|cpus|nodes|waste)=.*/, ""); l[++n] = $0
        if ($0 ~ /softirq|irq_exit|interrupt|net_rx_action|napi_/) irq = 1 }
      END { flush() }' "$c/alloc_traces" 2>/dev/null
  done | sort
}
slab_sites > $O/slab-after-insmod.txt
for g in $D/ports/1/gids/*; do i=${g##*/}; v=$(cat $g 2>/dev/null) || continue
  [ "$v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
  echo "$i $v $(cat $D/ports/1/gid_attrs/types/$i 2>/dev/null) $(cat $D/ports/1/gid_attrs/ndevs/$i 2>/dev/null)"; done > $O/gids.txt
for f in node_type fw_ver node_guid ports/1/state ports/1/link_layer ports/1/phys_state ports/1/rate; do
  echo "$f: $(cat $D/$f 2>&1)"; done > $O/sysfs.txt
cat /sys/class/infiniband_verbs/uverbs*/abi_version > $O/abi.txt 2>&1
RDMAV_DRIVERS=/mnt/host/librnic ibv_devices > $O/ibv_devices.txt 2>&1; echo $? > $O/ibv_devices.rc
RDMAV_DRIVERS=/mnt/host/librnic ibv_devinfo -v -d rnic0 > $O/devinfo.txt 2>&1; echo $? > $O/devinfo.rc
step "ibv_devinfo rc=$(cat $O/devinfo.rc)"
RDMAV_DRIVERS=/mnt/host/librnic /mnt/host/kmod_mr > $O/mr.txt 2>&1; echo $? > $O/mr.rc
step "kmod_mr rc=$(cat $O/mr.rc): $(grep -c ^PASS $O/mr.txt) passed, $(grep -c ^FAIL $O/mr.txt) failed"
# Traffic (when the host put traffic.sh in the share): unmodified programs through the module
# to the host's NIC, their servers on the host; the out-of-band exchange over the user-mode NIC
# (the only virtio-net, so eth0 here: 10.0.2.100:PORT is the host's 127.0.0.1:PORT).
if [ -f /mnt/host/traffic.sh ]; then
  /usr/sbin/ip addr add 10.0.2.15/24 dev eth0; /usr/sbin/ip link set eth0 up
  IDX=$(awk '$2=="0000:0000:0000:0000:0000:ffff:0a00:0002"{print $1; exit}' $O/gids.txt)
  export IDX RDMAV_DRIVERS=/mnt/host/librnic
  (cd $O && sh /mnt/host/traffic.sh)
  step "traffic: $(cat $O/*.client.rc 2>/dev/null | tr '\n' ' ')"
fi
# rmmod while a process holds a context: refused (the module has no disassociate_ucontext, so
# ib_uverbs holds a reference on it per open context) and rnic0 stays; the rmmod below follows
# once the holder was killed.
(RDMAV_DRIVERS=/mnt/host/librnic exec /mnt/host/kmod_async > $O/busy-holder.txt 2>&1) &
hp=$!
for i in $(seq 1 100); do grep -qs READY $O/busy-holder.txt && break; sleep 0.1; done
rmmod rnic > $O/busy-rmmod.txt 2>&1; echo $? > $O/busy-rmmod.rc
ls /sys/class/infiniband > $O/busy-ibdevs.txt 2>&1
kill $hp; wait $hp 2>/dev/null
step "rmmod with a context open: rc=$(cat $O/busy-rmmod.rc) ($(cat $O/busy-rmmod.txt)), devices '$(cat $O/busy-ibdevs.txt)'"
rdma resource show > $O/rdma-res-before-rmmod.txt 2>&1
slab_sites > $O/slab-before-rmmod.txt
cat /sys/kernel/debug/slab/skbuff_head_cache/alloc_traces > $O/skbuff-alloc-traces.txt 2>&1
cat /proc/cmdline > $O/cmdline
rmmod rnic; echo $? > $O/rmmod.rc
step "rmmod rc=$(cat $O/rmmod.rc)"
ls /sys/class/infiniband > $O/ibdevs-after.txt 2>&1
cat /proc/sys/kernel/tainted > $O/taint-after
dmesg -c > $O/dmesg.txt

# Phase 1b: the firmware panics under the loaded module. The module loads the test-hooks image
# (it answers TEST_FAULT); on panic-request the host's simulator gets SIGUSR2 and puts a TEST_FAULT
# PANIC into the idle command queue, answering with panicked. The FW_PANIC event must mark the
# device dead, the process holding a context must get the fatal async event, later calls must
# fail at once, and rmmod must work.
up() { cut -d' ' -f1 /proc/uptime; }
# No command waits out its timeout here when the module works, so a long one costs nothing and
# sets a later call that wrongly issues a command far apart from one that fails at once (the
# check's bound is half of it, so a guest slowed by a loaded host does not fail it).
insmod /mnt/host/rnic.ko netdev=dummy0 cmd_timeout_ms=20000 mbox_timeout_ms=10000 fw_image=rnic/fw-hooks.img; echo $? > $O/panic-insmod.rc
(RDMAV_DRIVERS=/mnt/host/librnic /mnt/host/kmod_async > $O/panic-async.txt 2>&1; echo $? > $O/panic-async.rc) &
for i in $(seq 1 100); do grep -qs READY $O/panic-async.txt && break; sleep 0.1; done
touch $O/panic-request
for i in $(seq 1 300); do [ -f $O/panicked ] && break; sleep 0.1; done
for i in $(seq 1 600); do [ -s $O/panic-async.rc ] && break; sleep 0.1; done
t0=$(up); RDMAV_DRIVERS=/mnt/host/librnic ibv_devinfo -d rnic0 > $O/panic-devinfo.txt 2>&1; echo $? > $O/panic-devinfo.rc; t1=$(up)
echo "$(awk "BEGIN{print $t1 - $t0}")" > $O/panic-devinfo-time
cat /sys/class/infiniband/rnic0/ports/1/state > $O/panic-port-state 2>&1
rmmod rnic; echo $? > $O/panic-rmmod.rc
ls /sys/class/infiniband > $O/panic-ibdevs-after.txt 2>&1
step "firmware panic: signalled $([ -f $O/panicked ] && echo yes || echo no), async rc $(cat $O/panic-async.rc 2>/dev/null), ibv_devinfo rc $(cat $O/panic-devinfo.rc) in $(cat $O/panic-devinfo-time) s, rmmod rc $(cat $O/panic-rmmod.rc)"
dmesg -c > $O/dmesg-panic.txt

# Phase 2: the device disappears under a loaded module (the host's simulator gets SIGUSR1 when
# hang-request appears in the share and answers with hung): registers then read all-ones and
# commands never complete. The module must time the command out, mark the device dead, fail
# later calls at once, report the port down, and still unload. It loads the production image
# again: phase 1b left the firmware panicked.
insmod /mnt/host/rnic.ko netdev=dummy0 cmd_timeout_ms=6000 mbox_timeout_ms=10000 fw_image=rnic/fw.img; echo $? > $O/hang-insmod.rc
# A process holding a context: it must get the fatal async event.
(RDMAV_DRIVERS=/mnt/host/librnic /mnt/host/kmod_async > $O/hang-async.txt 2>&1; echo $? > $O/hang-async.rc) &
for i in $(seq 1 100); do grep -qs READY $O/hang-async.txt && break; sleep 0.1; done
touch $O/hang-request
for i in $(seq 1 300); do [ -f $O/hung ] && break; sleep 0.1; done
step "device removed: $([ -f $O/hung ] && echo yes || echo no)"
t0=$(up); RDMAV_DRIVERS=/mnt/host/librnic ibv_devinfo -d rnic0 > $O/hang-devinfo1.txt 2>&1; echo $? > $O/hang-devinfo1.rc; t1=$(up)
RDMAV_DRIVERS=/mnt/host/librnic ibv_devinfo -d rnic0 > $O/hang-devinfo2.txt 2>&1; echo $? > $O/hang-devinfo2.rc; t2=$(up)
echo "$(awk "BEGIN{print $t1 - $t0}") $(awk "BEGIN{print $t2 - $t1}")" > $O/hang-times
cat /sys/class/infiniband/rnic0/ports/1/state > $O/hang-port-state 2>&1
for i in $(seq 1 100); do [ -s $O/hang-async.rc ] && break; sleep 0.1; done
t0=$(up); rmmod rnic; echo $? > $O/hang-rmmod.rc; t1=$(up)
echo "$(awk "BEGIN{print $t1 - $t0}")" > $O/hang-rmmod-time
step "after removal: ibv_devinfo rc $(cat $O/hang-devinfo1.rc)/$(cat $O/hang-devinfo2.rc) in $(cat $O/hang-times) s, rmmod rc $(cat $O/hang-rmmod.rc)"
ls /sys/class/infiniband > $O/hang-ibdevs-after.txt 2>&1
dmesg > $O/dmesg-hang.txt
sync
exit 0
