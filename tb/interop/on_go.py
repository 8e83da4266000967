#!/usr/bin/env python3
# on_go.py CMD... -p PORT: a host-side client that must wait for its server in the guest
# (perftest with our NIC as requester: the guest runs ib_*_bw as the server). Listens on PORT,
# the target of a guestfwd rule (QEMU connects it once, at start-up), and waits there for the
# guest's "go" (rev_guest.sh sends it once its server listens); then runs CMD as the client
# against 127.0.0.1:PORT+20, a hostfwd rule to the same port in the guest (test_interop.sh).
import os
import socket
import sys

if len(sys.argv) < 4 or sys.argv[-2] != "-p":
    sys.exit("usage: on_go.py CMD... -p PORT")
port = int(sys.argv[-1])
cmd = sys.argv[1:-2]
lsock = socket.socket()
lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lsock.bind(("127.0.0.1", port))
lsock.listen(1)
conn, _ = lsock.accept()
got = b""
while not got.endswith(b"\n"):
    r = conn.recv(64)
    if not r:
        sys.exit("on_go: the guest closed the channel before 'go'")
    got += r
if got.strip() != b"go":
    sys.exit("on_go: the guest said %r, not go" % got)
sys.stdout.flush()
os.execvp(cmd[0], cmd + ["-p", str(port + 20), "127.0.0.1"])
