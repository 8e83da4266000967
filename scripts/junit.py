#!/usr/bin/env python3
"""junit.py SUITE LOG [SECONDS]: the JUnit XML of one suite log on stdout.

One <testcase> per "PASS name" or "FAIL name why" line, in log order (so the counts are those of
the summary); a failure's message is its why, its text the RERUN line that follows it, if any.
CI systems (GitHub, GitLab, Jenkins) read this format to show results per check.
"""
import re
import sys
import xml.etree.ElementTree as ET

# Characters XML 1.0 cannot carry at all (a crashing program may print them).
BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def parse(lines):
    cases = []  # (name, why or None, rerun or None)
    for line in lines:
        line = BAD.sub("?", line.rstrip("\n"))
        if line.startswith("PASS "):
            cases.append([line[5:].strip() or "(unnamed)", None, None])
        elif line.startswith("FAIL "):
            name, _, why = line[5:].strip().partition(" ")
            cases.append([name or "(unnamed)", why or "failed", None])
        elif line.startswith("RERUN with waves: ") and cases and cases[-1][2] is not None:
            cases[-1][2] += "\n" + line.strip()  # the same check writing an FST
        elif line.startswith("RERUN ") and cases and cases[-1][1] is not None and cases[-1][2] is None:
            cases[-1][2] = line[6:].strip()
    return cases


def main():
    suite, log = sys.argv[1], sys.argv[2]
    secs = sys.argv[3] if len(sys.argv) > 3 else "0"
    with open(log, errors="replace") as f:
        cases = parse(f)
    failures = sum(1 for c in cases if c[1] is not None)
    root = ET.Element("testsuites", tests=str(len(cases)), failures=str(failures), time=secs)
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures),
                       errors="0", skipped="0", time=secs)
    for name, why, rerun in cases:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=name)
        if why is not None:
            fl = ET.SubElement(tc, "failure", message=why)
            fl.text = "RERUN " + (rerun or "make suite-%s\nRERUN with waves: make suite-%s WAVES=1" % (suite, suite))
    ET.ElementTree(root).write(sys.stdout, encoding="unicode", xml_declaration=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
