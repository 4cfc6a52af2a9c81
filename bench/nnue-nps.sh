#!/usr/bin/env bash
# Nodes a second of the learned evaluation against the hand-written one, measured in the same run (bench/nps-ab.sh
# with A = "Use NNUE" false, B = true: the ratio B/A is the net's): for each position of the rule set in
# koma-engine's bench list, one single-threaded search of MS milliseconds each, in alternation, ROUNDS times.
# Run it on an idle machine (the machines are shared and 2 cores); the ratio is what to quote.
#
# Usage: bench/nnue-nps.sh VARIANT [MS=1500] [ROUNDS=2]   (extra JVM options: KOMA_JAVA_OPTS, e.g. -Dkoma.nnue.scalar=true)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
variant="${1:?usage: bench/nnue-nps.sh VARIANT [MS] [ROUNDS]}"
"$root/koma" --version >/dev/null   # builds the jar when sources changed
exec "$root/bench/nps-ab.sh" -a "Use NNUE=false" -b "Use NNUE=true" "$root/koma uci" "$root/koma uci" \
  "$variant" "${2:-1500}" "${3:-2}"
