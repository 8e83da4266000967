# check_lib.sh: the check helpers of the tools tests, sourced with $tmp set (a scratch dir).
# pass/bad print PASS/FAIL lines (bad sets fail=1); run CMD... leaves stdout in $tmp/out, stderr
# in $tmp/err and the status in $rc; same NAME FILE EXPECTED compares byte for byte; expect NAME
# WANT_RC WANT_STDERR_LINE checks the exit status and the exact message on stderr.
fail=0
pass() { echo "PASS $1"; }
bad() { echo "FAIL $1 $2"; fail=1; }
run() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
same() {
  if cmp -s "$2" "$3"; then pass "$1"
  else bad "$1" "differs: $(diff "$3" "$2" | grep -m2 '^[<>]' | tr '\n' ' ')"; fi
}
expect() {
  if [ "$rc" -ne "$2" ]; then bad "$1" "exit $rc, want $2: $(head -c 200 "$tmp/err")"
  elif ! grep -qxF -- "$3" "$tmp/err"; then bad "$1" "stderr lacks '$3': $(head -c 200 "$tmp/err")"
  else pass "$1"; fi
}
