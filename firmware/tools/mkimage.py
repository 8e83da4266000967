#!/usr/bin/env python3
"""Turns a firmware ELF into the loadable image: IMEM and DMEM contents with the image header
(spec layout fw_image_hdr at DMEM offset 0) completed: sizes, entry and the CRC-32 of IMEM.

  mkimage.py FW.elf OUTDIR    writes imem.hex, dmem.hex ($readmemh, one 32-bit word a line)
                              and fw.img, the file the host loads: a copy of the 32-byte
                              header, then the IMEM bytes, then the DMEM bytes
"""
import binascii
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "py"))
import rnic_spec  # noqa: E402 (generated from spec/rnic.toml)

IMEM_BASE, DMEM_BASE = rnic_spec.FW_IMEM_BASE, rnic_spec.FW_DMEM_BASE
MEM_BYTES = 64 * 1024
MAGIC = rnic_spec.FW_IMAGE_MAGIC
HDR_BYTES = rnic_spec.LAYOUTS["fw_image_hdr"][0]


def load_segments(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise SystemExit(f"mkimage: {path}: not a little-endian ELF32 file")
    e_entry, e_phoff = struct.unpack_from("<II", data, 24)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 42)
    segs = []
    for i in range(e_phnum):
        p_type, p_off, p_vaddr, p_paddr, p_filesz, p_memsz = struct.unpack_from("<IIIIII", data, e_phoff + i * e_phentsize)
        if p_type == 1 and p_memsz:
            segs.append((p_paddr, data[p_off:p_off + p_filesz], p_memsz))
    return e_entry, segs


def main():
    elf, out = sys.argv[1:3]
    entry, segs = load_segments(elf)
    imem, dmem = bytearray(), bytearray()
    for addr, body, memsz in segs:
        for base, mem in ((IMEM_BASE, imem), (DMEM_BASE, dmem)):
            if base <= addr < base + MEM_BYTES:
                off = addr - base
                if off + memsz > MEM_BYTES:
                    raise SystemExit(f"mkimage: segment at 0x{addr:x} overflows its memory")
                end = off + len(body)
                if len(mem) < end:
                    mem.extend(bytes(end - len(mem)))
                mem[off:end] = body
                break
        else:
            raise SystemExit(f"mkimage: segment at 0x{addr:x} is outside IMEM and DMEM")
    for mem in (imem, dmem):
        mem.extend(bytes(-len(mem) % 4))
    if len(dmem) < HDR_BYTES or rnic_spec.get("fw_image_hdr", "magic", dmem) != MAGIC:
        raise SystemExit("mkimage: DMEM does not start with the image header (section .fw_header)")
    if entry != IMEM_BASE:
        raise SystemExit("mkimage: entry must be the start of IMEM")
    crc = binascii.crc32(bytes(imem)) & 0xFFFFFFFF
    for field, value in (("imem_size", len(imem)), ("dmem_size", len(dmem)), ("entry", entry), ("imem_crc", crc)):
        rnic_spec.put("fw_image_hdr", field, dmem, value)
    os.makedirs(out, exist_ok=True)
    for name, mem in (("imem.hex", imem), ("dmem.hex", dmem)):
        with open(os.path.join(out, name), "w") as fh:
            for i in range(0, len(mem), 4):
                fh.write(f"{struct.unpack_from('<I', mem, i)[0]:08x}\n")
    with open(os.path.join(out, "fw.img"), "wb") as fh:
        fh.write(bytes(dmem[:HDR_BYTES]) + bytes(imem) + bytes(dmem))
    print(f"mkimage: IMEM {len(imem)} B, DMEM {len(dmem)} B, IMEM CRC 0x{crc:08x}")


if __name__ == "__main__":
    main()
