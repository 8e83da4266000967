#!/usr/bin/env python3
"""Soft-core cycles per firmware function from a PC histogram.

The simulator writes one when RNIC_PC_PROFILE=PREFIX is set (PREFIX.<node>: "pc cycles" lines,
the PC of the instruction in the execute stage each cycle, so an MMIO wait counts at the access).
Usage: fw-pc-profile.py HIST ELF [--per N] [--lines FUNC] [--inlined [--src FUNC]]
  --per N     also print cycles divided by N (e.g. the WQEs of the run)
  --lines F   print the hottest instructions of function F with their disassembly
  --inlined   attribute each PC to the source function it came from, through the inline frames
              of the debug info (addr2line -i), not to the symbol that holds it: the firmware is
              linked with LTO, which inlines most of the data path into main. Small accessors
              (--helpers, a regular expression) count for the function that called them.
  --src F     with --inlined: cycles per source line of function F
"""
import argparse
import bisect
import re
import subprocess

HELPERS = r"(hal_|rnic_|psn_|ctx$|is_rd_atomic$|seg_op$|was_sent$)"


def inline_frames(elf, pcs):
    """{pc: [(function, file:line), ...]}, innermost frame first."""
    out = subprocess.run(["riscv64-unknown-elf-addr2line", "-f", "-i", "-a", "-e", elf],
                         input="".join(f"0x{pc:x}\n" for pc in pcs), capture_output=True, text=True,
                         check=True).stdout.splitlines()
    frames, cur, i = {}, None, 0
    while i < len(out):
        if out[i].startswith("0x"):
            cur = int(out[i], 16)
            frames[cur] = []
            i += 1
            continue
        loc = out[i + 1] if i + 1 < len(out) else ""
        frames[cur].append((out[i], loc.split("/")[-1].split(" ")[0]))
        i += 2
    return frames


def by_source(a, hist):
    frames = inline_frames(a.elf, [pc for pc, _ in hist])
    helpers = re.compile(a.helpers)
    acc, total = {}, 0
    for pc, n in hist:
        total += n
        fr = frames.get(pc) or [("?", "?")]
        fn, loc = next(((f, l) for f, l in fr if not helpers.match(f)), fr[-1])
        if a.src:
            if fn != a.src:
                continue
            fn = loc
        acc[fn] = acc.get(fn, 0) + n
    print(f"# {total} cycles")
    rows = sorted(acc.items(), key=lambda x: (x[0].split(":")[0], int(x[0].split(":")[1]))
                  if a.src and ":" in x[0] and x[0].split(":")[1].isdigit() else (str(-x[1]), ""))
    for fn, n in (rows if a.src else sorted(acc.items(), key=lambda x: -x[1])[:a.top]):
        extra = f" {n / a.per:10.1f}" if a.per else ""
        print(f"{n:12d} {100.0 * n / total:6.2f}%{extra}  {fn}")


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
    ap.add_argument("--inlined", action="store_true")
    ap.add_argument("--helpers", default=HELPERS)
    ap.add_argument("--src")
    a = ap.parse_args()
    if a.inlined:
        hist = [(int(pc, 16), int(n)) for pc, n in (line.split() for line in open(a.hist))]
        by_source(a, hist)
        return
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
