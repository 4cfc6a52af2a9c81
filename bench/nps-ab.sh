#!/usr/bin/env bash
# Nodes a second of two engines (two builds, or one build with two settings), measured in the same run: for each
# position of the rule set in koma-engine's bench list, one single-threaded search of MS milliseconds by A and one
# by B (each after a warm-up search of the same length), in alternation, ROUNDS times; prints each search's nodes/s and the medians. The machines are shared and
# 2 cores: quote the ratio, not the figures.
# With -d DEPTH the searches go to that depth instead (MS is then unused): two builds that search the same tree (a
# pure speed change: the same node counts) compare by time on identical work, which sees 10% where fixed-time
# nodes/s, spread +/-20% on these machines, cannot (bench/results/2026-11-28-stop47.txt section 5). It prints each
# search's nodes and ms and, when every pair searched the same nodes, the ratio of the summed times.
#
# Usage: bench/nps-ab.sh [-d DEPTH] [-a 'NAME=VALUE']... [-b 'NAME=VALUE']... ENGINE_A ENGINE_B VARIANT [MS=1500]
#        [ROUNDS=3]
#   ENGINE: a jar (run as "$KOMA_JAVA --add-modules jdk.incubator.vector -jar JAR uci", KOMA_JAVA defaulting to
#   java) or a UCI command line; -a/-b: UCI options of A or B (e.g. -b 'Use NNUE=false').
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
opts_a=() opts_b=() depth=""
while getopts "a:b:d:" o; do
  case "$o" in
    a) opts_a+=("$OPTARG") ;;
    b) opts_b+=("$OPTARG") ;;
    d) depth="$OPTARG"
       [[ "$depth" =~ ^[1-9][0-9]?$ ]] || { echo "-d: a depth from 1 to 99, got '$depth'" >&2; exit 2; } ;;
    *) echo "usage: bench/nps-ab.sh [-d DEPTH] [-a NAME=VALUE]... [-b NAME=VALUE]... ENGINE_A ENGINE_B VARIANT [MS] [ROUNDS]" >&2; exit 2 ;;
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

# The bench list writes each position in its rule set's own notation (the definition's 'notation': fen or sfen);
# UCI's 'position fen' refuses an SFEN, so an SFEN goes as 'position sfen' (which the UCI session also takes).
notation="$(awk -F' *= *' '$1 == "notation" { print $2; exit }' \
  "$root/koma-rules/src/main/resources/koma/rules/$variant.rules" 2>/dev/null || true)"
position_word=fen
[ "$notation" = sfen ] && position_word=sfen

go="go movetime $ms"
[ -n "$depth" ] && go="go depth $depth"

# Reads the engine's output up to bestmove; prints the nodes/s, nodes and ms of the last info line that has them.
# Gives up after MS + 60 s without a line (a fixed-depth search: 600 s).
read_search() {
  local line nps="" nodes="" time="" wait=$(( ms / 1000 + 60 ))
  [ -n "$depth" ] && wait=600
  while IFS= read -r -t "$wait" line <&"${ENGINE[0]}"; do
    case "$line" in
      info*" nps "*" time "*)
        nps="${line#* nps }"; nps="${nps%% *}"
        nodes="${line#* nodes }"; nodes="${nodes%% *}"
        time="${line#* time }"; time="${time%% *}" ;;
      bestmove*) break ;;
    esac
  done
  echo "$nps $nodes $time"
}

# One measured search: the engine first searches the same position as long once to warm up (a cold JVM runs the
# net's vector code interpreted for its first second or so), then ucinewgame and the search whose nodes/s, nodes and
# ms are printed. It waits for bestmove each time (a fixed sleep before "quit" cut searches short on a busy machine).
search() {   # $1: command, $2: fen or startpos, then the options NAME=VALUE
  local cmd="$1" pos="startpos" o result
  [ "$2" != startpos ] && pos="$position_word $2"
  shift 2
  coproc ENGINE { $cmd 2>/dev/null; }
  {
    printf 'uci\nsetoption name UCI_Variant value %s\n' "$variant"
    for o in "$@"; do printf 'setoption name %s value %s\n' "${o%%=*}" "${o#*=}"; done
    printf 'isready\nposition %s\n%s\n' "$pos" "$go"
  } >&"${ENGINE[1]}"
  read_search >/dev/null
  printf 'ucinewgame\nisready\nposition %s\n%s\n' "$pos" "$go" >&"${ENGINE[1]}"
  result="$(read_search)"
  echo quit >&"${ENGINE[1]}" 2>/dev/null || true
  wait "$ENGINE_PID" 2>/dev/null || true
  echo "$result"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
na=() nb=() same=1 ta=0 tb=0
for r in $(seq "$rounds"); do
  for f in "${fens[@]}"; do
    read -r x xn xt <<< "$(search "$cmd_a" "$f" ${opts_a[@]+"${opts_a[@]}"})"
    read -r y yn yt <<< "$(search "$cmd_b" "$f" ${opts_b[@]+"${opts_b[@]}"})"
    na+=("$x"); nb+=("$y")
    if [ -n "$depth" ]; then
      printf 'round %s  A %8s nodes %6s ms  B %8s nodes %6s ms  %s\n' "$r" "$xn" "$xt" "$yn" "$yt" "$f"
      [ "$xn" = "$yn" ] || same=0
      ta=$(( ta + xt )) tb=$(( tb + yt ))
    else
      printf 'round %s  A %8s  B %8s  %s\n' "$r" "$x" "$y" "$f"
    fi
  done
done
ma=$(printf '%s\n' "${na[@]}" | median); mb=$(printf '%s\n' "${nb[@]}" | median)
echo "median nodes/s: A $ma  B $mb  ratio B/A $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", b / a }')"
if [ -n "$depth" ]; then
  if [ "$same" = 1 ]; then
    echo "same trees: A $ta ms  B $tb ms in all, speed B/A $(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.2f", a / b }')"
  else
    echo "the trees differ (node counts): compare nodes/s, not times"
  fi
fi
