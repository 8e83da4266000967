#!/usr/bin/env python3
"""Summarises a Yosys synth_xilinx netlist (write_json): LUT/FF/BRAM/DSP counts and the longest
combinational path in LUT levels (carry chains and wide muxes count as zero levels; flops,
block RAMs, DSPs and shift registers start and end paths), then lists the cells along that path.

ABC drops the `src` attribute of the LUTs it makes, so each path cell is shown with what still
points into the SV: its own `src` (flops, carry chains keep theirs) and the named nets its output
drives (those carry the `src` of the signal or always block they came from). A line with neither
is an anonymous LUT inside a cone; the named cells around it say which expression it belongs to.

  synth_report.py TOP NETLIST.json OUT.json [PATH.txt]
    prints one summary line, writes OUT.json and (default OUT with .path.txt) the path listing
"""
import json
import os
import sys
from collections import defaultdict

SEQ_PREFIX = ("FD", "RAMB", "DSP", "SRL", "RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "LDC", "LDP")


def rtl_src(s):
    """The SV part of a src attribute (Yosys joins several with '|'); '' for library cells."""
    if not s:
        return ""
    parts = [p for p in s.split("|") if "/share/yosys/" not in p]
    return "|".join(parts)


def main():
    top, netlist, out = sys.argv[1:4]
    path_out = sys.argv[4] if len(sys.argv) > 4 else os.path.splitext(out)[0] + ".path.txt"
    mods = json.load(open(netlist))["modules"]
    m = mods[top]
    counts = defaultdict(int)
    drivers = {}  # net bit -> cell name
    for name, c in m["cells"].items():
        counts[c["type"]] += 1
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        drivers[b] = name
    # net bit -> named nets through it (visible names first, then hidden ones that carry an SV src)
    bitnames = defaultdict(list)
    for nname, n in m["netnames"].items():
        src = rtl_src(n.get("attributes", {}).get("src", ""))
        hidden = n.get("hide_name", 0)
        if hidden and not src:
            continue
        for i, b in enumerate(n["bits"]):
            if isinstance(b, int):
                label = nname if len(n["bits"]) == 1 else f"{nname}[{i}]"
                bitnames[b].append((hidden, label, src))
    cells = m["cells"]
    depth = {}
    pred = {}  # cell -> (input cell on its longest path, net bit between them)

    def is_seq(t):
        # black boxes (a board top's rnic_core and vendor IP, possibly derived: $paramod...)
        # start and end paths like flops: their insides are reported on their own
        return t.startswith(SEQ_PREFIX) or t.startswith(("rnic_", "$paramod"))

    def inputs(c):
        return [(drivers[b], b) for p, bits in c["connections"].items()
                if c["port_directions"].get(p) == "input" for b in bits
                if isinstance(b, int) and b in drivers]

    # Iterative longest path over the combinational DAG.
    for start in cells:
        if start in depth:
            continue
        stack = [(start, False)]
        while stack:
            name, done = stack.pop()
            if name in depth:
                continue
            c = cells[name]
            if is_seq(c["type"]):
                depth[name] = 0
                continue
            ins = inputs(c)
            pending = [d for d, _ in ins if d not in depth and not is_seq(cells[d]["type"])]
            if not done and pending:
                stack.append((name, True))
                stack.extend((d, False) for d in pending)
                continue
            base, best = 0, None
            for d, b in ins:
                v = 0 if is_seq(cells[d]["type"]) else depth.get(d, 0)
                if best is None or v > base:
                    base, best = v, (d, b)
            pred[name] = best
            depth[name] = base + (1 if c["type"].startswith("LUT") else 0)
    lut = sum(v for k, v in counts.items() if k.startswith("LUT"))
    lutram = sum(v for k, v in counts.items() if k.startswith(("RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "SRL")))
    ff = sum(v for k, v in counts.items() if k.startswith("FD"))
    bram36 = counts.get("RAMB36E2", 0) + counts.get("RAMB36E1", 0)
    bram18 = counts.get("RAMB18E2", 0) + counts.get("RAMB18E1", 0)
    uram = counts.get("URAM288", 0)
    dsp = sum(v for k, v in counts.items() if k.startswith("DSP"))
    carry = sum(v for k, v in counts.items() if k.startswith("CARRY"))
    levels = max(depth.values() or [0])

    # Walk the deepest path back from its end, then report it start to end. The path ends at a
    # sequential cell's input (or an output port) fed by the deepest combinational cell.
    path = []
    if depth:
        end = max(depth, key=lambda n: depth[n])
        cur, via = end, None
        while cur is not None:
            path.append((cur, via))
            if is_seq(cells[cur]["type"]):
                break
            p = pred.get(cur)
            cur, via = (p[0], p[1]) if p else (None, None)
        path.reverse()
        sinks = [n for n, c in cells.items() if is_seq(c["type"]) and
                 any(d == end for d, _ in inputs(c))]
    lines = [f"{top}: longest combinational path, {levels} LUT levels, start to end"]
    lines.append(f"{'lvl':>4} {'cell':<10} named nets on its output (SV src) / cell src")
    hot = defaultdict(int)  # SV line -> LUT levels attributed to it
    last_src = ""
    for name, _ in path:
        c = cells[name]
        outs = [b for p, bits in c["connections"].items()
                if c["port_directions"].get(p) == "output" for b in bits if isinstance(b, int)]
        names = sorted({nm for b in outs for nm in bitnames.get(b, [])})[:3]
        csrc = rtl_src(c.get("attributes", {}).get("src", ""))
        desc = "; ".join(f"{lbl} ({src})" if src else lbl for _, lbl, src in names)
        if csrc:
            desc = (desc + " / " if desc else "") + f"cell {csrc}"
        here = next((s for _, _, s in names if s), csrc)
        if here:
            last_src = here
        if c["type"].startswith("LUT"):
            hot[last_src or "?"] += 1
        lines.append(f"{depth.get(name, 0):>4} {c['type']:<10} {desc}")
    for s in sinks[:3] if path else []:
        c = cells[s]
        lines.append(f"{'end':>4} {c['type']:<10} cell {rtl_src(c.get('attributes', {}).get('src', ''))}")
    lines.append("LUT levels by the nearest SV source named at or before them on the path:")
    for s, n in sorted(hot.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {n:>4}  {s}")
    with open(path_out, "w") as f:
        f.write("\n".join(lines) + "\n")

    res = {"top": top, "lut": lut, "lutram_srl": lutram, "ff": ff, "bram36": bram36, "bram18": bram18,
           "uram": uram, "dsp": dsp, "carry": carry, "lut_levels": levels, "cells": dict(sorted(counts.items())),
           "path_file": path_out}
    json.dump(res, open(out, "w"), indent=1)
    print(f"synth {top}: LUT {lut}, LUTRAM/SRL {lutram}, FF {ff}, BRAM36 {bram36}, BRAM18 {bram18}, "
          f"DSP {dsp}, longest path {levels} LUT levels (path: {path_out})")


if __name__ == "__main__":
    main()
