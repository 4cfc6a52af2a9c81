package koma.engine;

import java.util.ArrayList;
import java.util.List;

import koma.rules.Outcome;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * An exhaustive mate check independent of {@link Search}: a plain AND-OR walk over every legal move, no pruning
 * beyond "one mating move suffices" and "one escape refutes". It proves that the side to move wins by force
 * within N of its own moves (checkmate, stalemate where it loses, or extinction), so mate suites for rule sets
 * without a reference engine (Wa shogi) rest on the rules core alone. Only for short mates with little material.
 */
final class MateProver {
    private final RuleSet rs;
    private final boolean stalemateLoses;
    private long nodes;

    MateProver(RuleSet rs) {
        this.rs = rs;
        this.stalemateLoses = rs.endRules.stalemate() == Outcome.LOSS;
    }

    long nodes() {
        return nodes;
    }

    /** The side to move has lost on the spot: no legal move (mated, or stalemated where that loses), or no pieces. */
    private boolean lost(Position p) {
        if (rs.endRules.extinction() && p.pieceCount(p.sideToMove()) == 0) {
            return true;
        }
        return p.legalMoves().length == 0 && (p.inCheck() || stalemateLoses);
    }

    /** True when the side to move can force a win within {@code n} of its moves. */
    boolean wins(Position p, int n) {
        for (int m : p.legalMoves()) {
            p.doMove(m);
            boolean w = defenderLoses(p, n);
            p.undoMove();
            if (w) {
                return true;
            }
        }
        return false;
    }

    private boolean defenderLoses(Position p, int n) {
        nodes++;
        if (lost(p)) {
            return true;
        }
        int[] replies = p.legalMoves();
        if (n <= 1 || replies.length == 0) {
            return false; // no mate yet, or a stalemate that does not lose: a draw
        }
        for (int m : replies) {
            p.doMove(m);
            boolean w = wins(p, n - 1);
            p.undoMove();
            if (!w) {
                return false;
            }
        }
        return true;
    }

    /** Every first move of the side to move that wins within {@code n} moves. */
    List<Integer> winningMoves(Position p, int n) {
        List<Integer> out = new ArrayList<>();
        for (int m : p.legalMoves()) {
            p.doMove(m);
            if (defenderLoses(p, n)) {
                out.add(m);
            }
            p.undoMove();
        }
        return out;
    }
}
