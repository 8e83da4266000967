#!/usr/bin/env python3
"""yosys_warnings.py LOG|- : the Yosys warnings that mean the netlist is not the RTL, minus the
reviewed ones in warnings-allow.txt. Prints each remaining warning and exits 1 when there is one
(0 when none; 2 when the allow-list is malformed).

Yosys 0.23 synthesizes on (exit 0) after these, so only this check stops them:
  - `Identifier ... is implicitly declared`: a misspelt or undeclared name became a 1-bit wire;
  - `Wire ... is used but has no driver`: e.g. an unpacked array of packed structs connected to a
    port (the port gets nothing, the wire stays undriven);
  - `Resizing cell port ...`: a connection whose width Yosys sees differently from the RTL, e.g.
    an element of an unpacked array of packed structs on an output port (1 bit wide to Yosys:
    the other bits are dropped with only this warning). Verilator's lint sees no mismatch there.
warnings-allow.txt (next to this script): one reviewed warning a line, `REGEX # reason`, REGEX a
Python regular expression searched in the warning's line; a line without a reason is refused,
so nothing is waived without saying why. docs/development.md, "RTL rules".
"""
import os
import re
import sys

PATTERNS = [re.compile(p) for p in (
    r"Warning: Identifier .* is implicitly declared",
    r"Warning: Wire .* is used but has no driver",
    r"Warning: Resizing cell port ",
)]
ALLOW = os.environ.get("SYNTH_WARN_ALLOW", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         "warnings-allow.txt"))


def allow_list(path):
    out = []
    if not os.path.exists(path):
        return out
    for n, line in enumerate(open(path), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        rx, sep, reason = text.partition(" # ")
        if not sep or not reason.strip() or not rx.strip():
            raise ValueError(f"{path}:{n}: no reason given (`REGEX # reason`)")
        out.append(re.compile(rx.strip()))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        allow = allow_list(ALLOW)
    except (ValueError, re.error) as e:
        print(f"FAILED: warnings allow-list: {e}")
        return 2
    src = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1], errors="replace")
    bad = [line.rstrip("\n") for line in src
           if any(p.search(line) for p in PATTERNS) and not any(a.search(line) for a in allow)]
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
