#!/usr/bin/env python3
"""Reads a named configuration of rnic_core (bitstream-scripts/configs/NAME.cfg) and prints it
in the form a tool takes, so each configuration is written once.

  cfg.py NAME verilator    -GDataWidth=512 -GNumQps=1024 ...
  cfg.py NAME yosys [TOP]  chparam -set DataWidth 512 ... TOP (default rnic_core; a board top
                           takes the same parameters and passes them down)
  cfg.py NAME get KEY      one value (line_gbps, core_mhz, or a parameter)
  cfg.py NAME check        the rules below; one PASS/FAIL line per rule, exit 1 on a FAIL
  cfg.py list              the configuration names

Lines are `key = value` (integers), `#` starts a comment. Lower-case keys describe the
configuration; UpperCamel keys are rnic_core parameters.
"""
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CORE = os.path.join(ROOT, "rtl", "core", "rnic_core.sv")
SPEC = os.path.join(ROOT, "spec", "rnic.toml")

# Flow-control headroom assumptions (docs/decisions/link-pause.md): 100 m of fibre each way, a
# maximum frame on the wire (MTU 4096 + headers + FCS + preamble/IFG, rounded up), a minimum frame
# (60 bytes + FCS + 20 bytes of preamble and inter-frame gap) and what a frame adds on the wire
# beyond the bytes the receive buffer keeps (FCS, preamble, gap).
FIBRE_NS = 500
MAX_WIRE_BYTES = 4400
MIN_WIRE_BYTES = 84
WIRE_EXTRA = 24


def load(name):
    path = os.path.join(HERE, name + ".cfg")
    if not os.path.isfile(path):
        sys.exit(f"cfg.py: no configuration '{name}' ({path}); known: {' '.join(names())}")
    cfg = {}
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*(\d+)", line)
        if not m:
            sys.exit(f"{path}:{n}: not `key = integer`: {line}")
        if m.group(1) in cfg:
            sys.exit(f"{path}:{n}: {m.group(1)} given twice")
        cfg[m.group(1)] = int(m.group(2))
    return cfg


def names():
    return sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".cfg"))


def params(cfg):
    return {k: v for k, v in cfg.items() if k[0].isupper()}


def core_params():
    """Parameter names and defaults of rnic_core, from its header."""
    text = open(CORE).read()
    head = text[text.index("module rnic_core"):text.index(") (")]
    return {m.group(1): m.group(2) for m in
            re.finditer(r"parameter\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*([^,/\n]+)", head)}


def check(name, cfg):
    results = []

    def rule(tag, ok, why):
        results.append((f"config-{name}-{tag}", ok, why))

    known = core_params()
    p = params(cfg)
    unknown = sorted(set(p) - set(known))
    rule("params-exist", not unknown, f"not parameters of rnic_core: {unknown}")
    for key in ("line_gbps", "core_mhz", "DataWidth", "NumQps"):
        rule(f"has-{key}", key in cfg, f"{key} missing")
    if any(not ok for _, ok, _ in results):
        return results
    dw, qps = cfg["DataWidth"], cfg["NumQps"]
    rule("width", dw in (64, 128, 256, 512), f"DataWidth {dw} not 64/128/256/512")
    # the datapath must carry the line rate in raw beats (frames add no bytes the beats do not)
    rule("rate", dw * cfg["core_mhz"] >= cfg["line_gbps"] * 1000,
         f"{dw} bits x {cfg['core_mhz']} MHz < {cfg['line_gbps']} Gb/s")
    rule("qps-pow2", qps >= 4 and qps & (qps - 1) == 0, f"NumQps {qps} not a power of two >= 4")
    # The firmware learns the QP count from hw_caps[20:16] and keeps per-QP state in a QP-context
    # RAM of NumQps entries, so any power of two up to the spec's ceiling serves one image.
    m = re.search(r"^max_num_qps\s*=\s*(\d+)", open(SPEC).read(), re.M)
    cap = int(m.group(1)) if m else None
    rule("qps-within-spec", cap is not None and qps <= cap, f"NumQps {qps} > spec device.max_num_qps {cap}")
    slots = cfg.get("RxRqSlots", 8)
    rule("rq-slots", slots in (2, 4, 8), f"RxRqSlots {slots} not 2/4/8")
    buf = cfg.get("RxBufBytes", 32768)
    meta = cfg.get("RxMetaDepth", 64)
    hb, hf = cfg.get("PauseHeadroomBytes", 22528), cfg.get("PauseHeadroomFrames", 48)
    hyb, hyf = cfg.get("PauseHystBytes", 2048), cfg.get("PauseHystFrames", 4)
    # XON must stay above one maximum frame (4352 bytes) or the buffer cannot take one frame
    # between XON and XOFF; counts must stay positive
    rule("pause-bytes", buf - hb - hyb >= 4352 and buf & (buf - 1) == 0,
         f"RxBufBytes {buf} - headroom {hb} - hysteresis {hyb} < one 4352-byte frame")
    rule("pause-frames", meta - hf - hyf >= 4, f"RxMetaDepth {meta} - {hf} - {hyf} < 4")
    rule("meta-pow2", meta >= 8 and meta & (meta - 1) == 0, f"RxMetaDepth {meta} not a power of two >= 8")
    # What may still arrive after XOFF (docs/decisions/link-pause.md, "Headroom"): the PAUSE waits
    # behind one maximum frame of ours, crosses the fibre, the far end finishes its frame, the
    # fibre back. In headers: that time filled with minimum frames, plus the far end's frame and
    # one in flight. In buffer bytes: the buffer keeps each frame in whole datapath words, so
    # small frames take more buffer than wire (up to 128 bytes for a 65-byte frame at 512 bits).
    gbps, wb = cfg["line_gbps"], dw // 8
    t_ns = MAX_WIRE_BYTES * 8 / gbps + 2 * FIBRE_NS
    min_slot_ns = MIN_WIRE_BYTES * 8 / gbps
    need_f = math.ceil(t_ns / min_slot_ns) + 2
    ratio = max(1.0, max(-(-n // wb) * wb / (n + WIRE_EXTRA) for n in range(60, MAX_WIRE_BYTES)))
    need_b = math.ceil(ratio * gbps / 8 * t_ns + MAX_WIRE_BYTES)
    rule("pause-headroom-frames", hf >= need_f,
         f"PauseHeadroomFrames {hf} < {need_f} minimum frames in {t_ns:.0f} ns at {gbps} Gb/s")
    rule("pause-headroom-bytes", hb >= need_b,
         f"PauseHeadroomBytes {hb} < {need_b} ({ratio:.2f} buffer bytes per wire byte at {dw} bits, {t_ns:.0f} ns)")
    return results


def main():
    a = sys.argv[1:]
    if a == ["list"]:
        print(" ".join(names()))
        return 0
    if len(a) < 2:
        sys.exit(__doc__)
    name, what = a[0], a[1]
    cfg = load(name)
    if what == "verilator":
        print(" ".join(f"-G{k}={v}" for k, v in params(cfg).items()))
    elif what == "yosys":
        top = a[2] if len(a) > 2 else "rnic_core"
        print("chparam " + " ".join(f"-set {k} {v}" for k, v in params(cfg).items()) + " " + top)
    elif what == "get" and len(a) == 3:
        if a[2] not in cfg:
            sys.exit(f"cfg.py: {name} has no {a[2]}")
        print(cfg[a[2]])
    elif what == "check":
        bad = 0
        for tag, ok, why in check(name, cfg):
            print(f"PASS {tag}" if ok else f"FAIL {tag} {why}")
            if not ok:
                bad += 1
                print(f"RERUN bitstream-scripts/configs/cfg.py {name} check")
        return 1 if bad else 0
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
