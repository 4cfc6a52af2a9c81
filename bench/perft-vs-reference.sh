#!/usr/bin/env bash
# Single-threaded perft speed from the start positions: Koma against the reference engines, measured on this
# machine in this run, and the ratio against the project's targets.
#
#   bench/perft-vs-reference.sh           full run (about 3-4 minutes on 2 cores)
#   bench/perft-vs-reference.sh --quick   shallow depths, a few seconds: checks that the script works, not speed
#
# Koma:      ./koma bench perft --variant V --depth D --runs 3  (best of 3 after a warm-up, timed inside the JVM,
#            so JVM start-up and JIT warm-up are not counted).
# Reference: Stockfish (chess), Fairy-Stockfish (shogi; Shodo and its deathmatch with ../shared/tools/shodo.ini),
#            Sjaak II (Wa shogi with and without drops), from Debian: apt-get install -y stockfish fairy-stockfish sjaakii
#            Stockfish and Fairy-Stockfish print no time for perft: the whole process is timed with the wall clock,
#            best of 3, minus the best of 3 of the same process doing perft 1 (start-up, NNUE/variant loading).
#            Sjaak II prints the time of each perft depth itself; the best of 3 of its last depth is used.
# Every engine here runs on one thread. Other load on the machine (builds, tests) skews all numbers: run it idle.
set -euo pipefail

RUNS=3
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
export PATH="$PATH:/usr/games"
export LC_ALL=C
shodo_ini="$root/../shared/tools/shodo.ini"   # ../shared/tools/shodo.ini from the repository root

die() { echo "perft-vs-reference: $*" >&2; exit 1; }
for tool in stockfish fairy-stockfish sjaakii; do
  command -v "$tool" >/dev/null || die "'$tool' not found; apt-get install -y stockfish fairy-stockfish sjaakii"
done
[[ -f "$shodo_ini" ]] || die "no $shodo_ini"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }

# uci_time ENGINE SETUP_LINES DEPTH -> "best_ns nodes": best wall time of RUNS runs of the whole process doing
# 'go perft DEPTH' after SETUP_LINES (UCI commands separated by ';').
uci_time() {
  local engine="$1" setup="$2" depth="$3" best="" t0 t1 nodes="" n
  for ((r = 0; r < RUNS; r++)); do
    t0="$(now_ns)"
    printf '%s\nposition startpos\ngo perft %d\nquit\n' "${setup//;/$'\n'}" "$depth" | "$engine" >"$tmp/out" 2>&1
    t1="$(now_ns)"
    n="$(sed -n 's/^Nodes searched: \([0-9]*\).*/\1/p' "$tmp/out" | tail -1)"
    [[ -n "$n" ]] || die "$engine printed no 'Nodes searched' for perft $depth: $(tail -3 "$tmp/out")"
    nodes="$n"
    if [[ -z "$best" || $((t1 - t0)) -lt "$best" ]]; then best=$((t1 - t0)); fi
  done
  echo "$best $nodes"
}

# uci_nps ENGINE SETUP DEPTH -> "nps nodes seconds startup_seconds"
uci_nps() {
  local engine="$1" setup="$2" depth="$3" full base
  base="$(uci_time "$engine" "$setup" 1)"
  full="$(uci_time "$engine" "$setup" "$depth")"
  awk -v f="${full% *}" -v n="${full#* }" -v b="${base% *}" 'BEGIN {
    t = (f - b) / 1e9; if (t <= 0) t = f / 1e9
    printf "%.0f %d %.3f %.3f\n", n / t, n, t, b / 1e9 }'
}

# sjaak_nps VARIANT DEPTH -> "nps nodes seconds -": Sjaak II's own time for the last perft depth, best of RUNS.
sjaak_nps() {
  local variant="$1" depth="$2" line best_t="" nodes="" t
  for ((r = 0; r < RUNS; r++)); do
    printf 'xboard\nprotover 2\nvariant %s\nforce\nperft %d\nquit\n' "$variant" "$depth" | sjaakii >"$tmp/out" 2>&1
    # lines look like " 4    6158810  3.79   1624679.75nps", possibly with colour codes and a prompt in front
    line="$(sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^.*>//' "$tmp/out" |
      awk -v d="$depth" '$1 == d && $2 ~ /^[0-9]+$/ && $4 ~ /nps$/ { print $2, $3 }' | tail -1)"
    [[ -n "$line" ]] || die "sjaakii printed no perft $depth line for $variant: $(tail -3 "$tmp/out")"
    nodes="${line% *}"
    t="${line#* }"
    if [[ -z "$best_t" ]] || awk -v a="$t" -v b="$best_t" 'BEGIN { exit !(a < b) }'; then best_t="$t"; fi
  done
  awk -v n="$nodes" -v t="$best_t" 'BEGIN { if (t <= 0) t = 0.005; printf "%.0f %d %.3f -\n", n / t, n, t }'
}

# koma_nps VARIANT DEPTH -> "nps nodes seconds"
koma_nps() {
  local variant="$1" depth="$2" line
  line="$(KOMA_NO_BUILD=1 ./koma bench perft --variant "$variant" --depth "$depth" --runs "$RUNS" | awk -v v="$variant" '$1 == v')"
  [[ -n "$line" ]] || die "koma bench printed no line for $variant"
  # "chess             depth 6  nodes    119,060,324  time   6.854 s  nps    17,371,439"
  awk '{ for (i = 1; i <= NF; i++) { if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1); if ($i == "nps") s = $(i + 1) } }
       END { gsub(/[^0-9]/, "", n); gsub(/[^0-9]/, "", s); print s, n, t }' <<<"$line"
}

fsf_shodo="setoption name VariantPath value $shodo_ini"
# variant | koma depth | reference engine | reference setup | reference depth | target ratio
if ((quick)); then
  plan=(
    "chess|4|stockfish||4|0.5"
    "shogi|3|fairy-stockfish|setoption name UCI_Variant value shogi|3|2"
    "washogi|3|sjaakii|wa-shogi|3|10"
    "washogi-drops|3|sjaakii|wa-shogi-drop|3|10"
    "shodo|3|fairy-stockfish|$fsf_shodo;setoption name UCI_Variant value shodo|3|2"
    "shodo-deathmatch|3|fairy-stockfish|$fsf_shodo;setoption name UCI_Variant value shododm|3|2"
  )
else
  # Koma's Wa shogi depth 4 takes well under a second, so it runs depth 5; Sjaak II needs ~4 s for depth 4.
  plan=(
    "chess|6|stockfish||6|0.5"
    "shogi|5|fairy-stockfish|setoption name UCI_Variant value shogi|5|2"
    "washogi|5|sjaakii|wa-shogi|4|10"
    "washogi-drops|5|sjaakii|wa-shogi-drop|4|10"
    "shodo|5|fairy-stockfish|$fsf_shodo;setoption name UCI_Variant value shodo|5|2"
    "shodo-deathmatch|5|fairy-stockfish|$fsf_shodo;setoption name UCI_Variant value shododm|5|2"
  )
fi

# Build Koma once now if its sources changed; the measurements below then all run this same jar (KOMA_NO_BUILD=1).
./koma --version >/dev/null

start="$(now_ns)"
echo "perft, single thread, from the start positions; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "stockfish $(dpkg-query -W -f='${Version}' stockfish 2>/dev/null || echo '?'), fairy-stockfish" \
  "$(dpkg-query -W -f='${Version}' fairy-stockfish 2>/dev/null || echo '?'), sjaakii" \
  "$(dpkg-query -W -f='${Version}' sjaakii 2>/dev/null || echo '?'); best of $RUNS runs each"
((quick)) && echo "--quick: depths too shallow for meaningful speeds; this only checks that the script and engines work"
echo
fmt="%-17s %5s %14s %10s  %-16s %5s %14s %8s %8s %10s  %7s  %7s  %s\n"
printf "$fmt" variant depth "koma nodes" "koma Mnps" reference depth "ref nodes" "ref s" "startup" "ref Mnps" ratio target result
below=0
for row in "${plan[@]}"; do
  IFS='|' read -r variant kdepth engine setup rdepth target <<<"$row"
  read -r knps knodes _ < <(koma_nps "$variant" "$kdepth")
  if [[ "$engine" == sjaakii ]]; then
    read -r rnps rnodes rsecs rstart < <(sjaak_nps "$setup" "$rdepth")
  else
    read -r rnps rnodes rsecs rstart < <(uci_nps "$engine" "$setup" "$rdepth")
  fi
  # the same depth must give the same tree size in both engines
  if [[ "$kdepth" == "$rdepth" && "$knodes" != "$rnodes" ]]; then
    die "$variant perft $kdepth: koma counts $knodes nodes, $engine $rnodes"
  fi
  ratio="$(awk -v k="$knps" -v r="$rnps" 'BEGIN { printf "%.2f", k / r }')"
  if awk -v a="$ratio" -v t="$target" 'BEGIN { exit !(a >= t) }'; then result=ok; else result=BELOW; below=$((below + 1)); fi
  printf "$fmt" "$variant" "$kdepth" "$knodes" "$(awk -v x="$knps" 'BEGIN { printf "%.2f", x / 1e6 }')" \
    "$engine" "$rdepth" "$rnodes" "$rsecs" "$rstart" "$(awk -v x="$rnps" 'BEGIN { printf "%.2f", x / 1e6 }')" "$ratio" ">= $target" "$result"
done
echo
echo "ratio = koma nps / reference nps; ref s = the reference's perft time (wall clock less start-up for" \
  "Stockfish/Fairy-Stockfish, Sjaak II's own time for its last depth); $below of ${#plan[@]} below target;" \
  "total $(( ($(now_ns) - start) / 1000000000 )) s"
