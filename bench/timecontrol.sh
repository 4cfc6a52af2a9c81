#!/usr/bin/env bash
# Time-management proof: Koma plays many fast games against itself under several clocks through `koma match`
# (the referee keeps wall-clock time: a late move loses), and the script counts the losses on time.
#
#   bench/timecontrol.sh [GAMES] [CONCURRENCY]    default 20 games per control, concurrency 1
#
# Controls: chess 1s+0.01s (sudden death with a tiny increment: many moves on almost no clock), shogi over USI
# with 1s main time + 100 ms byoyomi, Wa shogi at a fixed 100 ms per move. --concurrency 2 doubles the load on
# purpose (four engine processes on two cores). The referee's grace is the match default (--margin 50 ms).
# The jar is copied first, so that rebuilding the worktree during the run does not change the engines.
set -euo pipefail
games="${1:-20}"
conc="${2:-1}"
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
java=""
for j in /usr/lib/jvm/temurin-25-jdk-amd64/bin/java /usr/lib/jvm/*/bin/java; do
  if [[ -x "$j" ]] && "$j" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then java="$j"; break; fi
done
[[ -n "$java" ]] || { echo "timecontrol: no JDK 21+ found" >&2; exit 1; }
[[ -f koma-cli/target/koma.jar ]] || ./koma --help >/dev/null
jar="$(mktemp -d)/koma.jar"
cp koma-cli/target/koma.jar "$jar"
trap 'rm -rf "$(dirname "$jar")"' EXIT
engine="$java -jar $jar"

run() { # name, then koma match arguments
  local name="$1"; shift
  local out
  out="$("$java" -jar "$jar" match --engine1 "$engine $PROTO" --engine2 "$engine $PROTO" --games "$games" \
        --concurrency "$conc" --random-plies 6 --seed 1 "$@" 2>&1)"
  local played timeloss
  played=$(grep -c '^Finished game' <<<"$out" || true)
  timeloss=$(grep -c 'loses on time' <<<"$out" || true)
  printf '%-34s games %3d  losses on time %3d\n' "$name" "$played" "$timeloss"
  grep 'loses on time' <<<"$out" | sed 's/^/    /' || true
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ)  $(git rev-parse --short HEAD)  games=$games concurrency=$conc  load: $(cut -d' ' -f1-3 /proc/loadavg)"
PROTO=uci run "chess 1s+0.01s"          --variant chess --tc 1+0.01
PROTO=usi run "shogi 1s + 100ms byoyomi" --variant shogi --byoyomi 1+0.1
PROTO=uci run "washogi movetime 100ms"  --variant washogi --movetime 100
