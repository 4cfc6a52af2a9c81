#!/usr/bin/env bash
# Nodes a second of two builds of the engine, measured in the same run: for each position of the rule set in
# koma-engine's bench list, one single-threaded search of MS milliseconds with jar A and one with jar B, in
# alternation, ROUNDS times; prints each search's nodes/s and the medians. Same options for both (the built-in
# net where the rule set has one). The machines are shared and 2 cores: quote the ratio, not the figures.
#
# Usage: bench/nps-ab.sh JAR_A JAR_B VARIANT [MS=1500] [ROUNDS=3]   (the java used: KOMA_JAVA, else java on PATH)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
a="${1:?usage: bench/nps-ab.sh JAR_A JAR_B VARIANT [MS] [ROUNDS]}" b="${2:?JAR_B}" variant="${3:?VARIANT}"
ms="${4:-1500}" rounds="${5:-3}"
java="${KOMA_JAVA:-java}"
for j in "$a" "$b"; do [ -f "$j" ] || { echo "no such jar: $j" >&2; exit 2; }; done
mapfile -t fens < <(awk -v v="$variant" '$1 == "search" && $2 == v {
    f = ""; for (i = 4; i <= NF; i++) f = f (i > 4 ? " " : "") $i; print (f == "" ? "startpos" : f) }' \
  "$root/koma-engine/src/main/resources/koma/engine/bench.txt")
[ "${#fens[@]}" -gt 0 ] || { echo "no bench positions for '$variant'" >&2; exit 2; }

# one search: prints the nodes/s of its last info line
search() {   # $1: jar, $2: fen or startpos
  local pos="startpos"
  [ "$2" != startpos ] && pos="fen $2"
  printf 'uci\nsetoption name UCI_Variant value %s\nisready\nposition %s\ngo movetime %s\n' "$variant" "$pos" "$ms" \
    | { cat; sleep $(( ms / 1000 + 3 )); echo quit; } \
    | "$java" --add-modules jdk.incubator.vector -jar "$1" uci 2>/dev/null | grep -o 'nps [0-9]*' | tail -1 | cut -d' ' -f2
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
na=() nb=()
for r in $(seq "$rounds"); do
  for f in "${fens[@]}"; do
    x=$(search "$a" "$f"); y=$(search "$b" "$f")
    na+=("$x"); nb+=("$y")
    printf 'round %s  A %8s  B %8s  %s\n' "$r" "$x" "$y" "$f"
  done
done
ma=$(printf '%s\n' "${na[@]}" | median); mb=$(printf '%s\n' "${nb[@]}" | median)
echo "median nodes/s: A $ma  B $mb  ratio B/A $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", b / a }')"
