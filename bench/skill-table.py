#!/usr/bin/env python3
"""The Skill Level table from bench/skill-calibration.sh's match logs (koma.engine.SkillLevels).

Usage: bench/skill-table.py DIR [DIR ...]. Each DIR is one run's OUT directory; a line's games (file sN-vs-sfE.txt
against Stockfish's UCI_Elo E, sN-vs-sM.txt against Koma's level M) are pooled over the runs by file name, from the
last "Score of A vs B: W - L - D" line of each file. A level's Elo is its opponent's plus 400 log10(s / (1 - s)) of its
pooled score s (a score of 0 or 1 counts as half a game from it); a level measured against another level is placed
from that level's estimate; a level with lines against several opponents gets their estimates' mean, weighted by
games. The even levels' estimates are then made non-decreasing by pooling adjacent violators,
weighted by games (a stronger level may not be listed below a weaker one: the protocols map UCI_Elo onto the
strongest level at or below it), the odd levels lie halfway, and everything is rounded to 5.
"""
import math
import pathlib
import re
import sys

SCORE = re.compile(r"^Score of .* vs .*: (\d+) - (\d+) - (\d+) ")
NAME = re.compile(r"^s(\d+)-vs-(sf|s)(\d+)\.txt$")


def last_score(path):
    """W, L, D of the last score line of a match log, or None when the file has none."""
    found = None
    for line in path.read_text().splitlines():
        m = SCORE.match(line)
        if m:
            found = tuple(int(x) for x in m.groups())
    return found


def elo(w, l, d):
    """Elo difference of a W-L-D score, with 0 and 1 pulled in by half a game."""
    n = w + l + d
    s = (w + d / 2) / n
    s = min(max(s, 0.5 / n), 1 - 0.5 / n)
    return 400 * math.log10(s / (1 - s))


def main(dirs):
    lines = {}
    for d in dirs:
        for p in sorted(pathlib.Path(d).glob("s*-vs-*.txt")):
            m = NAME.match(p.name)
            r = last_score(p)
            if not m or not r:
                continue
            key = (int(m.group(1)), m.group(2), int(m.group(3)))
            old = lines.get(key, (0, 0, 0))
            lines[key] = tuple(a + b for a, b in zip(old, r))
    if not lines:
        sys.exit("no match logs with a score line in " + " ".join(dirs))
    # a level with several lines (against different opponents) gets their estimates' mean weighted by games; a line
    # against another level waits until every line of that level is placed
    est, games = {}, {}
    pending = dict(lines)
    while pending:
        ready = [k for k in pending if k[1] == "sf" or (k[2] in est and all(p[0] != k[2] for p in pending))]
        if not ready:
            sys.exit("levels measured only against unmeasured levels: " + str(sorted(pending)))
        placed = {}
        for key in ready:
            level, kind, opp = key
            wld = pending.pop(key)
            base = opp if kind == "sf" else est[opp]
            total, n = placed.get(level, (0.0, 0))
            placed[level] = (total + (base + elo(*wld)) * sum(wld), n + sum(wld))
        for level, (total, n) in placed.items():
            t0, n0 = est.get(level, 0.0) * games.get(level, 0), games.get(level, 0)
            est[level], games[level] = (t0 + total) / (n0 + n), n0 + n
    levels = sorted(est)
    blocks = [[est[l] * games[l], games[l], [l]] for l in levels]
    i = 0
    while i < len(blocks) - 1:
        if blocks[i][0] / blocks[i][1] > blocks[i + 1][0] / blocks[i + 1][1]:
            a, b = blocks[i], blocks.pop(i + 1)
            blocks[i] = [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
            i = max(i - 1, 0)
        else:
            i += 1
    fit = {l: b[0] / b[1] for b in blocks for l in b[2]}
    print("level  opponent  W-L-D pooled  score  level's estimate  fitted")
    for (level, kind, opp), (w, l, d) in sorted(lines.items()):
        n = w + l + d
        print(f"{level:5d}  {'SF-' if kind == 'sf' else 'skill '}{opp:<5d}  {w}-{l}-{d} ({n})  "
              f"{(w + d / 2) / n:.3f}  {est[level]:8.0f}  {fit[level]:6.0f}")
    top = max(levels)
    table = []
    for l in range(top + 1):
        if l in fit:
            v = fit[l]
        else:
            lo = max(x for x in levels if x < l)
            hi = min(x for x in levels if x > l)
            v = fit[lo] + (fit[hi] - fit[lo]) * (l - lo) / (hi - lo)
        table.append(int(5 * round(v / 5)))
    print("ELO = {" + ", ".join(str(v) for v in table) + "}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
