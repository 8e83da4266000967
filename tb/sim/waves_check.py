#!/usr/bin/env python3
"""waves_check.py [--only=G | --skip=G] VCD GTKW [FROM_PS TO_PS]: checks a VCD (fst2vcd of a trace
build's FST) against a GTKWave save file: every signal the save file shows exists in the VCD and
toggles (takes two values or more), and every time stamp lies inside the window. --skip=G leaves
out the groups whose name starts with G; --only=G checks only those groups' toggling (for a trace
of another run that exercises them). Prints PASS/FAIL lines."""
import sys


def parse_vcd(path):
    names = {}      # id -> [full names]
    values = {}     # id -> set of values seen (at most 2 kept)
    times = []
    scope = []
    with open(path) as f:
        in_defs = True
        for line in f:
            if in_defs:
                w = line.split()
                if not w:
                    continue
                if w[0] == "$scope":
                    scope.append(w[2])
                elif w[0] == "$upscope":
                    scope.pop()
                elif w[0] == "$var":
                    # $var wire 22 # name [21:0] $end
                    ident, name = w[3], w[4]
                    if len(w) > 6 and w[5].startswith("["):
                        name += w[5]
                    names.setdefault(ident, []).append(".".join(scope + [name]))
                elif w[0] == "$enddefinitions":
                    in_defs = False
                continue
            c = line[:1]
            if c == "#":
                times.append(int(line[1:]))
            elif c in "01xzXZ":
                v, ident = c, line[1:].strip()
                s = values.setdefault(ident, set())
                if len(s) < 2:
                    s.add(v)
            elif c in "bBrR":
                v, _, ident = line[1:].strip().partition(" ")
                s = values.setdefault(ident, set())
                if len(s) < 2:
                    s.add(v.lstrip("0") or "0")
    full = {}
    for ident, ns in names.items():
        for n in ns:
            full[n] = ident
    return full, values, times


def main():
    opts = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    only = next((a[7:] for a in opts if a.startswith("--only=")), None)
    skip = next((a[7:] for a in opts if a.startswith("--skip=")), None)
    vcd, gtkw = args[0], args[1]
    window = (int(args[2]), int(args[3])) if len(args) > 3 else None
    full, values, times = parse_vcd(vcd)
    sigs, group = [], None
    for line in open(gtkw):
        line = line.rstrip("\n")
        if line.startswith("-"):
            group = line[1:]
        elif line and not line.startswith(("[", "@", "*")):
            sigs.append((group, line))
    fails = 0

    def check(ok, name, why=""):
        nonlocal fails
        print(("PASS %s" % name) if ok else ("FAIL %s %s" % (name, why)))
        fails += 0 if ok else 1

    if only is None:
        check(len(sigs) > 40, "waves-gtkw-lists-signals", "only %d signals in %s" % (len(sigs), gtkw))
        missing = [s for _, s in sigs if s not in full]
        check(not missing, "waves-gtkw-signals-present", "not in the FST: " + " ".join(missing[:8]))
    # What must move under traffic: in each port group a valid and a payload (data, address,
    # PC; responses, ids, readies and the channels a window does not use may stay constant); of
    # the engine queues at least two valids (a run uses only some of them); MSI-X and pause only
    # need to exist.
    toggles = lambda s: s in full and len(values.get(full[s], ())) >= 2
    leaf = lambda s: s.split(".")[-1]
    groups = []
    for g, _ in sigs:
        if g not in groups:
            groups.append(g)
    for g in groups:
        names = [s for gg, s in sigs if gg == g]
        tag = "waves-toggle-" + "".join(ch for ch in g.split(" (")[0].lower() if ch.isalnum() or ch == " ").replace(" ", "-")
        moving = [leaf(s) for s in names if toggles(s)]
        valids = [leaf(s) for s in names if any(k in leaf(s) for k in ("valid", "clk"))]
        payload = [leaf(s) for s in names if any(k in leaf(s) for k in ("data", "addr", "_pc_"))]
        if g.startswith("MSI-X") or (only is not None and not g.startswith(only)) or \
                (skip is not None and g.startswith(skip)):
            continue
        if g.startswith("Clock"):  # reset and fw_ready move only at the start
            ok = "clk_i" in moving
        elif g.startswith("Engine"):
            ok = len(set(moving) & set(valids)) >= 2
        else:
            ok = bool(set(moving) & set(valids)) and bool(set(moving) & set(payload))
        check(ok, tag, "group '%s': toggling: %s" % (g, " ".join(moving) or "nothing"))
    if only is not None:
        return 1 if fails else 0
    check(len(times) > 100, "waves-has-samples", "%d time stamps" % len(times))
    if window and times:
        lo, hi = window
        check(times[0] >= lo and times[-1] <= hi, "waves-window",
              "time stamps %d..%d ps outside the window %d..%d ps" % (times[0], times[-1], lo, hi))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
