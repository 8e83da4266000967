#!/usr/bin/env bash
# Checks the single-source contract: committed generated files match spec/rnic.toml, a changed
# spec is detected as stale, and an invalid spec is refused.
set -uo pipefail
fail=0
check() { if [ "$1" -eq 0 ]; then echo "PASS $2"; else echo "FAIL $2"; fail=1; fi; }

python3 spec/gen/rnic_gen.py --check; check $? "spec-generated-files-up-to-date"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A copy of the tree's generated files with an edited spec must be reported stale.
mkdir -p "$tmp/tree"
for f in rtl/common/rnic_spec_pkg.sv rtl/common/rnic_regs.sv spec/include/rnic_spec.h docs/interface.md; do
  mkdir -p "$tmp/tree/$(dirname "$f")"; cp "$f" "$tmp/tree/$f"
done
sed 's/{ name = "byte_len", off = 8, bits = 32 }/{ name = "byte_len", off = 8, bits = 24 }/' spec/rnic.toml > "$tmp/edited.toml"
cmp -s spec/rnic.toml "$tmp/edited.toml"; [ $? -ne 0 ]; check $? "spec-edit-applied"
python3 spec/gen/rnic_gen.py --spec "$tmp/edited.toml" --root "$tmp/tree" --check 2>"$tmp/err"
rc=$?; [ $rc -eq 1 ] && grep -q "rnic_spec.h" "$tmp/err"; check $? "spec-stale-file-detected"
# Regenerating into the copy makes it clean again, and the C header changed the CQE field.
python3 spec/gen/rnic_gen.py --spec "$tmp/edited.toml" --root "$tmp/tree" >/dev/null
python3 spec/gen/rnic_gen.py --spec "$tmp/edited.toml" --root "$tmp/tree" --check; check $? "spec-regenerated-clean"
grep -q "X(cqe, byte_len, 8, 4, 0, 24)" "$tmp/tree/spec/include/rnic_spec.h" && \
  grep -A2 "rnic_cqe_get_byte_len" "$tmp/tree/spec/include/rnic_spec.h" | grep -q "+ 8) & 0xFFFFFFu"; check $? "spec-edit-reaches-c-header"
# Overlapping fields are refused with an error, not rendered.
sed 's/{ name = "imm_data", off = 12, bits = 32, doc = "network order, as ibv_wc.imm_data" }/{ name = "imm_data", off = 10, bits = 32 }/' spec/rnic.toml > "$tmp/bad.toml"
python3 spec/gen/rnic_gen.py --spec "$tmp/bad.toml" --root "$tmp/tree" --check 2>"$tmp/err2"
rc=$?; [ $rc -eq 2 ] && grep -q "overlaps" "$tmp/err2"; check $? "spec-overlap-refused"
# The Python module (spec/py/rnic_spec.py, for mkimage.py) names every layout field where the
# C header does, and get/put round-trip a field without touching its neighbours.
python3 - <<'PY'; check $? "spec-python-module-matches-c-header"
import re, sys
sys.path.insert(0, "spec/py")
import rnic_spec
rows = re.findall(r"\tX\((\w+), (\w+), (\d+), \d+, (\d+), (\d+)\)", open("spec/include/rnic_spec.h").read())
py = {(l, f): v for l, (size, fields) in rnic_spec.LAYOUTS.items() for f, v in fields.items()}
c = {(l, f): (int(o), int(lsb), int(b)) for l, f, o, lsb, b in rows}
if py != c or not c:
    sys.exit(f"python/C layout fields differ: {sorted(set(py.items()) ^ set(c.items()))[:5]}")
buf = bytearray(b"\xAA" * 32)
rnic_spec.put("fw_image_hdr", "magic", buf, rnic_spec.FW_IMAGE_MAGIC)
rnic_spec.put("bf_status", "valid", buf, 1, base=8)
assert rnic_spec.get("fw_image_hdr", "magic", buf) == 0x57464E52 and buf[0:4] == b"RNFW"
assert buf[11] == 0xAA | 0x80 and buf[4:11] == b"\xAA" * 7 and rnic_spec.get("bf_status", "seq", buf, base=8) == 0xAA
PY
exit $fail
