package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import koma.rules.Betza.Move;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Betza parsing of the RULES.md pieces (elementary moves and their properties), parse errors, and move counts
 * of single pieces on an otherwise empty board against counts derived by hand from the Betza strings. The Wa
 * empty-board counts (eagle 20, fox 12, heavenly horse 4, liberated horse 10) were also confirmed with Sjaak II
 * ({@code variant wa-shogi}, {@code setboard}, {@code perft 1}: the count plus the 5 moves of the king on b1).
 */
class BetzaTest {
    static long count(List<Move> ms, Predicate<Move> p) {
        return ms.stream().filter(p).count();
    }

    static Set<String> vectors(List<Move> ms) {
        Set<String> out = new TreeSet<>();
        for (Move m : ms) {
            out.add(m.dx() + "," + m.dy());
        }
        return out;
    }

    // ------------------------------------------------------------------ parsing

    @Test
    void kingIsEightSingleSteps() {
        List<Move> k = Betza.parse("K");
        assertEquals(8, k.size());
        assertEquals(8, count(k, m -> m.range() == 1 && !m.jump() && m.canMove() && m.canCapture()));
        assertEquals(8, vectors(k).size(), "eight different directions");
    }

    @Test
    void knightIsEightJumps() {
        List<Move> n = Betza.parse("N");
        assertEquals(8, n.size());
        assertTrue(n.stream().allMatch(m -> m.jump() && !m.lame() && Math.abs(m.dx() * m.dy()) == 2));
        assertEquals(8, vectors(n).size());
    }

    @Test
    void narrowForwardKnight() {
        // ffN: the two jumps 2 forward + 1 sideways (shogi knight, RULES.md 2.3)
        assertEquals(Set.of("-1,2", "1,2"), vectors(Betza.parse("ffN")));
        // ffNbbN: the heavenly horse, 2 forward or back + 1 sideways (RULES.md 3.3 #15, D9)
        assertEquals(Set.of("-1,2", "1,2", "-1,-2", "1,-2"), vectors(Betza.parse("ffNbbN")));
        assertEquals(4, Betza.parse("ffNbbN").size());
    }

    @Test
    void chessPawn() {
        // fmWfcFifmnD: 1 move-only step forward, 2 capture-only forward diagonals, 1 initial lame move-only jump
        List<Move> p = Betza.parse("fmWfcFifmnD");
        assertEquals(4, p.size());
        Move step = p.get(0);
        assertEquals(List.of(0, 1, 1), List.of(step.dx(), step.dy(), step.range()));
        assertTrue(step.canMove() && !step.canCapture() && !step.initialOnly());
        assertEquals(Set.of("-1,1", "1,1"), vectors(p.subList(1, 3)));
        assertTrue(p.subList(1, 3).stream().allMatch(m -> !m.canMove() && m.canCapture() && !m.jump()));
        Move dbl = p.get(3);
        assertEquals(List.of(0, 2), List.of(dbl.dx(), dbl.dy()));
        assertTrue(dbl.jump() && dbl.lame() && dbl.initialOnly() && dbl.canMove() && !dbl.canCapture());
    }

    @Test
    void cloudEagle() {
        // vRfB3sWbF: 2 vertical slides, 2 forward diagonals of range 3, 2 sideways steps, 2 backward diagonal steps
        List<Move> e = Betza.parse("vRfB3sWbF");
        assertEquals(8, e.size());
        assertEquals(2, count(e, m -> m.dx() == 0 && m.range() == Betza.UNLIMITED));
        assertEquals(2, count(e, m -> m.dy() == 1 && Math.abs(m.dx()) == 1 && m.range() == 3));
        assertEquals(2, count(e, m -> m.dy() == 0 && m.range() == 1));
        assertEquals(2, count(e, m -> m.dy() == -1 && Math.abs(m.dx()) == 1 && m.range() == 1));
        assertTrue(e.stream().noneMatch(Move::jump));
    }

    @Test
    void treacherousFox() {
        // FvWAvD: 4 diagonal + 2 vertical steps, 4 diagonal + 2 vertical jumps to distance 2 (D8)
        List<Move> x = Betza.parse("FvWAvD");
        assertEquals(12, x.size());
        assertEquals(6, count(x, m -> !m.jump() && m.range() == 1));
        assertEquals(6, count(x, m -> m.jump() && !m.lame()));
        assertEquals(Set.of("-2,-2", "-2,2", "0,-2", "0,2", "2,-2", "2,2"), vectors(x.stream().filter(Move::jump).toList()));
        assertEquals(Set.of("-1,-1", "-1,1", "0,-1", "0,1", "1,-1", "1,1"), vectors(x.stream().filter(m -> !m.jump()).toList()));
    }

    @Test
    void liberatedHorseAndDog() {
        // fRbR2: unlimited forward slide and a backward slide of range 2 (D7)
        List<Move> h = Betza.parse("fRbR2");
        assertEquals(2, h.size());
        assertTrue(h.contains(new Move(0, 1, Betza.UNLIMITED, false, true, true, false, false)));
        assertTrue(h.contains(new Move(0, -1, 2, false, true, true, false, false)));
        // sbW: left, right and back; fFsbW (blind dog) adds the two forward diagonals
        assertEquals(Set.of("-1,0", "1,0", "0,-1"), vectors(Betza.parse("sbW")));
        assertEquals(Set.of("-1,0", "1,0", "0,-1", "-1,1", "1,1"), vectors(Betza.parse("fFsbW")));
    }

    // every Betza string of the built-in definitions parses, into moves without duplicates
    @Test
    void everyBuiltInBetzaParses() {
        for (String id : RuleSet.IDS) {
            for (PieceType t : RuleSet.of(id).pieces) {
                List<Move> ms = Betza.parse(t.betza());
                assertFalse(ms.isEmpty(), id + " " + t.name());
                assertEquals(ms.size(), new HashSet<>(ms).size(), id + " " + t.name() + ": duplicate moves");
                assertEquals(ms, t.moves());
            }
        }
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', textBlock = """
            ''      | empty
            '  '    | empty
            X       | unknown atom 'X'
            fX      | unknown atom 'X'
            qW      | unknown modifier 'q'
            f       | not followed by an atom
            W3f     | not followed by an atom
            3W      | not followed by an atom
            R0      | at least 1
            NN      | riders
            N2      | range on the leaper
            mcW     | both 'm' and 'c'
            nW      | lame
            nD      | add 'm'
            iW      | add 'm'
            W-      | not followed by an atom
            """)
    void badBetzaIsRefusedNamingThePart(String betza, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Betza.parse(betza));
        assertTrue(e.getMessage().contains(fragment), () -> "'" + fragment + "' in " + e.getMessage());
    }

    @Test
    void nullBetzaIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Betza.parse(null));
    }

    // ------------------------------------------------------------------ move counts on an empty board

    /** The moves of the piece on {@code from} (UCI strings), in a position given as FEN/SFEN. */
    static Set<String> movesFrom(String id, String fen, String from) {
        Position p = Position.fromFen(RuleSet.of(id), fen);
        Set<String> out = new TreeSet<>();
        for (int m : p.legalMoves()) {
            String s = MoveNotation.formatUci(p, m);
            if (s.startsWith(from) && !Character.isDigit(s.charAt(from.length()))) {
                out.add(s);
            }
        }
        return out;
    }

    /** The Wa shogi test board: one first-player piece on f6, kings on b1 and j11, off all of its lines. */
    static String wa(String letter) {
        return "9k1/11/11/11/11/5" + letter + "5/11/11/11/11/1K9 w - - 0 1";
    }

    @Test
    void cloudEagleOnEmptyBoard() {
        // vRfB3sWbF from f6 (first player, zone ranks 9-11, the eagle never promotes):
        //   vR: f7..f11 (5) + f5..f1 (5) = 10; fB3: e7 d8 c9 + g7 h8 i9 = 6; sW: e6 g6 = 2; bF: e5 g5 = 2 -> 20
        Set<String> ms = movesFrom("washogi", wa("E"), "f6");
        assertEquals(20, ms.size(), ms::toString);
        assertTrue(ms.containsAll(Set.of("f6f11", "f6f1", "f6c9", "f6i9", "f6e6", "f6g5")));
        assertFalse(ms.contains("f6b10"), "the forward diagonal stops after 3");
        assertFalse(ms.contains("f6d4"), "the backward diagonal is one step");
    }

    @Test
    void cloudEagleIsBlocked() {
        // a friendly sparrow on e7 blocks the whole left forward diagonal (blocked slide, D6): 20 - 3 = 17
        String fen = "9k1/11/11/11/4P6/5E5/11/11/11/11/1K9 w - - 0 1";
        assertEquals(17, movesFrom("washogi", fen, "f6").size());
    }

    @Test
    void foxOnEmptyBoard() {
        // FvWAvD from f6: F 4 (e5 e7 g5 g7) + vW 2 (f5 f7) + A 4 (d4 d8 h4 h8) + vD 2 (f4 f8) = 12; never promotes
        Set<String> ms = movesFrom("washogi", wa("X"), "f6");
        assertEquals(Set.of("f6e5", "f6e7", "f6g5", "f6g7", "f6f5", "f6f7", "f6d4", "f6d8", "f6h4", "f6h8", "f6f4", "f6f8"), ms);
    }

    @Test
    void foxJumpsOverPieces() {
        // pieces on all six adjacent squares of its step directions (own sparrows e7 f7 g7, enemy sparrows
        // e5 f5 g5): the jumps still reach all 6 squares at distance 2, and the 3 enemy sparrows can be taken
        String fen = "9k1/11/11/11/4PPP4/5X5/4ppp4/11/11/11/1K9 w - - 0 1";
        Set<String> ms = movesFrom("washogi", fen, "f6");
        assertEquals(Set.of("f6e5", "f6f5", "f6g5", "f6d4", "f6d8", "f6h4", "f6h8", "f6f4", "f6f8"), ms);
    }

    @Test
    void heavenlyHorseOnEmptyBoard() {
        // ffNbbN from f6: e8 g8 e4 g4 = 4; a promoted piece never promotes again. Boxed in by 8 pieces on its
        // neighbouring squares it still has all 4 jumps.
        assertEquals(Set.of("f6e8", "f6g8", "f6e4", "f6g4"), movesFrom("washogi", wa("+H"), "f6"));
        String crowded = "9k1/11/11/11/4PPP4/4G+HG4/4ppp4/11/11/11/1K9 w - - 0 1";
        assertEquals(4, movesFrom("washogi", crowded, "f6").size());
    }

    @Test
    void liberatedHorseOnEmptyBoard() {
        // fRbR2 from f6: forward f7..f11 = 5, of which f9 f10 f11 enter the zone and may also promote (+3, and
        // f11 is not forced, D5); back f5 f4 = 2 -> 5 + 3 + 2 = 10
        Set<String> ms = movesFrom("washogi", wa("H"), "f6");
        assertEquals(Set.of("f6f7", "f6f8", "f6f9", "f6f9+", "f6f10", "f6f10+", "f6f11", "f6f11+", "f6f5", "f6f4"), ms);
        // the two-square retreat is a blocked slide: a piece on f5 stops it (5 + 3 forward only)
        String blocked = "9k1/11/11/11/11/5H5/5P5/11/11/11/1K9 w - - 0 1";
        assertEquals(8, movesFrom("washogi", blocked, "f6").size());
    }

    @Test
    void shogiKnightOnEmptyBoard() {
        // ffN, kings 9i (a1) and 1a (i9). From 5f (e4): 4d 6d (d6 f6), outside the zone -> 2.
        String s = "8k/9/9/9/9/4N4/9/9/K8 b - 1";
        assertEquals(Set.of("e4d6", "e4f6"), movesFrom("shogi", s, "e4"));
        // from 5e (e5): 4c 6c are in the zone, promotion optional -> 4
        assertEquals(4, movesFrom("shogi", "8k/9/9/9/4N4/9/9/9/K8 b - 1", "e5").size());
        // from 5d (e6): 4b 6b, promotion forced on the last two ranks -> 2, both '+'
        assertEquals(Set.of("e6d8+", "e6f8+"), movesFrom("shogi", "8k/9/9/4N4/9/9/9/9/K8 b - 1", "e6"));
    }

    @Test
    void shogiLanceOnEmptyBoard() {
        // fR from 5f (e4): e5 e6 plain (2); e7 e8 in the zone, optional (2 x 2 = 4); e9 last rank, forced (1) -> 7
        Set<String> ms = movesFrom("shogi", "8k/9/9/9/9/4L4/9/9/K8 b - 1", "e4");
        assertEquals(Set.of("e4e5", "e4e6", "e4e7", "e4e7+", "e4e8", "e4e8+", "e4e9+"), ms);
    }

    @Test
    void chessPieceCountsOnEmptyBoard() {
        // K from d4: 8; N from d4: 8; lone pawn e2: e3 e4 (2); blocked on e3: the lame double step goes too (0);
        // with enemies on d3 and f3: + 2 captures
        assertEquals(8, movesFrom("chess", "7k/8/8/8/3K4/8/8/8 w - - 0 1", "d4").size());
        assertEquals(8, movesFrom("chess", "7k/8/8/8/3N4/8/8/K7 w - - 0 1", "d4").size());
        assertEquals(Set.of("e2e3", "e2e4"), movesFrom("chess", "7k/8/8/8/8/8/4P3/K7 w - - 0 1", "e2"));
        assertEquals(Set.of(), movesFrom("chess", "7k/8/8/8/8/4n3/4P3/K7 w - - 0 1", "e2"));
        assertEquals(Set.of("e2d3", "e2e3", "e2e4", "e2f3"), movesFrom("chess", "7k/8/8/8/8/3n1n2/4P3/K7 w - - 0 1", "e2"));
        // the double step is initial only: a pawn on e3 has one forward move
        assertEquals(Set.of("e3e4"), movesFrom("chess", "7k/8/8/8/8/4P3/8/K7 w - - 0 1", "e3"));
    }

    // the same piece for the second player moves the mirrored way (forward = toward rank 1)
    @Test
    void secondPlayerMovesMirrored() {
        Position p = Position.fromFen(RuleSet.of("washogi"), "9k1/11/11/11/11/5h5/11/11/11/11/1K9 b - - 0 1");
        Set<String> ms = new TreeSet<>();
        for (int m : p.legalMoves()) {
            String s = MoveNotation.formatUci(p, m);
            if (s.startsWith("f6")) {
                ms.add(s);
            }
        }
        assertEquals(Set.of("f6f5", "f6f4", "f6f3", "f6f3+", "f6f2", "f6f2+", "f6f1", "f6f1+", "f6f7", "f6f8"), ms);
        assertEquals("f6", Fen.squareName(p.geometry(), p.geometry().square(5, 5)));
    }
}
