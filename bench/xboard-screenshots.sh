#!/usr/bin/env bash
# Screenshots of Koma's boards in the real XBoard 4.9 GUI (Debian's xboard) under a private Xvfb display: for each
# XBoard variant name given, Koma plays itself (./koma xboard as both engines) and the screen is captured after
# SECONDS seconds with xwd, converted to PNG by bench/xwd2png.py.
#   bench/xboard-screenshots.sh OUT_DIR [SECONDS] [VARIANT ...]     (default: 8 s, wa-shogi shodo)
# Needs xboard, xvfb and x11-apps (xwd).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: $0 OUT_DIR [SECONDS] [VARIANT ...]}"; shift
wait_s="${1:-8}"; [[ $# -gt 0 ]] && shift
variants=("$@"); [[ ${#variants[@]} -eq 0 ]] && variants=(wa-shogi shodo)
mkdir -p "$out"
"$root/koma" perft --depth 1 >/dev/null   # builds koma.jar once, before XBoard starts the engines
d=97; while [[ -e /tmp/.X$d-lock ]]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
work="$(mktemp -d)"
for v in "${variants[@]}"; do
  DISPLAY=":$d" HOME="$work" KOMA_NO_BUILD=1 /usr/games/xboard -variant "$v" \
    -fcp "$root/koma xboard" -scp "$root/koma xboard" -mg 1 -mps 40 -tc 0:20 -adjudicateDrawMoves 40 -xexit \
    -boardSize medium -settingsFile "$work/xboardrc" -saveSettingsFile "$work/xboardrc" >/dev/null 2>&1 &
  xb=$!
  sleep "$wait_s"
  xwd -root -display ":$d" | "$root/bench/xwd2png.py" "$out/xboard-$v.png"
  kill "$xb" 2>/dev/null || true
  wait "$xb" 2>/dev/null || true
  echo "$out/xboard-$v.png"
done
rm -rf "$work"
