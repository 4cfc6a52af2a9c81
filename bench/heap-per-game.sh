#!/usr/bin/env bash
# Heap cost of a live game (bench/results/2026-11-24-cluster.txt): one node, 50 small games then 2000 hot-seat
# chess games of 40 plies; heap used after a full GC before and after. Run from the repository root.
set -e
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
jcmd=/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd
w=$(mktemp -d)
cp koma-cli/target/koma.jar $w/
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$java -Xss16m -XX:+UseParallelGC -jar $w/koma.jar serve --port $port --data $w/data --rate-limit 0 --max-games-per-client 1000000 --max-games 100000 --idle-unload 1h > $w/log 2>&1 &
pid=$!
for i in $(seq 1 60); do grep -q "Koma serves" $w/log && break; sleep 0.5; done
used() { $jcmd $pid GC.run >/dev/null; sleep 1; $jcmd $pid GC.heap_info | grep -o "used [0-9]*K" | head -3 | awk '{s+=$2} END {print s}'; }
$java -XX:TieredStopAtLevel=1 -cp $w/koma.jar bench/ServerLoad.java base=http://127.0.0.1:$port mode=closed games=50 moves=10 warmup=0 idle=0 >/dev/null
b=$(used)
$java -XX:TieredStopAtLevel=1 -cp $w/koma.jar bench/ServerLoad.java base=http://127.0.0.1:$port mode=closed games=2000 moves=40 warmup=0 idle=0 | grep -E "^moves|errors"
a=$(used)
echo "heap used after GC: before ${b}K, after 2000 games x 40 plies ${a}K: $(( (a - b) * 1024 / 2000 )) bytes per game"
kill $pid; wait $pid 2>/dev/null || true; rm -rf $w
