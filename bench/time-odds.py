#!/usr/bin/env python3
"""Time odds for engine matches: runs an engine and divides the clock figures of every `go` it is sent (btime,
wtime, binc, winc, byoyomi, movetime) by FACTOR, so that a much stronger engine can be met where the score says
something. Everything else passes through unchanged, both ways.

Usage: bench/time-odds.py FACTOR ENGINE [ARGS...]
  e.g. ./koma match -v shogi --engine1 "./koma usi" --engine2 "python3 bench/time-odds.py 4 /usr/games/fairy-stockfish" ...
"""
import re
import subprocess
import sys

CLOCK_KEYS = {"btime", "wtime", "binc", "winc", "byoyomi", "movetime"}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: time-odds.py FACTOR ENGINE [ARGS...]")
    try:
        factor = float(sys.argv[1])
    except ValueError:
        sys.exit("time-odds.py: FACTOR must be a number, got " + repr(sys.argv[1]))
    if factor <= 0:
        sys.exit("time-odds.py: FACTOR must be above 0, got " + sys.argv[1])
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)
    try:
        for line in sys.stdin:
            words = line.split()
            if words and words[0] == "go":
                for i in range(1, len(words) - 1):
                    if words[i] in CLOCK_KEYS and re.fullmatch(r"-?\d+", words[i + 1]):
                        words[i + 1] = str(int(int(words[i + 1]) / factor))
                line = " ".join(words) + "\n"
            engine.stdin.write(line)
            engine.stdin.flush()
            if words and words[0] == "quit":
                break
        engine.stdin.close()
    except BrokenPipeError:
        # the engine has gone: its exit code says why, the match reports the crash
        pass
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
