#!/usr/bin/env bash
# The learned evaluation's pipeline for one rule set, resumable: self-play data in shards, a net trained on them,
# and a self-play SPRT of the net against the hand-written evaluation (the numbers in bench/results/*-nnue.txt).
# Everything it writes goes under $NNUE_DATA (keep it outside git); run it again with the same settings to resume
# (finished shards are skipped, and the training reads whatever shards exist).
#
# Usage: NNUE_DATA=/work/nnue-data bench/nnue.sh VARIANT [gen|train|sprt|all]
# Settings (environment): SHARDS (shards to have, default 200), GAMES (per shard, 50), NODES (per move, 2000),
# SEED (1), THREADS (2), HIDDEN (64), EPOCHS (20), SPRT_NODES (fixed nodes per move in the SPRT, 5000), SPRT_TC (a
# clock such as 10+0.1 instead of SPRT_NODES), SPRT_GAMES (most games, 400), ELO0/ELO1 (SPRT bounds, 0 and 10).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
variant="${1:?usage: NNUE_DATA=DIR bench/nnue.sh VARIANT [gen|train|sprt|all]}"
step="${2:-all}"
data="${NNUE_DATA:?set NNUE_DATA to a directory outside git}"
shards="${SHARDS:-200}" games="${GAMES:-50}" nodes="${NODES:-2000}" seed="${SEED:-1}" threads="${THREADS:-2}"
hidden="${HIDDEN:-64}" epochs="${EPOCHS:-20}"
dir="$data/$variant/n$nodes-s$seed"
net="$data/$variant/net-h$hidden"
"$root/koma" --version >/dev/null   # builds the jar when sources changed
mkdir -p "$data"
jar="$data/koma-$variant.jar"
cp "$root/koma-cli/target/koma.jar" "$jar"   # a copy, so that rebuilding meanwhile is safe
java="$(ls -d /usr/lib/jvm/*/bin/java | sort -V | tail -1)"
koma="$java -Xmx6g --add-modules jdk.incubator.vector -jar $jar"
proto=uci   # every rule set speaks UCI (the match sets UCI_Variant)

if [ "$step" = gen ] || [ "$step" = all ]; then
  nice -n 19 $koma nnue gen -v "$variant" --out "$dir" --shards "$shards" --games-per-shard "$games" \
    --nodes "$nodes" --seed "$seed" --threads "$threads"
fi
if [ "$step" = train ] || [ "$step" = all ]; then
  nice -n 10 $koma nnue train -v "$variant" --data "$dir" --out "$net" --hidden "$hidden" --epochs "$epochs" \
    --gamma 0.85 --threads "$threads" | tee "$net.log"
fi
if [ "$step" = sprt ] || [ "$step" = all ]; then
  limit=(--nodes "${SPRT_NODES:-5000}")
  [ -n "${SPRT_TC:-}" ] && limit=(--tc "$SPRT_TC")
  nice -n 10 $koma match -v "$variant" --engine1 "$koma $proto" --engine2 "$koma $proto" --proto1 "$proto" \
    --proto2 "$proto" --option1 "EvalFile=$net.nnue" --option2 "Use NNUE=false" --name1 nnue --name2 hce \
    -n "${SPRT_GAMES:-400}" "${limit[@]}" --random-plies 8 --seed 7 -c "$threads" \
    --sprt "elo0=${ELO0:-0},elo1=${ELO1:-10}" | tee "$net.sprt" | grep -E '^(Score|Elo|SPRT)' | tail -3
fi
