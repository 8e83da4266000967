#!/usr/bin/env python3
"""Writes firmware image files for the fw-load tests into DIR: a good one and one per way an
image can be wrong, each NAME.img with NAME.why, the reason rnic-tool must give (or nothing
for a good image). Layout as firmware/tools/mkimage.py makes it: the 32-byte header (spec
fw_image_hdr), IMEM, DMEM starting with the same header."""
import binascii
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "py"))
import rnic_spec  # noqa: E402 (generated from spec/rnic.toml)

MAGIC = rnic_spec.FW_IMAGE_MAGIC
out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def image(version=0x00020001, imem_len=256, dmem_len=64, magic=MAGIC, imem_size=None, crc=None, entry=0):
    imem = bytes((i * 13 + 5) & 0xFF for i in range(imem_len))
    hdr = struct.pack("<IIIIII8x", magic, version, imem_len if imem_size is None else imem_size, dmem_len,
                      entry, binascii.crc32(imem) if crc is None else crc)
    dmem = hdr + bytes(dmem_len - len(hdr))
    return bytearray(hdr + imem + dmem)


def write(name, data, why=""):
    with open(os.path.join(out, name + ".img"), "wb") as f:
        f.write(bytes(data))
    with open(os.path.join(out, name + ".why"), "w") as f:
        f.write(why)


good = image()
write("good", good)
crc = binascii.crc32(bytes(good[32:32 + 256]))
print(f"{crc:08X}")
write("short", good[:10], "truncated: 10 bytes, shorter than the 32-byte header")
write("bad_magic", image(magic=0x46464646), f"bad magic 0x46464646 (a firmware image starts with 0x{MAGIC:08X} 'RNFW')")
bad = bytearray(good)
bad[32 + 10] ^= 0x01
write("bad_crc", bad, f"bad CRC: IMEM CRC-32 is 0x{binascii.crc32(bytes(bad[32:288])):08X}, the header says "
      f"0x{crc:08X} (corrupted image)")
write("truncated", good[:-4], f"truncated: {len(good) - 4} bytes, the header announces {len(good)}")
write("too_long", good + bytes(4), f"too long: {len(good) + 4} bytes, the header announces {len(good)} (trailing data)")
write("too_big", image(imem_size=0x100000), "too big: IMEM 1048576 bytes, DMEM 64 bytes; the window holds 524288 of each")
mism = bytearray(good)
mism[32 + 256 + 4] ^= 0x01
write("hdr_copy", mism, "the header at DMEM offset 0 differs from the file's header")
write("entry", image(entry=0x100), "entry 0x00000100 is not the start of IMEM (0x00000000)")
