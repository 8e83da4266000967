#!/usr/bin/env bash
# shard.sh I/N [FILE]: reads "suite budget_seconds" lines (FILE or stdin; `make -s list-suites`
# prints them) and prints the suites of shard I of N, one per line, longest first.
# Deterministic and balanced: suites sorted by budget (then name) go one by one to the shard
# with the least budget so far (the lowest index on a tie). Every consumer (make test SHARD=I/N,
# the CI matrix, scripts/slurm-shards.sh) calls this script, so they all agree on the split.
set -euo pipefail
spec=${1:-1/1}; shift || true
if ! [[ $spec =~ ^([0-9]+)/([0-9]+)$ ]] || [ "${BASH_REMATCH[1]}" -lt 1 ] || \
   [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
  echo "shard.sh: SHARD must be I/N with 1 <= I <= N, got '$spec'" >&2; exit 2
fi
i=${BASH_REMATCH[1]}; n=${BASH_REMATCH[2]}
cat "$@" | awk 'NF' | sort -k2,2nr -k1,1 | awk -v i="$i" -v n="$n" '
  BEGIN { for (s = 1; s <= n; s++) load[s] = 0 }
  { best = 1; for (s = 2; s <= n; s++) if (load[s] < load[best]) best = s
    load[best] += $2; if (best == i) print $1 }'
