#!/usr/bin/env bash
# Nodes a second of two engines (two builds, or one build with two settings), measured in the same run: for each
# position of the rule set in koma-engine's bench list, one single-threaded search of MS milliseconds by A and one
# by B (each after a warm-up search of the same length), in alternation, ROUNDS times; prints each search's nodes/s and the medians. The machines are shared and
# 2 cores: quote the ratio, not the figures.
#
# Usage: bench/nps-ab.sh [-a 'NAME=VALUE']... [-b 'NAME=VALUE']... ENGINE_A ENGINE_B VARIANT [MS=1500] [ROUNDS=3]
#   ENGINE: a jar (run as "$KOMA_JAVA --add-modules jdk.incubator.vector -jar JAR uci", KOMA_JAVA defaulting to
#   java) or a UCI command line; -a/-b: UCI options of A or B (e.g. -b 'Use NNUE=false').
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
opts_a=() opts_b=()
while getopts "a:b:" o; do
  case "$o" in
    a) opts_a+=("$OPTARG") ;;
    b) opts_b+=("$OPTARG") ;;
    *) echo "usage: bench/nps-ab.sh [-a NAME=VALUE]... [-b NAME=VALUE]... ENGINE_A ENGINE_B VARIANT [MS] [ROUNDS]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
a="${1:?usage: bench/nps-ab.sh [-a NAME=VALUE]... [-b NAME=VALUE]... ENGINE_A ENGINE_B VARIANT [MS] [ROUNDS]}"
b="${2:?ENGINE_B}" variant="${3:?VARIANT}" ms="${4:-1500}" rounds="${5:-3}"
command_of() {   # $1: a jar or a command
  case "$1" in
    *.jar) [ -f "$1" ] || { echo "no such jar: $1" >&2; exit 2; }
           echo "${KOMA_JAVA:-java} --add-modules jdk.incubator.vector -jar $1 uci" ;;
    *) echo "$1" ;;
  esac
}
cmd_a="$(command_of "$a")" cmd_b="$(command_of "$b")"
mapfile -t fens < <(awk -v v="$variant" '$1 == "search" && $2 == v {
    f = ""; for (i = 4; i <= NF; i++) f = f (i > 4 ? " " : "") $i; print (f == "" ? "startpos" : f) }' \
  "$root/koma-engine/src/main/resources/koma/engine/bench.txt")
[ "${#fens[@]}" -gt 0 ] || { echo "no bench positions for '$variant'" >&2; exit 2; }

# Reads the engine's output up to bestmove; prints the nodes/s of the last info line. Gives up after MS + 60 s.
read_search() {
  local line nps=""
  while IFS= read -r -t $(( ms / 1000 + 60 )) line <&"${ENGINE[0]}"; do
    case "$line" in
      info*" nps "*) nps="${line#* nps }"; nps="${nps%% *}" ;;
      bestmove*) break ;;
    esac
  done
  echo "$nps"
}

# One measured search: the engine first searches the same position as long once to warm up (a cold JVM runs the
# net's vector code interpreted for its first second or so), then ucinewgame and the search whose nodes/s is
# printed. It waits for bestmove each time (a fixed sleep before "quit" cut searches short on a busy machine).
search() {   # $1: command, $2: fen or startpos, then the options NAME=VALUE
  local cmd="$1" pos="startpos" o nps
  [ "$2" != startpos ] && pos="fen $2"
  shift 2
  coproc ENGINE { $cmd 2>/dev/null; }
  {
    printf 'uci\nsetoption name UCI_Variant value %s\n' "$variant"
    for o in "$@"; do printf 'setoption name %s value %s\n' "${o%%=*}" "${o#*=}"; done
    printf 'isready\nposition %s\ngo movetime %s\n' "$pos" "$ms"
  } >&"${ENGINE[1]}"
  read_search >/dev/null
  printf 'ucinewgame\nisready\nposition %s\ngo movetime %s\n' "$pos" "$ms" >&"${ENGINE[1]}"
  nps="$(read_search)"
  echo quit >&"${ENGINE[1]}" 2>/dev/null || true
  wait "$ENGINE_PID" 2>/dev/null || true
  echo "$nps"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
na=() nb=()
for r in $(seq "$rounds"); do
  for f in "${fens[@]}"; do
    x=$(search "$cmd_a" "$f" ${opts_a[@]+"${opts_a[@]}"}); y=$(search "$cmd_b" "$f" ${opts_b[@]+"${opts_b[@]}"})
    na+=("$x"); nb+=("$y")
    printf 'round %s  A %8s  B %8s  %s\n' "$r" "$x" "$y" "$f"
  done
done
ma=$(printf '%s\n' "${na[@]}" | median); mb=$(printf '%s\n' "${nb[@]}" | median)
echo "median nodes/s: A $ma  B $mb  ratio B/A $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", b / a }')"
