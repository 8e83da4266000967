#!/usr/bin/env python3
"""pcap_prio.py PCAP EXPECT: checks the priority marking of a link capture (test-rdma-prio).

EXPECT (written by the test): a line "vid N", then lines "SRC_MAC DEST_QPN TOS": the IPv4
DSCP/ECN byte every RoCEv2 frame from that MAC to that QP must carry. Checks, one PASS/FAIL line
each: every RoCEv2 frame is 802.1Q-tagged with the VLAN ID and PCP = TOS >> 5 (the DSCP class),
DEI 0; the TOS of every frame of an expected (MAC, QP) is the expected one and each expected
pair was seen; IPv4 checksum and ICRC hold over the frame without its tag (the tag is outside
what the ICRC covers). With tshark installed, the same fields as tshark dissects them agree.
A line "pfc MAC PRIO" (test-rdma-pfc) adds: the capture holds a PFC frame (802.1Qbb, EtherType
0x8808, opcode 0x0101) from the far side pausing PRIO and a later one releasing it (quanta 0);
between them no RoCEv2 frame from MAC has PCP PRIO while frames of other PCPs from MAC go on;
after the release frames of PCP PRIO from MAC follow.
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
    vid, exp, pfc = None, {}, None
    for line in open(expect):
        w = line.split()
        if w[0] == 'vid':
            vid = int(w[1])
        elif w[0] == 'pfc':
            pfc = (w[1], int(w[2]))
        elif len(w) == 3:
            exp[(w[0], int(w[1]))] = int(w[2])
    roce = untagged = bad_tag = bad_tos = bad_crc = 0
    seen, rows = {}, []
    # PFC: state of the watched priority as the PFC frames from the far side set it (0 before the
    # first XOFF, 1 paused, 2 released), and nic frames by (state, PCP is the watched one)
    pfc_state, pfc_xoff, pfc_xon, pfc_seen = 0, 0, 0, {}
    for i, f in enumerate(frames(pcap), 1):
        tagged = len(f) > 18 and f[12:14] == b'\x81\x00'
        u = f[:12] + f[16:] if tagged else f
        if pfc and len(f) >= 34 and f[12:16] == b'\x88\x08\x01\x01' and mac(f[6:12]) != pfc[0]:
            en, q = f[17], struct.unpack('!H', f[18 + 2 * pfc[1]:20 + 2 * pfc[1]])[0]
            if en >> pfc[1] & 1 and q and pfc_state != 1:
                pfc_state, pfc_xoff = 1, pfc_xoff + 1
            elif en >> pfc[1] & 1 and not q and pfc_state == 1:
                pfc_state, pfc_xon = 2, pfc_xon + 1
            continue
        if pfc and tagged and mac(f[6:12]) == pfc[0]:
            k = (pfc_state, f[14] >> 5 == pfc[1])
            pfc_seen[k] = pfc_seen.get(k, 0) + 1
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
    if pfc:
        print(f'# PFC priority {pfc[1]} of {pfc[0]}: {pfc_xoff} XOFF, {pfc_xon} XON; frames (state, same PCP): {pfc_seen}')
        check(pfc_xoff == 1 and pfc_xon == 1, 'pcap-pfc-xoff-then-xon', f'{pfc_xoff} XOFF, {pfc_xon} XON seen')
        check(pfc_seen.get((1, True), 0) == 0 and pfc_seen.get((1, False), 0) > 0, 'pcap-pfc-paused-priority-silent',
              f'{pfc_seen.get((1, True), 0)} frames of the paused PCP, {pfc_seen.get((1, False), 0)} of others while paused')
        check(pfc_seen.get((2, True), 0) > 0, 'pcap-pfc-released-priority-resumes', 'no frame of the PCP after the XON')
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
    if pfc:
        # tshark's MAC Control dissector: class-based flow control frames naming the priority
        out = subprocess.run([tshark, '-r', pcap, '-T', 'fields', '-e', 'macc.cbfc.enbv',
                              '-e', f'macc.cbfc.pause_time.c{pfc[1]}', '-Y', 'macc.opcode == 0x0101'],
                             capture_output=True, text=True)
        cb = [line.split('\t') for line in out.stdout.splitlines() if line.strip()]
        xoff = sum(1 for w in cb if len(w) == 2 and int(w[0], 0) >> pfc[1] & 1 and int(w[1], 0) > 0)
        xon = sum(1 for w in cb if len(w) == 2 and int(w[0], 0) >> pfc[1] & 1 and int(w[1], 0) == 0)
        check(out.returncode == 0 and xoff >= 1 and xon >= 1, 'pcap-pfc-tshark-class-based-flow-control',
              f'tshark rc {out.returncode}: {xoff} XOFF and {xon} XON for priority {pfc[1]} in {len(cb)} PFC frames')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
