#!/usr/bin/env bash
# Load benchmark of several Koma nodes on one machine (issue 14; docs/deploy.md, "Capacity"): PostgreSQL (the
# database given in KOMA_BENCH_DB, emptied before each run), a Redis of its own (redis-server on a free port), one or
# two `koma serve --redis` nodes from a copy of the jar, and the load client bench/ServerLoad.java (hot-seat chess
# games, closed loop: each game posts its next move when the answer came). Four runs, each on fresh nodes:
#   one      one node, every move served where its game lives
#   forward  two nodes, the games made on node A and every move sent to node B, which forwards it to A
#   both     two nodes, two clients at once, each playing its games on its own node (the machine's total)
#   open     below saturation: 200 moves/s offered (open loop, 100 games, 20 s) on one node, then through the
#            forwarding node: the forwarding hop's latency without queueing
#   feed     bench/FeedHop.java: a move's event on a feed of the owner node and on a feed of the other node
#            (over Redis pub/sub): the relay hop's cost
# For each run: acknowledged moves/s, latency median/p95/p99 (ServerLoad's lines) and the nodes' CPU ms per move
# (from /proc/PID/stat, both nodes).
#
#   KOMA_BENCH_DB=jdbc:postgresql://127.0.0.1/koma_bench?user=koma&password=koma bench/cluster-load.sh [games=100] \
#       [moves=30] [runs=one,forward,both,feed]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
db="${KOMA_BENCH_DB:?set KOMA_BENCH_DB to a PostgreSQL database kept for benchmarks (its tables are dropped)}"
[[ "$db" == jdbc:postgresql://127.0.0.1* || "$db" == jdbc:postgresql://localhost* ]] || { echo "KOMA_BENCH_DB must point at 127.0.0.1" >&2; exit 1; }
games=100 moves=30 runs=one,forward,both,feed,open
for a in "$@"; do case "$a" in games=*) games="${a#games=}" ;; moves=*) moves="${a#moves=}" ;; runs=*) runs="${a#runs=}" ;; *) echo "unknown $a" >&2; exit 2 ;; esac; done
want() { [[ ",$runs," == *",$1,"* ]]; }
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[[ -x "$java" ]] || java="$(ls -d /usr/lib/jvm/*/bin/java | sort -V | tail -1)"
"$root/koma" --version >/dev/null
work="$(mktemp -d /tmp/koma-cluster-load.XXXXXX)"
cp "$root/koma-cli/target/koma.jar" "$work/koma.jar"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cpu_ms() { local t=0; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo $((t * 1000 / $(getconf CLK_TCK))); }

redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
sleep 1

cat >"$work/PgReset.java" <<'JAVA'
import java.sql.*;
public class PgReset { public static void main(String[] a) throws Exception {
  try (Connection c = DriverManager.getConnection(a[0]); Statement s = c.createStatement()) {
    s.execute("DROP SCHEMA public CASCADE"); s.execute("CREATE SCHEMA public"); } } }
JAVA

nodes=() ports=()
start_nodes() { # start_nodes N: fresh database, N nodes
  "$java" -cp "$work/koma.jar" "$work/PgReset.java" "$db"
  nodes=() ports=()
  for i in $(seq 1 "$1"); do
    local port; port="$(free_port)"
    "$java" -Xss16m -XX:+UseParallelGC -jar "$work/koma.jar" serve --port "$port" --db "$db" --rate-limit 0 \
      --redis "redis://127.0.0.1:$redis_port" --node-id "n$i" --max-games-per-client 1000000 >"$work/node$i.log" 2>&1 &
    nodes+=($!) ports+=("$port")
    pids+=($!)
    for _ in $(seq 1 120); do grep -q "Koma serves" "$work/node$i.log" && break; sleep 0.5; done
    grep -q "Koma serves" "$work/node$i.log" || { cat "$work/node$i.log"; exit 1; }
  done
}
stop_nodes() { for p in "${nodes[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${nodes[@]}"; do wait "$p" 2>/dev/null || true; done; }
client() { "$java" -XX:TieredStopAtLevel=1 -Xmx1g -cp "$work/koma.jar" "$root/bench/ServerLoad.java" mode=closed \
  games="$games" moves="$moves" warmup=2000 idle=1 clk="$(getconf CLK_TCK)" "$@"; }
header() { echo; echo "## $1"; echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git -C "$root" rev-parse --short HEAD)"; }

# single_run LABEL NODES ON CREATE [client args]: fresh nodes, one client playing on node ON (an index; games made
# on node CREATE, or - for on ON itself), and the nodes' CPU over warm-up and run
single_run() {
  local label="$1" n="$2" on="$3" create="$4" c0
  shift 4
  header "$label"
  start_nodes "$n"
  c0="$(cpu_ms "${nodes[@]}")"
  local extra=()
  [[ "$create" != - ]] && extra=(createBase="http://127.0.0.1:${ports[$create]}")
  client base="http://127.0.0.1:${ports[$on]}" serverPid="${nodes[0]}" "${extra[@]}" "$@"
  echo "# the nodes' CPU over warm-up and run: $(( $(cpu_ms "${nodes[@]}") - c0 )) ms"
  stop_nodes
}

want one && single_run "one: one node, $games games x $moves moves, closed loop" 1 0 -
want forward && single_run "forward: two nodes, games made on node 1, every move sent to node 2 (forwarded to node 1)" 2 1 0

if want both; then
header "both: two nodes, two clients at once, each on its own node"
start_nodes 2
c0="$(cpu_ms "${nodes[@]}")"
client base="http://127.0.0.1:${ports[0]}" serverPid="${nodes[0]}" seed=1 >"$work/both1.txt" &
a=$!
client base="http://127.0.0.1:${ports[1]}" serverPid="${nodes[1]}" seed=2 >"$work/both2.txt" &
b=$!
wait "$a" "$b" || true
sed 's/^/node 1: /' "$work/both1.txt"; sed 's/^/node 2: /' "$work/both2.txt"
echo "# both nodes' CPU over warm-up and run: $(( $(cpu_ms "${nodes[@]}") - c0 )) ms"
stop_nodes
fi

if want feed; then
header "feed: a move's event on the owner's feed and on the other node's feed (relayed over Redis)"
start_nodes 2
"$java" -cp "$work/koma.jar" "$root/bench/FeedHop.java" "http://127.0.0.1:${ports[0]}" "http://127.0.0.1:${ports[1]}" 300
stop_nodes
fi

if want open; then
  single_run "open: 200 moves/s offered over 100 games for 20 s, one node" 1 0 - mode=open rate=200 seconds=20
  single_run "open: 200 moves/s offered over 100 games for 20 s, games on node 1, moves sent to node 2 (forwarded)" 2 1 0 \
    mode=open rate=200 seconds=20
fi
