#!/usr/bin/env bash
# Calibrates Koma's Skill Level against Stockfish's UCI_Elo scale in chess (the matches behind
# bench/results/2026-11-21-skill.txt and koma.engine.SkillLevels): each skill level plays 20 games at 100 ms a move
# against a Stockfish UCI_LimitStrength level near it (skill 0 and 2 against skill 4, below Stockfish's minimum of
# 1320; skill 14 and 20 also against a second level, added in stop 64 where one level alone was too far off). Runs
# a copy of the jar, so rebuilding meanwhile is safe. Usage: bench/skill-calibration.sh [GAMES]
# (CONCURRENCY=2 plays two games at a time: on a free 2-core machine each engine still has a core while it thinks;
# SEED_OFFSET=N adds N to every line's seed, so that a further run plays new openings to pool with the first).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
games="${1:-20}"
out="${OUT:-/tmp/koma-skill-calibration}"
mkdir -p "$out"
"$root/koma" --version >/dev/null   # builds the jar when sources changed
jar="$out/koma.jar"
cp "$root/koma-cli/target/koma.jar" "$jar"
java="$(ls -d /usr/lib/jvm/*/bin/java | sort -V | tail -1)"
koma="$java -jar $jar"
sf="${STOCKFISH:-/usr/games/stockfish}"
offset="${SEED_OFFSET:-0}"
common=(--games "$games" --movetime 100 --margin 500 --random-plies 4 --option1 Hash=16 --concurrency "${CONCURRENCY:-1}")

vs_skill() { # skill, other skill, seed
  $koma match --variant chess --engine1 "$koma uci" --name1 "Koma-skill$1" --option1 "Skill Level=$1" \
    --engine2 "$koma uci" --name2 "Koma-skill$2" --option2 "Skill Level=$2" --option2 Hash=16 \
    "${common[@]}" --seed "$(($3 + offset))" | tee "$out/s$1-vs-s$2.txt" | grep -E '^(Score|Elo)' | tail -2
}
vs_stockfish() { # skill, UCI_Elo, seed
  $koma match --variant chess --engine1 "$koma uci" --name1 "Koma-skill$1" --option1 "Skill Level=$1" \
    --engine2 "$sf" --name2 "SF-$2" --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$2" \
    --option2 Threads=1 --option2 Hash=16 "${common[@]}" --seed "$(($3 + offset))" | tee "$out/s$1-vs-sf$2.txt" \
    | grep -E '^(Score|Elo)' | tail -2
}

vs_skill 0 4 15
vs_skill 2 4 19
vs_stockfish 4 1320 13
vs_stockfish 6 1320 16
vs_stockfish 8 1600 13
vs_stockfish 10 1800 20
vs_stockfish 12 1800 17
vs_stockfish 14 1800 21
vs_stockfish 14 2000 21
vs_stockfish 16 2000 14
vs_stockfish 18 2000 18
vs_stockfish 20 2000 23
vs_stockfish 20 2200 23
