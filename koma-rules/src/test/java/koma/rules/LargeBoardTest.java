package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * Boards beyond 11x11 work with the same code (square = rank * files + file, no fixed stride): a made-up
 * 12x12 rule set loaded from text, with move counts derived by hand from the Betza definitions.
 */
class LargeBoardTest {
    static final String DEFINITION = """
            id = big
            board = 12x12
            start = k11/12/12/12/12/12/12/12/12/12/12/11K w - - 0 1
            drops = true
            promotion-zone = 4
            promotion-trigger = touch
            stalemate = loss

            [piece king]
            letter = K
            betza = K
            royal = true

            [piece rook]
            letter = R
            betza = R

            [piece lion-ish leaper]
            letter = L
            betza = KNAD
            """;

    static RuleSet rules() {
        return RuleSetLoader.load("big.rules", DEFINITION);
    }

    @Test
    void rookInTheMiddleOfA12x12BoardHas22Moves() {
        // rook on f6 of an empty 12x12 board: 11 squares on its rank + 11 on its file; kings far away in corners
        Position p = Position.fromFen(rules(), "k11/12/12/12/12/12/5R6/12/12/12/12/11K w - - 0 1");
        assertFalse(p.usesBitboards(), "144 squares are beyond the bitboard generator");
        assertEquals(22, movesOf(p, "R"));
    }

    @Test
    void leaperCountsOnTheLargeBoard() {
        // K (8) + N (8) + A (4) + D (4) = 24 destinations from the middle of the board
        assertEquals(24, movesOf(Position.fromFen(rules(), "k11/12/12/12/12/12/5L6/12/12/12/12/11K w - - 0 1"), "L"));
    }

    /** Legal moves of the pieces with this letter. */
    static int movesOf(Position p, String letter) {
        int n = 0;
        for (int m : p.legalMoves()) {
            if (p.typeAt(Move.from(m)) == p.ruleSet().typeOf(letter)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void squaresOfTheLastFileAndRankRoundTrip() {
        RuleSet rs = rules();
        Position p = Position.fromFen(rs, "k11/12/12/12/12/12/12/12/12/12/12/11K w - - 0 1");
        assertEquals("k11/12/12/12/12/12/12/12/12/12/12/11K[] w - - 0 1", p.toString());
        assertEquals(143, rs.geometry.square(11, 11));
        assertEquals("l12", koma.rules.notation.Fen.squareName(rs.geometry, 143));
        assertEquals(143, koma.rules.notation.Fen.parseSquare(rs.geometry, "l12", "test"));
    }
}
