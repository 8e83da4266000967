#!/usr/bin/env python3
"""pcap_icrc.py FILE: checks every RoCEv2 frame (IPv4, UDP port 4791) of a link capture.

The ICRC is recomputed from the frame (IBTA Annex A17: CRC-32 over 8 bytes of 0xFF, the IPv4
header with TOS, TTL and checksum masked to ones, the UDP header with its checksum masked, the
BTH with its resv8a byte masked, and the rest up to the ICRC) and compared with the last four
bytes (little-endian on the wire). Also checked: IPv4 header checksum, UDP length and the IPv4
total length against the frame. Prints one line per bad frame and a summary
"frames N roce N icrc_bad N hdr_bad N"; exits 1 when anything is bad or no RoCE frame was seen.
Also, per destination MAC, "to MAC roce N repeats N": repeats are frames whose (DestQP, PSN,
opcode) an earlier frame to that MAC already had (retransmissions, answers to duplicates).
"""
import struct
import sys
import zlib


def frames(path):
    with open(path, 'rb') as f:
        hdr = f.read(24)
        magic = struct.unpack('<I', hdr[:4])[0]
        if magic not in (0xA1B2C3D4, 0xA1B23C4D):
            raise SystemExit(f'{path}: not a little-endian pcap file')
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            _, _, incl, _ = struct.unpack('<IIII', rec)
            yield f.read(incl)


def ipv4_csum(h):
    s = sum(struct.unpack(f'!{len(h) // 2}H', h))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def main():
    n = roce = bad_icrc = bad_hdr = 0
    seen, per = set(), {}
    for i, f in enumerate(frames(sys.argv[1]), 1):
        n += 1
        if len(f) < 14 + 20 + 8 + 12 + 4 or f[12:14] != b'\x08\x00' or f[23] != 17:
            continue
        ihl = (f[14] & 15) * 4
        ip = f[14:14 + ihl]
        udp = f[14 + ihl:14 + ihl + 8]
        if struct.unpack('!H', udp[2:4])[0] != 4791:
            continue
        roce += 1
        dst = ':'.join(f'{b:02x}' for b in f[:6])
        bth = f[14 + ihl + 8:14 + ihl + 20]
        key = (dst, bth[0], bth[5:8], bth[9:12])  # opcode, DestQP, PSN
        st = per.setdefault(dst, [0, 0])
        st[0] += 1
        if key in seen:
            st[1] += 1
        seen.add(key)
        tot = struct.unpack('!H', ip[2:4])[0]
        ulen = struct.unpack('!H', udp[4:6])[0]
        if ipv4_csum(ip) != 0xFFFF or tot != len(f) - 14 or ulen != tot - ihl:
            bad_hdr += 1
            print(f'frame {i}: IPv4 checksum/length or UDP length wrong (ip len {tot}, udp len {ulen}, frame {len(f)})')
        m_ip = bytearray(ip)
        m_ip[1] = 0xFF                  # TOS
        m_ip[8] = 0xFF                  # TTL
        m_ip[10:12] = b'\xff\xff'       # header checksum
        m_udp = bytearray(udp)
        m_udp[6:8] = b'\xff\xff'        # UDP checksum
        rest = bytearray(f[14 + ihl + 8:-4])
        rest[4] = 0xFF                  # BTH resv8a
        crc = zlib.crc32(b'\xff' * 8 + bytes(m_ip) + bytes(m_udp) + bytes(rest)) & 0xFFFFFFFF
        got = struct.unpack('<I', f[-4:])[0]
        if crc != got:
            bad_icrc += 1
            print(f'frame {i}: ICRC {got:08x}, computed {crc:08x}')
    for dst, (cnt, rep) in sorted(per.items()):
        print(f'to {dst} roce {cnt} repeats {rep}')
    print(f'frames {n} roce {roce} icrc_bad {bad_icrc} hdr_bad {bad_hdr}')
    return 0 if roce and not bad_icrc and not bad_hdr else 1


if __name__ == '__main__':
    sys.exit(main())
