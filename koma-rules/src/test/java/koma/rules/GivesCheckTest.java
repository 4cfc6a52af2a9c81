package koma.rules;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Position#givesCheck}: on every legal move of every position of every rule set's random walks it says what
 * playing the move and asking {@link Position#inCheck} says, and it leaves the position as it was (FEN, key, and the
 * legal moves, which the bitboards and piece lists feed). A rule set without a royal piece has no checking move.
 */
class GivesCheckTest {
    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void agreesWithPlayingTheMove(String id) {
        int checks = 0, moves = 0;
        for (Position p : RandomWalks.positions(id)) {
            String before = Fen.format(p);
            long key = p.key();
            int[] legal = p.legalMoves();
            for (int m : legal) {
                boolean said = p.givesCheck(m);
                p.doMove(m);
                boolean played = p.inCheck();
                p.undoMove();
                moves++;
                checks += played ? 1 : 0;
                assertEquals(played, said, () -> id + " " + before + " " + MoveNotation.formatUci(p, m));
            }
            assertEquals(before, Fen.format(p), id);
            assertEquals(key, p.key(), id);
            assertArrayEquals(legal, p.legalMoves(), id + " " + before);
        }
        // a rule set without a royal piece (the deathmatch) has no checks; the others' walks meet some
        RuleSet rs = RuleSet.of(id);
        assertTrue(moves > 0, id);
        assertEquals(rs.royalType >= 0, checks > 0, id + ": " + checks + " checking moves of " + moves);
    }
}
