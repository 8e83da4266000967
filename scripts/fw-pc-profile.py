#!/usr/bin/env python3
"""Soft-core cycles per firmware function from a PC histogram.

The simulator writes one when RNIC_PC_PROFILE=PREFIX is set (PREFIX.<node>: "pc cycles" lines,
the PC of the instruction in the execute stage each cycle, so an MMIO wait counts at the access).
Usage: fw-pc-profile.py HIST ELF [--per N] [--lines FUNC]
  --per N     also print cycles divided by N (e.g. the WQEs of the run)
  --lines F   print the hottest instructions of function F with their disassembly
"""
import argparse
import bisect
import subprocess


def symbols(elf):
    out = subprocess.run(["riscv64-unknown-elf-nm", "-n", "--defined-only", elf], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        a, t, name = line.split()[:3]
        if t in "tTwW":
            syms.append((int(a, 16), name))
    return syms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hist")
    ap.add_argument("elf")
    ap.add_argument("--per", type=float, default=0)
    ap.add_argument("--lines")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    syms = symbols(a.elf)
    addrs = [s[0] for s in syms]
    per_fn, per_pc = {}, {}
    total = 0
    for line in open(a.hist):
        pc, n = line.split()
        pc, n = int(pc, 16), int(n)
        total += n
        i = bisect.bisect_right(addrs, pc) - 1
        fn = syms[i][1] if i >= 0 else "?"
        per_fn[fn] = per_fn.get(fn, 0) + n
        per_pc[pc] = (fn, n)
    print(f"# {total} cycles")
    for fn, n in sorted(per_fn.items(), key=lambda x: -x[1])[:a.top]:
        extra = f" {n / a.per:10.1f}" if a.per else ""
        print(f"{n:12d} {100.0 * n / total:6.2f}%{extra}  {fn}")
    if a.lines:
        dis = subprocess.run(["riscv64-unknown-elf-objdump", "-d", "--no-show-raw-insn", a.elf], capture_output=True,
                             text=True, check=True).stdout
        text = {}
        for line in dis.splitlines():
            p = line.strip().split(":", 1)
            if len(p) == 2 and all(c in "0123456789abcdef" for c in p[0]) and p[0]:
                text[int(p[0], 16)] = p[1].strip()
        rows = sorted(((pc, n) for pc, (fn, n) in per_pc.items() if fn == a.lines), key=lambda x: x[0])
        for pc, n in rows:
            extra = f" {n / a.per:8.1f}" if a.per else ""
            print(f"{pc:08x} {n:10d}{extra}  {text.get(pc, '')}")


if __name__ == "__main__":
    main()
