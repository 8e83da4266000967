#!/usr/bin/env bash
#SBATCH --job-name=rnic-test
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=slurm-rnic-test-%A_%a.out
# slurm-shards.sh: `make test` spread over a SLURM array, one shard per task (scripts/shard.sh
# computes the split, the same one `make test SHARD=I/N` and .github/workflows/ci.yml use).
#   sbatch scripts/slurm-shards.sh                                  4 shards (--array=1-4)
#   sbatch --array=1-8 --export=ALL,SHARDS=8 scripts/slurm-shards.sh  8 shards
#   scripts/slurm-shards.sh --list [N]     prints "I: suites" for each shard, runs nothing
# Each task copies the checkout (without build/) to node-local scratch, so tasks never share a
# build tree, runs its shard there and copies build/results back to build/results-shard-I/ of
# the submitted checkout. Packages must be installed on the nodes (scripts/install-deps.sh).
set -uo pipefail
src=${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
n=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-4}}

if [ "${1:-}" = --list ]; then
  n=${2:-$n}
  suites=$(make -s --no-print-directory -C "$src" list-suites) || exit 1
  for i in $(seq 1 "$n"); do echo "$i: $("$src"/scripts/shard.sh "$i/$n" <<< "$suites" | tr '\n' ' ' | sed 's/ $//')"; done
  exit 0
fi

i=${SLURM_ARRAY_TASK_ID:?run through sbatch (or use --list)}
work=$(mktemp -d "${TMPDIR:-/tmp}/rnic-shard-$i.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -C "$src" --exclude=./build -cf - . | tar -C "$work" -xf -
cd "$work" || exit 1
make test SHARD="$i/$n"
rc=$?
mkdir -p "$src/build/results-shard-$i"
cp -r build/results/. "$src/build/results-shard-$i/"
exit $rc
