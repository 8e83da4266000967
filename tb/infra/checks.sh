# checks.sh: sourced by the tb/infra scripts. pass/fail print the PASS/FAIL lines (a FAIL with
# `RERUN $rerun`, and rc=1); `why=TEXT check NAME COMMAND...` passes when COMMAND succeeds.
rc=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 ${*:2}"; echo "RERUN $rerun"; rc=1; }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name" "${why:-}"; fi; why=""; }
