#!/usr/bin/env python3
"""Minishogi perft of Koma against Fairy-Stockfish 11.1 on random positions.

/work/shared/tools/oracle.py (the project's differential perft checker) has no minishogi mapping; this script
adds one (Fairy-Stockfish over UCI with UCI_Variant minishogi, the name minishogi.rules declares) and runs the
same comparison: random walks from the start, then `go perft DEPTH` divides from both engines.

  bench/minishogi-oracle.py DEPTH POSITIONS SEED [ORACLE_PY]
  bench/minishogi-oracle.py explain DEPTH MOVE...     one position: both counts, and whether uchifuzume explains them

Fairy-Stockfish 11.1 does not enforce uchifuzume (a pawn drop may not mate; see koma-rules' shogi.perft), so a
mismatch where Koma counts fewer moves is rechecked: it is accepted only when every move Fairy-Stockfish has and
Koma lacks is a pawn drop after which the side to move has no legal reply and is in check.
"""
import importlib.util, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

def load_oracle(path):
    spec = importlib.util.spec_from_file_location("oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

def main():
    if sys.argv[1] == "explain":
        oracle = load_oracle("/work/shared/tools/oracle.py")
        fsf = oracle.UciLike([oracle.FSF], "uci", "minishogi")
        koma = oracle.UciLike([os.path.join(ROOT, "koma"), "uci"], "uci", "minishogi")
        depth, moves = int(sys.argv[2]), sys.argv[3:]
        want, got = fsf.divide(moves, depth)[0], koma.divide(moves, depth)[0]
        ok = explained(fsf, koma, moves, depth)
        print("fairy-stockfish %d, koma %d, %s" % (want, got, "every difference is a pawn-drop mate" if ok
                                                  else "NOT explained by uchifuzume"))
        fsf.close()
        koma.close()
        sys.exit(0 if ok else 1)
    depth, positions, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    oracle = load_oracle(sys.argv[4] if len(sys.argv) > 4 else "/work/shared/tools/oracle.py")
    oracle.ORACLE["minishogi"] = ("fsf-uci", "minishogi")
    fsf = oracle.UciLike([oracle.FSF], "uci", "minishogi")
    koma = oracle.UciLike([os.path.join(ROOT, "koma"), "uci"], "uci", "minishogi")
    rng = random.Random("minishogi/%s" % seed)
    bad = uchifuzume = 0
    try:
        for i in range(positions):
            moves = oracle.random_walk(fsf, rng.randint(0, 40), rng)
            want, wdiv = fsf.divide(moves, depth)
            got, gdiv = koma.divide(moves, depth)
            if want == got and wdiv == gdiv:
                continue
            extra = sorted(set(gdiv) - set(wdiv))
            missing = sorted(set(wdiv) - set(gdiv))
            differ = sorted(m for m in set(wdiv) & set(gdiv) if wdiv[m] != gdiv[m])
            if explained(fsf, koma, moves, depth):
                uchifuzume += 1
                continue
            bad += 1
            print("MISMATCH moves=%s depth=%d fsf=%d koma=%d extra=%s missing=%s differ=%s"
                  % (" ".join(moves), depth, want, got, extra[:8], missing[:8], differ[:8]))
    finally:
        fsf.close()
        koma.close()
    print("minishogi depth %d: %d positions, %d mismatches, %d explained by uchifuzume"
          % (depth, positions, bad, uchifuzume))
    sys.exit(1 if bad else 0)

def explained(fsf, koma, moves, depth):
    """True when every difference below this node is a pawn-drop mate that Fairy-Stockfish counts and Koma
    refuses (uchifuzume): walks down the differing moves to depth 1 and checks each missing move there."""
    _, wdiv = fsf.divide(moves, depth)
    _, gdiv = koma.divide(moves, depth)
    if set(gdiv) - set(wdiv):
        return False
    for m in set(wdiv) - set(gdiv):
        if not (m.startswith("P@") and mated(fsf, moves + [m])):
            return False
    return all(explained(fsf, koma, moves + [m], depth - 1)
               for m in set(wdiv) & set(gdiv) if wdiv[m] != gdiv[m] and depth > 1)

def mated(fsf, moves):
    """True when, after these moves, the side to move is in check and has no legal move (Fairy-Stockfish)."""
    total, _ = fsf.divide(moves, 1)
    fsf.position(moves)
    fsf.e.send("d")
    lines = fsf.e.read_until(lambda l: l.startswith("Checkers:"))
    return total == 0 and lines[-1].split(":", 1)[1].strip() != ""

if __name__ == "__main__":
    main()
