# rev_guest.sh CMD... -p PORT HOST (guest, busybox sh): runs CMD as a server on PORT+20 (the
# hostfwd target), and once it listens tells the host-side client (on_go.py, reached through
# the guestfwd rule HOST:PORT) to start; returns the server's exit status.
n=$#; i=0; port=; host=
for a in "$@"; do
  i=$((i + 1))
  if [ $i -eq $((n - 1)) ]; then port=$a; elif [ $i -eq $n ]; then host=$a; fi
done
# drop the trailing "-p PORT HOST"
i=0; for a in "$@"; do i=$((i + 1)); shift; [ $i -le $((n - 3)) ] && set -- "$@" "$a"; done
sport=$((port + 20))
# bounded: a host-side client that never comes must not hold the guest until the suite's timeout
timeout 240 "$@" -p $sport &
pid=$!
hex=$(printf %04X $sport)
t=0
while ! grep -q ":$hex 00000000:0000 0A" /proc/net/tcp; do
  t=$((t + 1)); [ $t -gt 300 ] && { echo "rev_guest: server not listening on $sport after 30 s"; kill $pid; exit 1; }
  kill -0 $pid 2>/dev/null || { wait $pid; exit $?; }
  sleep 0.1
done
# nc stays until the far end closes, which the guestfwd channel never does: in the background,
# ended once the server is done.
echo go | nc $host $port &
ncpid=$!
wait $pid
rc=$?
kill $ncpid 2>/dev/null
exit $rc
