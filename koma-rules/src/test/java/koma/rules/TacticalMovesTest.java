package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Position#tacticalMoves} (quiescence moves) is exactly the subset of the legal moves that capture
 * (en passant included) or promote, on every position of the random walks of every rule set.
 */
class TacticalMovesTest {
    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void tacticalMovesAreTheCapturesAndPromotions(String id) {
        int seen = 0;
        for (Position p : RandomWalks.positions(id)) {
            int[] all = p.legalMoves();
            int[] expected = Arrays.stream(all).filter(m -> Move.kind(m) == Move.EN_PASSANT || Move.isPromotion(m)
                    || (!Move.isDrop(m) && !p.isEmpty(Move.to(m)))).sorted().toArray();
            int[] buf = p.newMoveBuffer();
            int n = p.tacticalMoves(buf);
            int[] got = Arrays.copyOf(buf, n);
            Arrays.sort(got);
            assertEquals(Arrays.toString(expected), Arrays.toString(got), () -> "in " + Fen.format(p));
            assertEquals(all.length, p.legalMoves(buf), "tactical mode must not stick");
            seen += expected.length;
        }
        assertTrue(seen > 0, "the walks should meet some captures");
    }
}
