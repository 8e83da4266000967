#!/usr/bin/env bash
# run-pair.sh DIR PORT SERVER_CMD CLIENT_CMD: runs inside `rnic-sim run`. Starts the server,
# waits until it listens on TCP PORT (its out-of-band exchange), runs the client, waits for
# both. Leaves DIR/server.out, DIR/client.out (stdout+stderr) and DIR/server.rc, DIR/client.rc.
set -u
dir=$1 port=$2 server=$3 client=$4
listening() { grep -qi ":$(printf %04X "$port") 00000000:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
( eval "$server" > "$dir/server.out" 2>&1; echo $? > "$dir/server.rc" ) &
spid=$!
for _ in $(seq 1 600); do
  listening && break
  kill -0 $spid 2>/dev/null || break
  sleep 0.1
done
eval "$client" > "$dir/client.out" 2>&1
crc=$?
echo $crc > "$dir/client.rc"
# A client that failed may leave the server waiting for it forever: give it a moment, then stop it.
if [ $crc -ne 0 ]; then
  for _ in $(seq 1 50); do kill -0 $spid 2>/dev/null || break; sleep 0.1; done
  pkill -P $spid 2>/dev/null
fi
wait $spid
exit 0
