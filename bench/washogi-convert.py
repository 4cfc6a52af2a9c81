#!/usr/bin/env python3
"""Wa shogi conversion suite: positions from Koma's games against HaChu and Sjaak II where it scored itself at least
+THR pawns on its move and then did not win over the board (a draw or a loss).

usage: washogi-convert.py THR PGN... > washogi-convert.txt

For each such game, the first position where Koma's PGN comment scores it THR or more, as 'startpos moves ...' with
Koma to move, one a line (koma match --openings reads them; each is played twice, colours swapped, so that each
engine plays the side ahead once). The source of each line goes to standard error.
"""
import re
import sys


def main():
    thr = float(sys.argv[1])
    for f in sys.argv[2:]:
        for g in re.split(r'\n(?=\[Event )', open(f, encoding='utf-8').read()):
            white = re.search(r'\[White "([^"]*)"', g)
            result = re.search(r'\[Result "([^"]*)"', g)
            if not white or not result or '[Variant "washogi"]' not in g or '[FEN ' in g:
                continue
            koma_first = white.group(1).startswith('Koma')
            res = result.group(1)
            if res != '1/2-1/2' and (res == '1-0') == koma_first:
                continue  # Koma won
            body = g[g.find('\n\n'):]
            moves = re.findall(r'([a-k]\d+[a-k]\d+\+?)\s*(?:\{([^}]*)\})?', body)
            for i, (_, comment) in enumerate(moves):
                score = re.match(r'([+-]\d+\.\d+)/', comment or '')
                if (i % 2 == 0) == koma_first and score and float(score.group(1)) >= thr:
                    print('startpos moves ' + ' '.join(m for m, _ in moves[:i]))
                    print(f'{f}: {res}, ply {i}, Koma {score.group(1)}', file=sys.stderr)
                    break


if __name__ == '__main__':
    main()
