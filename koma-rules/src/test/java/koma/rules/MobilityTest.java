package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import koma.rules.notation.Fen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Position#mobility} (the evaluation's count of squares a piece can move to or capture on) against hand-counted
 * positions, and against the legal moves of the random walks of every rule set: never fewer squares than the legal
 * destinations (en passant aside), and the same number for every piece that is not pinned (most of them).
 */
class MobilityTest {
    @Test
    void handCountedChessPositions() {
        RuleSet rs = RuleSet.of("chess");
        Position start = Position.start(rs);
        Geometry g = rs.geometry;
        assertEquals(2, start.mobility(Fen.parseSquare(g, "b1", "square")), "knight b1: a3, c3");
        assertEquals(0, start.mobility(Fen.parseSquare(g, "a1", "square")), "rook a1 is boxed in");
        assertEquals(2, start.mobility(Fen.parseSquare(g, "e2", "square")), "pawn e2: e3, e4");
        Position rook = Position.fromFen(rs, "4k3/8/3p4/8/3R4/8/8/4K3 w - - 0 1");
        assertEquals(12, rook.mobility(Fen.parseSquare(g, "d4", "square")), "rook d4: 7 on the rank, 3 down, d5 and xd6");
        Position pawn = Position.fromFen(rs, "4k3/8/8/8/8/2ppp3/3P4/4K3 w - - 0 1");
        assertEquals(2, pawn.mobility(Fen.parseSquare(g, "d2", "square")), "blocked pawn d2 takes c3 or e3");
    }

    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void mobilityCoversTheLegalDestinations(String id) {
        int pieces = 0, equal = 0;
        for (Position p : RandomWalks.positions(id)) {
            if (p.inCheck()) {
                continue;
            }
            int[] legal = p.legalMoves();
            int us = p.sideToMove();
            for (int i = 0; i < p.pieceCount(us); i++) {
                int sq = p.pieceSquare(us, i);
                if (p.typeAt(sq) == p.ruleSet().royalType) {
                    continue;
                }
                Set<Integer> dest = new HashSet<>();
                for (int m : legal) {
                    if (!Move.isDrop(m) && Move.kind(m) != Move.EN_PASSANT && Move.from(m) == sq) {
                        dest.add(Move.to(m));
                    }
                }
                int mob = p.mobility(sq);
                assertTrue(mob >= dest.size(), () -> "piece on " + sq + " in " + Fen.format(p) + ": mobility " + mob
                        + " < legal destinations " + dest);
                pieces++;
                if (mob == dest.size()) {
                    equal++;
                }
            }
        }
        assertTrue(pieces > 100, "the walks should meet pieces: " + pieces);
        assertTrue(equal >= pieces * 9 / 10, id + ": only " + equal + " of " + pieces + " pieces agree");
    }
}
