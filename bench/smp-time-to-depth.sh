#!/usr/bin/env bash
# Lazy SMP time to depth: the same positions searched to a fixed depth with Threads=1 and Threads=2 over UCI,
# in one engine process per run (the first isready warms the JVM up); prints the wall time from 'go' to
# 'bestmove' per position and the totals. Needs an idle machine to mean much: it has 2 cores.
#
#   bench/smp-time-to-depth.sh [DEPTH]     default depth 10 (chess positions of ./koma bench)
set -euo pipefail
depth="${1:-10}"
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
[[ -f koma-cli/target/koma.jar ]] || ./koma --help >/dev/null
jar="$(mktemp -d)/koma.jar"
cp koma-cli/target/koma.jar "$jar"
trap 'rm -rf "$(dirname "$jar")"' EXIT
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
python3 - "$java" "$jar" "$depth" <<'PY'
import subprocess, sys, time
java, jar, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"]
print(f"# depth {depth}; load {open('/proc/loadavg').read().split()[:3]}")
for threads in (1, 2):
    p = subprocess.Popen([java, "-jar", jar, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def w(s): p.stdin.write(s + "\n"); p.stdin.flush()
    w("uci"); w(f"setoption name Threads value {threads}"); w("isready")
    while "readyok" not in p.stdout.readline(): pass
    total = 0.0
    for fen in fens:
        w("ucinewgame"); w("isready")
        while "readyok" not in p.stdout.readline(): pass
        w(f"position fen {fen}"); t0 = time.time(); w(f"go depth {depth}")
        nodes = 0
        while True:
            l = p.stdout.readline()
            if " nodes " in l: nodes = int(l.split(" nodes ")[1].split()[0])
            if l.startswith("bestmove"): break
        el = time.time() - t0; total += el
        print(f"threads {threads}  {el*1000:8.0f} ms  {nodes:>10} nodes  {fen}")
    print(f"threads {threads}  total {total*1000:.0f} ms")
    w("quit"); p.wait()
PY
