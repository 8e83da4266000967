#!/usr/bin/env python3
"""Summarises a Yosys synth_xilinx netlist (write_json): LUT/FF/BRAM/DSP counts and the longest
combinational path in LUT levels (carry chains and wide muxes count as zero levels; flops,
block RAMs, DSPs and shift registers start and end paths).

  synth_report.py TOP NETLIST.json OUT.json   prints one summary line, writes OUT.json
"""
import json
import sys
from collections import defaultdict

SEQ_PREFIX = ("FD", "RAMB", "DSP", "SRL", "RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "LDC", "LDP")


def main():
    top, netlist, out = sys.argv[1:4]
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
    cells = m["cells"]
    depth = {}

    def is_seq(t):
        return t.startswith(SEQ_PREFIX)

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
            ins = [drivers[b] for p, bits in c["connections"].items()
                   if c["port_directions"].get(p) == "input" for b in bits
                   if isinstance(b, int) and b in drivers]
            pending = [d for d in ins if d not in depth and not is_seq(cells[d]["type"])]
            if not done and pending:
                stack.append((name, True))
                stack.extend((d, False) for d in pending)
                continue
            base = max([depth.get(d, 0) if not is_seq(cells[d]["type"]) else 0 for d in ins] or [0])
            depth[name] = base + (1 if c["type"].startswith("LUT") else 0)
    lut = sum(v for k, v in counts.items() if k.startswith("LUT"))
    lutram = sum(v for k, v in counts.items() if k.startswith(("RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "SRL")))
    ff = sum(v for k, v in counts.items() if k.startswith("FD"))
    bram36 = counts.get("RAMB36E2", 0) + counts.get("RAMB36E1", 0)
    bram18 = counts.get("RAMB18E2", 0) + counts.get("RAMB18E1", 0)
    dsp = sum(v for k, v in counts.items() if k.startswith("DSP"))
    carry = sum(v for k, v in counts.items() if k.startswith("CARRY"))
    levels = max(depth.values() or [0])
    res = {"top": top, "lut": lut, "lutram_srl": lutram, "ff": ff, "bram36": bram36, "bram18": bram18,
           "dsp": dsp, "carry": carry, "lut_levels": levels, "cells": dict(sorted(counts.items()))}
    json.dump(res, open(out, "w"), indent=1)
    print(f"synth {top}: LUT {lut}, LUTRAM/SRL {lutram}, FF {ff}, BRAM36 {bram36}, BRAM18 {bram18}, "
          f"DSP {dsp}, longest path {levels} LUT levels")


if __name__ == "__main__":
    main()
