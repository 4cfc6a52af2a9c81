#!/usr/bin/env bash
# Nodes a second of the learned evaluation against the hand-written one, measured in the same run: for each
# position of the rule set in koma-engine's bench list, one single-threaded search of MS milliseconds with
# "Use NNUE" true and one with false, in alternation, ROUNDS times; prints each search's nodes/s and the medians.
# Run it on an idle machine (the machines are shared and 2 cores); the ratio is what to quote.
#
# Usage: bench/nnue-nps.sh VARIANT [MS=1500] [ROUNDS=2]   (extra JVM options: KOMA_JAVA_OPTS, e.g. -Dkoma.nnue.scalar=true)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
variant="${1:?usage: bench/nnue-nps.sh VARIANT [MS] [ROUNDS]}"
ms="${2:-1500}" rounds="${3:-2}"
"$root/koma" --version >/dev/null   # builds the jar when sources changed
mapfile -t fens < <(awk -v v="$variant" '$1 == "search" && $2 == v {
    f = ""; for (i = 4; i <= NF; i++) f = f (i > 4 ? " " : "") $i; print (f == "" ? "startpos" : f) }' \
  "$root/koma-engine/src/main/resources/koma/engine/bench.txt")
[ "${#fens[@]}" -gt 0 ] || { echo "no bench positions for '$variant'" >&2; exit 2; }

# one search: prints the nodes/s of its last info line
search() {   # $1: true|false (Use NNUE), $2: fen or startpos
  local pos="startpos"
  [ "$2" != startpos ] && pos="fen $2"
  printf 'uci\nsetoption name UCI_Variant value %s\nsetoption name Use NNUE value %s\nisready\nposition %s\ngo movetime %s\n' \
      "$variant" "$1" "$pos" "$ms" \
    | { cat; sleep $(( ms / 1000 + 3 )); echo quit; } \
    | "$root/koma" uci 2>/dev/null | grep -o 'nps [0-9]*' | tail -1 | cut -d' ' -f2
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
nnue=() hce=()
for r in $(seq "$rounds"); do
  for f in "${fens[@]}"; do
    a=$(search true "$f"); b=$(search false "$f")
    nnue+=("$a"); hce+=("$b")
    printf 'round %s  nnue %8s  hce %8s  %s\n' "$r" "$a" "$b" "$f"
  done
done
mn=$(printf '%s\n' "${nnue[@]}" | median); mh=$(printf '%s\n' "${hce[@]}" | median)
echo "median nodes/s: nnue $mn  hce $mh  ratio $(awk -v a="$mn" -v b="$mh" 'BEGIN { printf "%.2f", a / b }')"
