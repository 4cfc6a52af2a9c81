#!/usr/bin/env bash
# Load benchmark of the Koma game server (successor of bench/server-latency.sh): starts `koma serve` from a copy of
# a jar (free port on 127.0.0.1, --rate-limit 0, a temporary data directory with a fresh SQLite file, or a
# PostgreSQL database), runs the client bench/ServerLoad.java (hot-seat games, moves picked with koma.rules from
# the same jar, a warm-up before measuring) and prints moves/s, latency median/p95/p99/max, errors, server and
# client CPU per move, machine load; optionally a JFR profile of the measured run. The server is killed at exit.
#
#   bench/server-load.sh closed [games=200] [moves=30] [key=value ...]   back to back (saturation)
#   bench/server-load.sh paced  [games=200] [pace=3000] [moves=30] ...   each game waits PACE ms after an answer
#   bench/server-load.sh open   [games=200] [rate=1000] [seconds=30] ... offered rate on a timetable
#   bench/server-load.sh suite  [key=value ...]   the five runs of bench/results/2026-11-23-server-load.txt:
#       closed 200 games x 30 moves x 3 rounds (600 games), paced 200 games x 3 s x 30 moves, open 1000 and 200
#       moves/s over 200 games for 30 s, and the closed run again with a JFR profile; each on a fresh server after
#       a warm-up of 3000 moves; keys given apply to every run (e.g. http=jdk, picker=server)
# The key=value arguments go to the client (see the top of bench/ServerLoad.java: variant, seed, warmup,
# picker=local|server, timeout, maxSeconds ...).
#
# Environment:
#   KOMA_BENCH_JAR=path/koma.jar   the server (and rules core of the client) to measure; default
#                                  koma-cli/target/koma.jar of this checkout, rebuilt by ./koma when stale
#   KOMA_BENCH_DB=jdbc:postgresql://127.0.0.1/koma_bench?user=koma&password=koma   PostgreSQL instead of SQLite
#                                  (its tables are dropped before each run: use a database kept for this)
#   KOMA_BENCH_JFR=1               profile the measured run (jcmd JFR.start settings=profile + CPU-time samples
#                                  after the warm-up, JFR.stop at the end) and print where the time goes
#   KOMA_BENCH_JFR_DIR=dir         keep the .jfr files there (default: deleted with the temporary directory)
#   KOMA_BENCH_SERVER_OPTS="..."   server JVM options (default: those of ./koma, -Xss16m -XX:+UseParallelGC)
#   KOMA_BENCH_SERVER_ARGS="..."   extra `koma serve` arguments (--max-games-per-client 1000000 is added when the
#                                  server knows the option, unless given here)
#   KOMA_BENCH_CLIENT_OPTS="..."   client JVM options (default: -XX:TieredStopAtLevel=1 -Xmx1g)
#
# bench/server-load-mock.py is a fake server with the new answer shape to test the client on.
#
# Example, a measurement of some commit of main (the before and after ones of the results file were made so), in a
# worktree of its own so that nobody's build in /work/main is disturbed:
#   git -C /work/main worktree add /work/bench-after <commit>
#   (cd /work/bench-after && mvn -B -q -DskipTests package -pl koma-cli -am)
#   KOMA_BENCH_JAR=/work/bench-after/koma-cli/target/koma.jar bench/server-load.sh suite | tee /tmp/after.txt
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
what="${1:-closed}"
shift || true
case "$what" in closed | paced | open | suite) ;; *) echo "usage: $0 closed|paced|open|suite [key=value ...]" >&2; exit 2 ;; esac

jdk="$(dirname "$(dirname "$(readlink -f "$(ls -d /usr/lib/jvm/*/bin/java | sort -V | tail -1)")")")"
for d in /usr/lib/jvm/temurin-25-jdk-amd64 "${JAVA_HOME:-}"; do
  [[ -n "$d" && -x "$d/bin/jcmd" ]] && { jdk="$d"; break; }
done
java="$jdk/bin/java"
jar="${KOMA_BENCH_JAR:-$root/koma-cli/target/koma.jar}"
if [[ -z "${KOMA_BENCH_JAR:-}" ]]; then
  "$root/koma" --version >/dev/null # builds koma.jar when sources changed
fi
[[ -f "$jar" ]] || { echo "no jar at $jar" >&2; exit 1; }
read -r -a server_opts <<<"${KOMA_BENCH_SERVER_OPTS:--Xss16m -XX:+UseParallelGC}"
read -r -a server_args <<<"${KOMA_BENCH_SERVER_ARGS:-}"
# The new server limits the unfinished games one client (here 127.0.0.1) may have created (default 20): lift it,
# the benchmark leaves hundreds of unfinished games behind (warm-up, rounds).
if "$java" -jar "$jar" serve --help 2>&1 | grep -q -- '--max-games-per-client' &&
  [[ " ${server_args[*]} " != *" --max-games-per-client "* ]]; then
  server_args+=(--max-games-per-client 1000000)
fi
read -r -a client_opts <<<"${KOMA_BENCH_CLIENT_OPTS:--XX:TieredStopAtLevel=1 -Xmx1g}"

work="$(mktemp -d /tmp/koma-server-load.XXXXXX)"
server=""
stop_server() {
  if [[ -n "$server" ]]; then
    kill "$server" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cp "$jar" "$work/koma.jar"
jar_commit="$(git -C "$(dirname "$jar")" rev-parse --short HEAD 2>/dev/null || true)" # the checkout the jar sits in
jar_info="$(unzip -p "$work/koma.jar" META-INF/MANIFEST.MF 2>/dev/null | tr -d '\r' | grep -i -m1 'Implementation-Version' || true)"

reset_postgres() { # drops what the server created in the bench database (a fresh database per run)
  local url="$1"
  cat >"$work/PgReset.java" <<'EOF'
import java.sql.*;
public class PgReset { public static void main(String[] a) throws Exception {
  try (Connection c = DriverManager.getConnection(a[0]); Statement s = c.createStatement()) {
    s.execute("DROP SCHEMA public CASCADE"); s.execute("CREATE SCHEMA public"); } } }
EOF
  "$java" -cp "$work/koma.jar" "$work/PgReset.java" "$url"
}

fsync_ms() { # median time of a 4 KiB write + fsync in directory $1 (what a synchronous commit waits for)
  python3 - "$1" <<'EOF'
import os, sys, time
path = os.path.join(sys.argv[1], "fsync-probe")
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
ts = []
for i in range(50):
    t = time.perf_counter()
    os.pwrite(fd, b"x" * 4096, (i % 8) * 4096)
    os.fsync(fd)
    ts.append(time.perf_counter() - t)
os.close(fd)
os.unlink(path)
print("%.2f" % (sorted(ts)[len(ts) // 2] * 1000))
EOF
}

# run_one LABEL MODE [key=value ...]: a fresh server, warm-up and measured run, server stopped.
run_one() {
  local label="$1" mode="$2"
  shift 2
  local port db_args=() jfr_args=() jfr_file=""
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  rm -rf "$work/data"
  if [[ -n "${KOMA_BENCH_DB:-}" ]]; then
    [[ "$KOMA_BENCH_DB" == jdbc:postgresql://127.0.0.1* || "$KOMA_BENCH_DB" == jdbc:postgresql://localhost* ]] ||
      { echo "KOMA_BENCH_DB must point at 127.0.0.1/localhost" >&2; exit 1; }
    reset_postgres "$KOMA_BENCH_DB"
    db_args=(--db "$KOMA_BENCH_DB")
  fi
  "$java" "${server_opts[@]}" -jar "$work/koma.jar" serve --port "$port" --data "$work/data" \
    --rate-limit 0 "${db_args[@]}" "${server_args[@]}" >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 120); do
    grep -q "Koma serves" "$work/server.log" && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.5
  done
  grep -q "Koma serves" "$work/server.log" || { cat "$work/server.log" >&2; echo "server did not start" >&2; exit 1; }
  if [[ "${KOMA_BENCH_JFR:-0}" == 1 || "$label" == *JFR* ]]; then
    jfr_file="${KOMA_BENCH_JFR_DIR:-$work}/server-load-$mode-$(date -u +%Y%m%dT%H%M%S).jfr"
    mkdir -p "$(dirname "$jfr_file")"
    jfr_args=(jcmd="$jdk/bin/jcmd" jfr="$jfr_file")
  fi
  echo
  echo "## $label"
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -m), $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)" \
    "(the machine is shared with other jobs: figures are noisy)"
  echo "# server: $jar ${jar_info:+($jar_info) }${jar_commit:+commit $jar_commit }; serve args: --rate-limit 0 ${server_args[*]}; JVM: $("$java" -version 2>&1 | head -1) ${server_opts[*]};" \
    "database: ${KOMA_BENCH_DB:+PostgreSQL }${KOMA_BENCH_DB:-SQLite file in a temporary directory}"
  echo "# disk of the data directory: $(fsync_ms "$work") ms median per 4 KiB write + fsync (50 in a row)"
  echo "# client: $java ${client_opts[*]} -cp koma.jar bench/ServerLoad.java mode=$mode $*"
  local rc=0
  local db_proc=()
  [[ -n "${KOMA_BENCH_DB:-}" ]] && db_proc=(dbProc=postgres)
  "$java" "${client_opts[@]}" -cp "$work/koma.jar" "$root/bench/ServerLoad.java" base="http://127.0.0.1:$port" \
    mode="$mode" serverPid="$server" clk="$(getconf CLK_TCK)" "${db_proc[@]}" "${jfr_args[@]}" "$@" || rc=$?
  echo "# server log: $(grep -c -E 'ERROR|Exception' "$work/server.log" || true) ERROR/Exception lines," \
    "$(grep -c 'WARN' "$work/server.log" || true) WARN lines"
  grep -m3 -E 'ERROR|Exception' "$work/server.log" | cut -c1-300 | sed 's/^/#   /' || true
  stop_server
  if [[ -n "$jfr_file" && -f "$jfr_file" ]]; then
    echo "# profile of the measured run: $jfr_file"
    "$java" "$root/bench/JfrSummary.java" "$jfr_file" 25 | sed 's/^/#   /'
    echo "#   jfr view cpu-time-hot-methods:"
    "$jdk/bin/jfr" view --width 160 cpu-time-hot-methods "$jfr_file" 2>&1 | head -30 | sed 's/^/#     /'
    echo "#   jfr view allocation-by-class:"
    "$jdk/bin/jfr" view --width 160 allocation-by-class "$jfr_file" 2>&1 | head -20 | sed 's/^/#     /'
  fi
  return "$rc"
}

status=0
case "$what" in
  suite)
    run_one "saturation: closed loop, 200 chess games x 30 moves, 3 rounds" closed games=200 moves=30 rounds=3 \
      "$@" || status=1
    run_one "paced: 200 chess games, one move per 3 s (think time after each answer), 30 moves each" paced \
      games=200 pace=3000 moves=30 "$@" || status=1
    run_one "open loop: 1000 moves/s offered over 200 chess games for 30 s" open games=200 rate=1000 seconds=30 \
      "$@" || status=1
    run_one "open loop below saturation: 200 moves/s offered over 200 chess games for 30 s" open games=200 \
      rate=200 seconds=30 "$@" || status=1
    run_one "saturation with JFR profile: closed loop, 200 chess games x 30 moves, 3 rounds" closed games=200 \
      moves=30 rounds=3 "$@" || status=1
    ;;
  *) run_one "$what" "$what" "$@" || status=1 ;;
esac
exit "$status"
