#!/usr/bin/env python3
"""Synthesis result cache: a committed record per synthesized top (cache/NAME.json) holding the
hash of everything that can change Yosys's result and the figures of the run that produced it.
synth.sh asks it before running Yosys (SYNTH_CACHE=use): on a match the recorded figures are
gated again (levels.txt, floors.txt are read at gate time, so they are not part of the key); on
a mismatch Yosys runs as without a cache and the user is told the record is stale.

The key covers, by content (sha256), never by mtime:
  - every file the flow reads, in the order synth.sh is given them (the Makefile's RTL_SRCS,
    so a new or removed RTL file changes the key), and the black boxes of SYNTH_LIBS;
  - the flow's scripts: synth.sh (the Yosys command), synth_report.py (how figures are counted),
    yosys_warnings.py and warnings-allow.txt (which warnings fail a run), configs/cfg.py and the
    configuration file, and the parameter text cfg.py produced;
  - the top, the configuration name, `yosys -V`, and KEY_FORMAT below.

  synth_cache.py key NAME TOP CONFIG PARAMS LIBS -- FILES...   prints the key, writes
        build/synth/NAME.key.json (the inputs and their hashes)
  synth_cache.py lookup NAME     exit 0 on a hit: writes build/synth/NAME.json, NAME.path.txt
        (and NAME.over.txt if the record has the over-budget listing) from the record and prints the summary; exit 1 on a miss, saying what differs
  synth_cache.py record NAME REPORT.json   the record of this run: build/synth/NAME.record.json
  synth_cache.py install NAME    copies build/synth/NAME.record.json into the cache if its key is
        the current one (exit 1 otherwise: the run is of another tree)
SYNTH_OUT (default build/synth) and SYNTH_CACHE_DIR (default cache/ next to this script) move
the two folders (tb/infra/test_synth_cache.sh does).
"""
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KEY_FORMAT = 1  # raise when the key's composition changes, so older records stop matching
OUT = os.environ.get("SYNTH_OUT", "build/synth")
CACHE = os.environ.get("SYNTH_CACHE_DIR", os.path.join(HERE, "cache"))
SCRIPTS = ["synth.sh", "synth_report.py", "yosys_warnings.py", "warnings-allow.txt",
           os.path.join("..", "configs", "cfg.py")]


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def rel(path):
    """Paths as the record shows them: relative to the checkout, so clones share records."""
    root = os.path.normpath(os.path.join(HERE, "..", ".."))
    p = os.path.abspath(path)
    return os.path.relpath(p, root) if p.startswith(root + os.sep) else path


def yosys_version():
    return subprocess.run(["yosys", "-V"], capture_output=True, text=True, check=True).stdout.strip()


def key(name, top, config, params, libs, files):
    scripts = [os.path.join(HERE, s) for s in SCRIPTS]
    if config:
        scripts.append(os.path.join(HERE, "..", "configs", config + ".cfg"))
    inputs = {
        "format": KEY_FORMAT, "top": top, "config": config, "params": params.strip(),
        "yosys": yosys_version(),
        "files": [[rel(f), sha(f)] for f in files],
        "libs": [[rel(f), sha(f)] for f in libs.split()],
        "scripts": [[rel(os.path.normpath(s)), sha(s)] for s in scripts],
    }
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
    json.dump({"name": name, "hash": digest, "inputs": inputs},
              open(os.path.join(OUT, name + ".key.json"), "w"), indent=1, sort_keys=True)
    print(digest)
    return 0


def load_key(name):
    return json.load(open(os.path.join(OUT, name + ".key.json")))


def differences(old, new):
    """What changed between the inputs of a record and the current ones, for the stale message."""
    out = []
    for k in ("format", "top", "config", "params", "yosys"):
        if old.get(k) != new.get(k):
            out.append(f"{k} {old.get(k)!r} -> {new.get(k)!r}")
    for k in ("files", "libs", "scripts"):
        a, b = dict(old.get(k, [])), dict(new.get(k, []))
        here = [f"changed {f}" for f in b if f in a and a[f] != b[f]]
        here += [f"added {f}" for f in b if f not in a]
        here += [f"removed {f}" for f in a if f not in b]
        if not here and [f for f, _ in old.get(k, [])] != [f for f, _ in new.get(k, [])]:
            here.append(f"order of {k}")
        out += here
    return out


def summary(name, r):
    return (f"synth {name}: LUT {r['lut']}, LUTRAM/SRL {r['lutram_srl']}, FF {r['ff']}, BRAM36 "
            f"{r['bram36']}, BRAM18 {r['bram18']}, DSP {r['dsp']}, longest path {r['lut_levels']} "
            f"LUT levels")


def lookup(name):
    cur = load_key(name)
    path = os.path.join(CACHE, name + ".json")
    if not os.path.isfile(path):
        print(f"synth {name}: no cache record ({rel(path)}): synthesizing")
        return 1
    rec = json.load(open(path))
    if rec.get("hash") != cur["hash"]:
        diff = differences(rec.get("inputs", {}), cur["inputs"])
        print(f"synth {name}: cache record STALE ({rel(path)}, hash {rec.get('hash', '?')[:12]}, now "
              f"{cur['hash'][:12]}): {'; '.join(diff[:8]) or 'inputs differ'}"
              f"{' ...' if len(diff) > 8 else ''}: synthesizing")
        return 1
    fig = dict(rec["figures"])
    fig["path_file"] = os.path.join(OUT, name + ".path.txt")
    fig["cached"] = rec["hash"]
    json.dump(fig, open(os.path.join(OUT, name + ".json"), "w"), indent=1)
    open(fig["path_file"], "w").write(rec["path"])
    if "over" in rec:  # the over-budget listing (records from before it have none)
        open(os.path.join(OUT, name + ".over.txt"), "w").write(rec["over"])
    print(f"synth {name}: cached (hash {rec['hash'][:12]}, recorded {rec['recorded']} with "
          f"{rec['inputs']['yosys']}; {len(rec['inputs']['files'])} RTL files, scripts and "
          f"parameters unchanged): Yosys not run")
    print(summary(name, fig) + f" (recorded; path: {fig['path_file']})")
    return 0


def record(name, report):
    cur = load_key(name)
    fig = json.load(open(report))
    path_file = fig.pop("path_file")
    path_text = open(path_file).read()
    over_file = path_file[:-len(".path.txt")] + ".over.txt" if path_file.endswith(".path.txt") else ""
    fig.pop("cached", None)
    rec = {"name": name, "hash": cur["hash"], "recorded": datetime.datetime.now(
        datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "inputs": cur["inputs"],
        "figures": fig, "summary": summary(name, fig), "path": path_text}
    if over_file and os.path.isfile(over_file):
        rec["over"] = open(over_file).read()
    json.dump(rec, open(os.path.join(OUT, name + ".record.json"), "w"), indent=1, sort_keys=True)
    return 0


def install(name):
    cur = load_key(name)
    src = os.path.join(OUT, name + ".record.json")
    if not os.path.isfile(src) or json.load(open(src)).get("hash") != cur["hash"]:
        return 1
    os.makedirs(CACHE, exist_ok=True)
    dst = os.path.join(CACHE, name + ".json")
    shutil.copyfile(src, dst)
    print(f"synth {name}: cache record written: {rel(dst)} (hash {cur['hash'][:12]})")
    return 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) >= 6 and a[0] == "key" and a[6:7] == ["--"]:
        sys.exit(key(a[1], a[2], a[3], a[4], a[5], a[7:]))
    if len(a) == 2 and a[0] == "lookup":
        sys.exit(lookup(a[1]))
    if len(a) == 3 and a[0] == "record":
        sys.exit(record(a[1], a[2]))
    if len(a) == 2 and a[0] == "install":
        sys.exit(install(a[1]))
    sys.exit(__doc__)
