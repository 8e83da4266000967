#!/usr/bin/env python3
"""pcap_prio.py PCAP EXPECT: checks the priority marking of a link capture (test-rdma-prio).

EXPECT (written by the test): a line "vid N", then lines "SRC_MAC DEST_QPN TOS": the IPv4
DSCP/ECN byte every RoCEv2 frame from that MAC to that QP must carry. Checks, one PASS/FAIL line
each: every RoCEv2 frame is 802.1Q-tagged with the VLAN ID and PCP = TOS >> 5 (the DSCP class),
DEI 0; the TOS of every frame of an expected (MAC, QP) is the expected one and each expected
pair was seen; IPv4 checksum and ICRC hold over the frame without its tag (the tag is outside
what the ICRC covers). With tshark installed, the same fields as tshark dissects them agree.
"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'interop'))
from pcap_icrc import frames, ipv4_csum  # noqa: E402

failed = 0


def check(ok, name, why=''):
    global failed
    if ok:
        print(f'PASS {name}')
    else:
        failed += 1
        print(f'FAIL {name} {why}')
        print(f'RERUN tb/sys/pcap_prio.py {" ".join(sys.argv[1:])}')


def mac(b):
    return ':'.join(f'{x:02x}' for x in b)


def icrc_ok(f):
    """f: an untagged RoCEv2 frame with a 20-byte IPv4 header."""
    ip, udp = bytearray(f[14:34]), bytearray(f[34:42])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b'\xff\xff'
    udp[6:8] = b'\xff\xff'
    rest = bytearray(f[42:-4])
    rest[4] = 0xFF
    return zlib.crc32(b'\xff' * 8 + bytes(ip) + bytes(udp) + bytes(rest)) & 0xFFFFFFFF == struct.unpack('<I', f[-4:])[0]


def main():
    pcap, expect = sys.argv[1], sys.argv[2]
    vid, exp = None, {}
    for line in open(expect):
        w = line.split()
        if w[0] == 'vid':
            vid = int(w[1])
        elif len(w) == 3:
            exp[(w[0], int(w[1]))] = int(w[2])
    roce = untagged = bad_tag = bad_tos = bad_crc = 0
    seen, rows = {}, []
    for i, f in enumerate(frames(pcap), 1):
        tagged = len(f) > 18 and f[12:14] == b'\x81\x00'
        u = f[:12] + f[16:] if tagged else f
        if len(u) < 62 or u[12:14] != b'\x08\x00' or u[23] != 17 or struct.unpack('!H', u[36:38])[0] != 4791:
            continue
        roce += 1
        tos, dqp = u[15], struct.unpack('!I', b'\x00' + u[47:50])[0]
        key = (mac(f[6:12]), dqp)
        if not tagged:
            untagged += 1
            continue
        tci = struct.unpack('!H', f[14:16])[0]
        pcp, dei, v = tci >> 13, (tci >> 12) & 1, tci & 0xFFF
        rows.append((i, key[0], dqp, tos, v, pcp))
        if v != vid or dei or pcp != tos >> 5:
            bad_tag += 1
            print(f'# frame {i}: VID {v} PCP {pcp} DEI {dei}, TOS 0x{tos:02x}')
        if key in exp:
            seen[key] = seen.get(key, 0) + 1
            if tos != exp[key]:
                bad_tos += 1
                print(f'# frame {i}: from {key[0]} to QP {dqp}: TOS 0x{tos:02x}, expected 0x{exp[key]:02x}')
        if ipv4_csum(u[14:34]) != 0xFFFF or not icrc_ok(u):
            bad_crc += 1
    print(f'# {roce} RoCEv2 frames, {untagged} untagged; per (source, QP): '
          + ', '.join(f'{k[0]}>{k[1]}:{n}' for k, n in sorted(seen.items())))
    check(roce > 0 and untagged == 0, 'pcap-prio-every-frame-tagged', f'{untagged} of {roce} RoCEv2 frames untagged')
    check(roce > 0 and bad_tag == 0, 'pcap-prio-vid-and-pcp-from-dscp', f'{bad_tag} frames with a wrong tag')
    missing = [k for k in exp if k not in seen]
    check(bad_tos == 0 and not missing, 'pcap-prio-tos-per-qp-and-ah',
          f'{bad_tos} frames with a wrong TOS, pairs never seen: {missing}')
    check(roce > 0 and bad_crc == 0, 'pcap-prio-icrc-and-checksum-without-tag', f'{bad_crc} frames bad')
    tshark = shutil.which('tshark')
    if not tshark:
        print('# tshark not installed: its cross-check skipped')
        return 1 if failed else 0
    out = subprocess.run([tshark, '-r', pcap, '-o', 'gui.column.format:"No.","%m"', '-T', 'fields',
                          '-e', 'frame.number', '-e', 'eth.src', '-e', 'vlan.id', '-e', 'vlan.priority',
                          '-e', 'ip.dsfield', '-e', 'infiniband.bth.destqp', '-Y', 'udp.dstport == 4791'],
                         capture_output=True, text=True)
    ts = {}
    for line in out.stdout.splitlines():
        w = line.split('\t')
        if len(w) >= 6 and w[5]:
            ts[int(w[0])] = (w[1], int(w[5], 0), int(w[4], 0), int(w[2], 0), int(w[3], 0))
    agree = sum(1 for (i, m, dqp, tos, v, pcp) in rows if ts.get(i) == (m, dqp, tos, v, pcp))
    check(out.returncode == 0 and rows and agree == len(rows), 'pcap-prio-tshark-agrees',
          f'tshark rc {out.returncode}, {agree} of {len(rows)} frames agree ({len(ts)} dissected) {out.stderr[:200]}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
