#!/usr/bin/env bash
# Move round-trip latency of the Koma server under load: starts `koma serve` (a copy of the jar, SQLite file in a
# temporary directory, no rate limit), then bench/ServerLatency.java plays GAMES hot-seat games at once, each
# posting a random legal move as soon as the previous answer arrived, and prints median / p95 / p99.
#
#   bench/server-latency.sh [GAMES=200] [PLIES=40] [VARIANT=chess] [SEED=1] [PACE_MS=0]
# PACE_MS > 0: each game posts one move per PACE_MS (think time); 0: back to back (the server at saturation).
#   KOMA_BENCH_DB=jdbc:postgresql://...   measure on PostgreSQL instead of SQLite
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
games="${1:-200}" plies="${2:-40}" variant="${3:-chess}" seed="${4:-1}" pace="${5:-0}"

"$root/koma" --version >/dev/null            # builds koma.jar when sources changed
java="$(readlink -f "$(ls -d /usr/lib/jvm/*/bin/java | sort -V | tail -1)")"
work="$(mktemp -d /tmp/koma-server-bench.XXXXXX)"
cp "$root/koma-cli/target/koma.jar" "$work/koma.jar"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"

db_args=()
[[ -n "${KOMA_BENCH_DB:-}" ]] && db_args=(--db "$KOMA_BENCH_DB")
"$java" -Xss16m -XX:+UseParallelGC -jar "$work/koma.jar" serve --port "$port" --data "$work/data" \
  --rate-limit 0 "${db_args[@]}" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
  grep -q "Koma serves" "$work/server.log" && break
  sleep 0.5
done
grep -q "Koma serves" "$work/server.log" || { cat "$work/server.log"; echo "server did not start" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -m), $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# server: koma serve, database ${KOMA_BENCH_DB:-SQLite file (WAL, synchronous=NORMAL)}; $("$java" -version 2>&1 | head -1)"
echo "# warm-up: 20 games x 10 moves"
"$java" "$root/bench/ServerLatency.java" "http://127.0.0.1:$port" 20 10 "$variant" 999 | sed 's/^/#   /'
cpu0="$(awk '{ print $14 + $15 }' "/proc/$server/stat")"
"$java" "$root/bench/ServerLatency.java" "http://127.0.0.1:$port" "$games" "$plies" "$variant" "$seed" "$pace"
cpu1="$(awk '{ print $14 + $15 }' "/proc/$server/stat")"
echo "# server CPU time during the run: $(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) )) ms"
echo "# server after the run: $(grep -c ERROR "$work/server.log" || true) ERROR lines in its log"
