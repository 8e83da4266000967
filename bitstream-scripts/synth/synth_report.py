#!/usr/bin/env python3
"""Summarises a Yosys synth_xilinx netlist (write_json): LUT/FF/BRAM/DSP counts and the longest
combinational path in LUT levels (carry chains and wide muxes count as zero levels; flops,
block RAMs, DSPs and shift registers start and end paths), then lists the cells along that path.
It also lists every path endpoint deeper than the budget (resources.py BUDGET_LEVELS, or
--budget N): TOP.over.txt, by the RTL file of the endpoint (flop, RAM, output port), one entry
per register with its deepest path's depth, start and SV lines; the summary prints the count
of over-budget endpoints (bits) per file.

ABC drops the `src` attribute of the LUTs it makes, so each path cell is shown with what still
points into the SV: its own `src` (flops, carry chains keep theirs) and the named nets its output
drives (those carry the `src` of the signal or always block they came from). A line with neither
is an anonymous LUT inside a cone; the named cells around it say which expression it belongs to.

  synth_report.py [--budget N] TOP NETLIST.json OUT.json [PATH.txt]
    prints one summary line (and one line of over-budget counts), writes OUT.json, (default
    OUT with .path.txt) the path listing and (PATH with .over.txt instead of .path.txt) the
    over-budget listing
"""
import json
import os
import re
import sys
from collections import defaultdict

SEQ_PREFIX = ("FD", "RAMB", "DSP", "SRL", "RAM32", "RAM64", "RAM128", "RAM256", "RAM16", "LDC", "LDP")


def rtl_src(s):
    """The SV part of a src attribute (Yosys joins several with '|'); '' for library cells."""
    if not s:
        return ""
    parts = [p for p in s.split("|") if "/share/yosys/" not in p]
    return "|".join(parts)


def default_budget():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from resources import BUDGET_LEVELS
    return BUDGET_LEVELS


# src parts that are instantiation statements (filled by instance_sites): a flattened cell's src
# holds its own line and those of the instances it sits in, sorted by name, not by nesting
SITES = set()


def instance_sites(m):
    """The src parts that name where an instance sits: for each instance path (the dotted prefix
    of the flattened net names), the parts every net inside it shares, less its parent's."""
    inter, kinds = {}, defaultdict(set)
    for nname, n in m["netnames"].items():
        if n.get("hide_name", 0) or "." not in nname:
            continue
        parts = frozenset(p for p in rtl_src(n.get("attributes", {}).get("src", "")).split("|") if p)
        if not parts:
            continue
        segs = nname.rsplit(".", 1)[0].split(".")
        for i in range(1, len(segs) + 1):
            q = ".".join(segs[:i])
            inter[q] = parts if q not in inter else inter[q] & parts
            kinds[q].add(parts)
    sites = set()
    for q, common in inter.items():
        if len(kinds[q]) < 2:  # one kind of net only: its own line would pass for the site
            continue
        parent = q.rsplit(".", 1)[0] if "." in q else None
        sites |= common - inter.get(parent, frozenset()) if parent else common
    return sites


def own_parts(src):
    """The parts of a src attribute that are the logic's own lines (not instance sites)."""
    parts = [p for p in rtl_src(src).split("|") if p]
    own = [p for p in parts if p not in SITES]
    return own or parts


def block_of(src):
    """The RTL file (without .sv) a src attribute points into, '' if none."""
    own = own_parts(src)
    return os.path.splitext(os.path.basename(own[0].split(":")[0]))[0] if own else ""


def main():
    args = sys.argv[1:]
    budget = None
    if "--budget" in args:
        i = args.index("--budget")
        budget = int(args[i + 1])
        del args[i:i + 2]
    if budget is None:
        budget = default_budget()
    top, netlist, out = args[0:3]
    path_out = args[3] if len(args) > 3 else os.path.splitext(out)[0] + ".path.txt"
    over_out = (path_out[:-len(".path.txt")] if path_out.endswith(".path.txt")
                else os.path.splitext(path_out)[0]) + ".over.txt"
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
    SITES.update(instance_sites(m))
    over = over_budget(top, m, cells, depth, pred, inputs, is_seq, bitnames, budget)
    write_over(over_out, top, budget, levels, over)

    res = {"top": top, "lut": lut, "lutram_srl": lutram, "ff": ff, "bram36": bram36, "bram18": bram18,
           "uram": uram, "dsp": dsp, "carry": carry, "lut_levels": levels, "cells": dict(sorted(counts.items())),
           "path_file": path_out}
    json.dump(res, open(out, "w"), indent=1)
    print(f"synth {top}: LUT {lut}, LUTRAM/SRL {lutram}, FF {ff}, BRAM36 {bram36}, BRAM18 {bram18}, "
          f"DSP {dsp}, longest path {levels} LUT levels (path: {path_out})")
    blocks = sorted(over.items(), key=lambda kv: (-kv[1]["depth"], -kv[1]["bits"], kv[0]))
    counts_txt = ", ".join(f"{b} {v['bits']} (max {v['depth']})" for b, v in blocks) or "none"
    print(f"synth {top}: endpoints over {budget} LUT levels by file: {counts_txt} (list: {over_out})")


def out_names(c, bitnames):
    """Named nets on a cell's outputs, visible names first."""
    outs = [b for p, bits in c["connections"].items()
            if c["port_directions"].get(p) == "output" for b in bits if isinstance(b, int)]
    return sorted({nm for b in outs for nm in bitnames.get(b, [])})


def here_of(c, bitnames):
    """The SV source a cell stands for: its outputs' named nets, else its own src."""
    names = out_names(c, bitnames)
    return next((s for _, _, s in names if s), rtl_src(c.get("attributes", {}).get("src", "")))


def over_budget(top, m, cells, depth, pred, inputs, is_seq, bitnames, budget):
    """Every endpoint (sequential cell input, output port) whose deepest input path has more than
    BUDGET LUT levels, grouped by the RTL file of the endpoint and then by register (the named
    net on the endpoint's output with its bit index dropped): per register the number of
    endpoint cells (bits), the deepest one's depth, start and the SV lines along its path."""
    def comb_in(drv):
        return [(d, b) for d, b in drv if not is_seq(cells[d]["type"])]

    ends = []  # (depth, deepest input cell, file, register, endpoint description)
    for name, c in cells.items():
        if not is_seq(c["type"]):
            continue
        ins = comb_in(inputs(c))
        if not ins:
            continue
        d, drv = max((depth.get(x, 0), x) for x, _ in ins)
        if d <= budget:
            continue
        src = "|".join(own_parts(c.get("attributes", {}).get("src", "")))
        names = out_names(c, bitnames)
        vis = [lbl for hidden, lbl, _ in names if not hidden]
        reg = re.sub(r"\[\d+\]$", "", vis[0]) if vis else (src.split("|")[0] or name)
        blk = block_of(src) or next((block_of(s) for _, _, s in names if block_of(s)), "") or "?"
        ends.append((d, drv, blk, reg, f"{c['type']} {src}"))
    drivers = {}
    for name, c in cells.items():
        for port, bits in c["connections"].items():
            if c["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        drivers[b] = name
    for pname, p in m.get("ports", {}).items():
        if p.get("direction") != "output":
            continue
        for i, b in enumerate(p["bits"]):
            drv = drivers.get(b) if isinstance(b, int) else None
            if drv is None or is_seq(cells[drv]["type"]) or depth.get(drv, 0) <= budget:
                continue
            ends.append((depth[drv], drv, top, f"port {pname}", f"output port {pname}[{i}]"))
    groups = {}
    for d, drv, blk, reg, desc in ends:
        g = groups.setdefault(blk, {}).setdefault(reg, {"bits": 0, "depth": -1})
        g["bits"] += 1
        if d > g["depth"]:
            g.update(depth=d, drv=drv, end=desc)
    over = {}
    for blk, regs in groups.items():
        entries = []
        for reg, g in regs.items():
            # the path into the deepest bit, walked back to its start
            path, cur = [], g["drv"]
            while cur is not None:
                path.append(cur)
                if is_seq(cells[cur]["type"]):
                    break
                p = pred.get(cur)
                cur = p[0] if p else None
            path.reverse()
            st = cells[path[0]]
            st_names = [lbl for hidden, lbl, _ in out_names(st, bitnames) if not hidden]
            st_src = "|".join(own_parts(st.get("attributes", {}).get("src", "")))
            start = (f"{st['type']} {st_names[0] if st_names else ''} "
                     f"[{block_of(st_src) or block_of(here_of(st, bitnames)) or '?'}] {st_src}").strip()
            svl, last = [], None
            for n in path:
                h = here_of(cells[n], bitnames)
                for part in own_parts(h) if h else []:
                    # ":0.0-0.0" is Yosys's placeholder for logic without a source line
                    if part and not part.endswith(":0.0-0.0") and part != last and part not in svl:
                        svl.append(part)
                    last = part or last
            entries.append({"reg": reg, "bits": g["bits"], "depth": g["depth"], "start": start,
                            "end": g["end"], "sv": svl})
        entries.sort(key=lambda e: (-e["depth"], -e["bits"], e["reg"]))
        over[blk] = {"bits": sum(e["bits"] for e in entries), "depth": entries[0]["depth"],
                     "entries": entries}
    return over


def write_over(path, top, budget, levels, over):
    blocks = sorted(over.items(), key=lambda kv: (-kv[1]["depth"], -kv[1]["bits"], kv[0]))
    lines = [f"{top}: endpoints deeper than {budget} LUT levels (longest {levels}), by the RTL file of "
             f"the endpoint; per register its over-budget bits, the deepest bit's depth, start "
             f"(cell, net, [file], src) and the SV lines on that path, start to end"]
    if not blocks:
        lines.append("none")
    for blk, v in blocks:
        lines.append("")
        lines.append(f"== {blk}: {v['bits']} endpoint bits over {budget}, deepest {v['depth']}")
        for e in v["entries"]:
            lines.append(f"  {e['depth']:>3}  {e['reg']}  ({e['bits']} bits; end {e['end']})")
            lines.append(f"       from {e['start']}")
            for sv in e["sv"]:
                lines.append(f"         {sv}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
