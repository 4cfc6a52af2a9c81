package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.Test;

/**
 * Drop and promotion rules of RULES.md 2.4-2.5 (shogi), 3.4 and 4 (Wa shogi), 1.4 (chess), 5.4 (Shodo) and
 * 6.4 (deathmatch), each on a position built for it. Shogi positions are SFEN with USI moves; the others FEN
 * with UCI moves (Wa: first player upper case, 'w').
 */
class DropRulesTest {
    static Position pos(String id, String fen) {
        return Position.fromFen(RuleSet.of(id), fen);
    }

    /** The legal moves as strings: USI for shogi, UCI otherwise. */
    static Set<String> moves(Position p) {
        boolean usi = p.ruleSet().id.equals("shogi");
        Set<String> out = new TreeSet<>();
        for (int m : p.legalMoves()) {
            assertTrue(out.add(usi ? MoveNotation.formatUsi(p, m) : MoveNotation.formatUci(p, m)), "duplicate move string");
        }
        return out;
    }

    static Set<String> matching(Set<String> moves, Predicate<String> pred) {
        Set<String> out = new TreeSet<>();
        for (String m : moves) {
            if (pred.test(m)) {
                out.add(m);
            }
        }
        return out;
    }

    static int play(Position p, String move) {
        int m = p.ruleSet().id.equals("shogi") ? MoveNotation.parseUsi(p, move) : MoveNotation.parseUci(p, move);
        p.doMove(m);
        return m;
    }

    /** Number of legal replies after the (possibly illegal) drop, played without validation. */
    static int repliesAfter(Position p, int move) {
        p.doMove(move);
        try {
            assertTrue(p.inCheck(), "the drop should give check");
            return p.legalMoves().length;
        } finally {
            p.undoMove();
        }
    }

    // ------------------------------------------------------------------ nifu

    @Test
    void shogiNifuForbidsPawnDropOnFileWithOwnUnpromotedPawn() {
        // sente pawn on 5g, pawn in hand: no P*5x at all; on the other 8 files ranks b..i (8 each, rank a is a
        // dead square) are empty, and P*5b is not on an allowed file, so 8 * 8 = 64 pawn drops
        Set<String> ms = moves(pos("shogi", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1"));
        assertEquals(Set.of(), matching(ms, m -> m.startsWith("P*5")));
        assertEquals(64, matching(ms, m -> m.startsWith("P*")).size());
        assertTrue(ms.contains("P*4e"));
    }

    @Test
    void shogiNifuIgnoresTokin() {
        // a tokin on 5e does not block file 5: P*5b..5h except the tokin's square, 6 drops on file 5
        // (P*5b checks the king, which can take it, so it is no drop mate)
        Set<String> ms = moves(pos("shogi", "4k4/9/9/9/4+P4/9/9/9/4K4 b P 1"));
        assertEquals(Set.of("P*5b", "P*5c", "P*5d", "P*5f", "P*5g", "P*5h"), matching(ms, m -> m.startsWith("P*5")));
        assertEquals(64 + 6, matching(ms, m -> m.startsWith("P*")).size());
    }

    @Test
    void shogiNifuCountsOnlyTheDroppingSidesPawns() {
        // gote's pawn on 5c does not stop sente dropping on file 5, and sente's pawn on 4g stops only sente
        Position p = pos("shogi", "4k4/9/4p4/9/9/9/5P3/9/4K4 b P 1");
        Set<String> ms = moves(p);
        assertTrue(ms.contains("P*5d"));
        assertEquals(Set.of(), matching(ms, m -> m.startsWith("P*4")));
    }

    @Test
    void waNifuForbidsSparrowDropOnFileWithOwnSparrowButNotGoldenBird() {
        Set<String> withSparrow = moves(pos("washogi-drops", "5k5/11/11/11/11/5P5/11/11/11/11/5K5[P] w - - 0 1"));
        assertEquals(Set.of(), matching(withSparrow, m -> m.startsWith("P@f")));
        assertTrue(withSparrow.contains("P@e6"));
        // with a golden bird on f6 instead, f2..f10 are open except f6: 8 drops (f11 is a dead square, f1 the king)
        Set<String> withBird = moves(pos("washogi-drops", "5k5/11/11/11/11/5+P5/11/11/11/11/5K5[P] w - - 0 1"));
        assertEquals(8, matching(withBird, m -> m.startsWith("P@f")).size());
        assertTrue(withBird.contains("P@f5"));
    }

    // ------------------------------------------------------------------ uchifuzume

    // gote king 1a boxed in by its own lance on 2a, sente gold 2c guards 1b and 2b: P*1b would be mate
    static final String SHOGI_DROP_MATE = "7lk/9/7G1/9/9/9/9/9/K8 b GP 1";

    @Test
    void shogiPawnDropMateIsIllegal() {
        Position p = pos("shogi", SHOGI_DROP_MATE);
        Set<String> ms = moves(p);
        assertFalse(ms.contains("P*1b"), "uchifuzume: the mating pawn drop must not be generated");
        assertTrue(ms.contains("P*2b"), "other pawn drops stay legal");
        // the excluded drop really is mate: played without validation, gote is in check with no reply
        assertEquals(0, repliesAfter(p, Move.drop(p.ruleSet().typeOf("P"), sq(p, "i8"))), "1b = i8");
    }

    @Test
    void shogiGoldDropMateIsLegal() {
        Position p = pos("shogi", SHOGI_DROP_MATE);
        assertTrue(moves(p).contains("G*1b"), "mate by a dropped gold is allowed");
        play(p, "G*1b");
        assertTrue(p.inCheck());
        assertEquals(0, p.legalMoves().length, "G*1b mates");
    }

    @Test
    void shogiPawnMoveMateIsLegal() {
        // the same net, the pawn arriving from 1c by a move: both 1c1b and 1c1b+ are legal and mate
        Position p = pos("shogi", "7lk/9/7GP/9/9/9/9/9/K8 b - 1");
        Set<String> ms = moves(p);
        assertTrue(ms.contains("1c1b") && ms.contains("1c1b+"), ms::toString);
        play(p, "1c1b");
        assertEquals(0, p.legalMoves().length, "1c1b mates");
    }

    @Test
    void shogiPawnDropCheckWithoutMateIsLegal() {
        // without the lance the king escapes to 2a, so P*1b is check but not mate
        Position p = pos("shogi", "8k/9/7G1/9/9/9/9/9/K8 b P 1");
        assertTrue(moves(p).contains("P*1b"));
        play(p, "P*1b");
        assertTrue(p.inCheck());
        assertEquals(Set.of("1a2a"), moves(p));
    }

    @Test
    void waSparrowDropMateIsIllegalButOtherDropMateIsLegal() {
        // second king k11 boxed in by its own oxcart j11; first player's wolf (WfF) on j9 guards k10 and j10
        Position p = pos("washogi-drops", "9ok/11/9W1/11/11/11/11/11/11/11/K10[PW] w - - 0 1");
        Set<String> ms = moves(p);
        assertFalse(ms.contains("P@k10"), "no sparrow-drop mate");
        assertTrue(ms.contains("P@j10"), "a sparrow drop that does not mate stays legal");
        assertTrue(ms.contains("W@k10"), "mate by a dropped wolf is allowed");
        int sparrowMate = Move.drop(p.ruleSet().typeOf("P"), sq(p, "k10"));
        assertEquals(0, repliesAfter(p, sparrowMate), "the excluded drop would mate");
        play(p, "W@k10");
        assertEquals(0, p.legalMoves().length, "W@k10 mates");
    }

    // ------------------------------------------------------------------ dead drops

    @Test
    void shogiDeadDropsForSente() {
        // bare kings 5a/5i, sente holds L N P. Pawn and lance: ranks b..i of 9 files minus the king on 5i = 71
        // each (P*5b checks but the king takes it). Knight: ranks c..i = 63 minus 5i = 62.
        Set<String> ms = moves(pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 b LNP 1"));
        assertEquals(Set.of(), matching(ms, m -> m.matches("[PL]\\*\\da|N\\*\\d[ab]")));
        assertEquals(71, matching(ms, m -> m.startsWith("P*")).size());
        assertEquals(71, matching(ms, m -> m.startsWith("L*")).size());
        assertEquals(62, matching(ms, m -> m.startsWith("N*")).size());
        assertTrue(ms.containsAll(Set.of("P*1b", "L*9b", "N*1c", "N*9c")));
    }

    @Test
    void shogiDeadDropsForGote() {
        // the same from gote's side: nothing on rank i for p/l, nothing on ranks h, i for n
        Set<String> ms = moves(pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 w lnp 1"));
        assertEquals(Set.of(), matching(ms, m -> m.matches("[PL]\\*\\di|N\\*\\d[hi]")));
        assertEquals(71, matching(ms, m -> m.startsWith("P*")).size());
        assertEquals(62, matching(ms, m -> m.startsWith("N*")).size());
        assertTrue(ms.containsAll(Set.of("P*1h", "L*9h", "N*1g")));
    }

    @Test
    void waDeadDropsOnlyForSparrowAndOxcart() {
        // 121 squares, kings on f1 and f11. Sparrow and oxcart: ranks 1..10 minus f1 = 109 each.
        // Horse, owl, eagle, fox keep a move on rank 11, so they drop anywhere empty: 121 - 2 = 119.
        Set<String> ms = moves(pos("washogi-drops", "5k5/11/11/11/11/11/11/11/11/11/5K5[POHLEX] w - - 0 1"));
        assertEquals(Set.of(), matching(ms, m -> m.matches("[PO]@[a-k]11")));
        assertEquals(109, matching(ms, m -> m.startsWith("P@")).size());
        assertEquals(109, matching(ms, m -> m.startsWith("O@")).size());
        for (String t : new String[]{"H", "L", "E", "X"}) {
            assertEquals(119, matching(ms, m -> m.startsWith(t + "@")).size(), t);
            assertTrue(ms.contains(t + "@a11"), t + " may be dropped on the last rank");
        }
    }

    // ------------------------------------------------------------------ drops are unpromoted

    @Test
    void shogiDropsAreUnpromotedAndPromoteOnALaterMove() {
        Position p = pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 b S 1");
        int silver = p.ruleSet().typeOf("S");
        for (int m : p.legalMoves()) {
            if (Move.isDrop(m)) {
                assertEquals(silver, Move.type(m), "drops are unpromoted");
            }
        }
        play(p, "S*3c");
        assertEquals(silver, p.typeAt(sq(p, "g7")), "3c = g7 holds an unpromoted silver");
        play(p, "5a6a");
        Set<String> ms = moves(p);
        // within the zone (3c -> 3b) and out of it (3c -> 2d): promotion optional both times
        assertTrue(ms.containsAll(Set.of("3c3b", "3c3b+", "3c2d", "3c2d+")), ms::toString);
    }

    @Test
    void waDropsAreUnpromoted() {
        Position p = pos("washogi-drops", "5k5/11/11/11/11/11/11/11/11/11/5K5[H] w - - 0 1");
        Set<String> ms = moves(p);
        assertTrue(ms.contains("H@c10"));
        assertEquals(Set.of(), matching(ms, m -> m.startsWith("+")));
        play(p, "H@c10");
        assertEquals(p.ruleSet().typeOf("H"), p.typeAt(sq(p, "c10")));
    }

    // ------------------------------------------------------------------ captured pieces go to hand demoted

    @Test
    void shogiCapturedPromotedPiecesGoToHandDemoted() {
        // sente rook 5f takes gote's tokin on 5e; sente bishop 9g takes gote's dragon on 3a
        RuleSet rs = RuleSet.of("shogi");
        Position p = pos("shogi", "4k1+r2/9/9/9/4+p4/4R4/B8/9/4K4 b - 1");
        int pawn = rs.typeOf("P"), tokin = rs.typeOf("+P"), rook = rs.typeOf("R"), dragon = rs.typeOf("+R");
        play(p, "5f5e");
        assertEquals(1, p.handCount(0, pawn));
        assertEquals(0, p.handCount(0, tokin));
        p.undoMove();
        assertEquals(0, p.handCount(0, pawn), "undo takes the pawn back out of hand");
        play(p, "9g3a");
        assertEquals(1, p.handCount(0, rook));
        assertEquals(0, p.handCount(0, dragon));
    }

    @Test
    void waCapturedPromotedPiecesGoToHandDemoted() {
        // three running rabbits (fRFbW) take a promoted owl, a golden bird and a native cloud eagle
        RuleSet rs = RuleSet.of("washogi-drops");
        Position p = pos("washogi-drops", "5k5/11/11/11/11/4+l+pe4/4RRR4/11/11/11/5K5[] w - - 0 1");
        int owl = rs.typeOf("L"), promotedOwl = rs.typeOf("+L"), eagle = rs.typeOf("E");
        int sparrow = rs.typeOf("P"), bird = rs.typeOf("+P");

        play(p, "e5e6");
        assertEquals(1, p.handCount(0, owl), "promoted owl (+L) goes to hand as a swooping owl");
        assertEquals(0, p.handCount(0, promotedOwl));
        assertEquals(0, p.handCount(0, eagle), "not as the cloud eagle whose move it has");
        p.undoMove();

        play(p, "f5f6");
        assertEquals(1, p.handCount(0, sparrow), "golden bird goes to hand as a sparrow");
        assertEquals(0, p.handCount(0, bird));
        p.undoMove();

        play(p, "g5g6");
        assertEquals(1, p.handCount(0, eagle), "a native eagle stays an eagle");
    }

    // ------------------------------------------------------------------ forced and optional promotion

    @Test
    void shogiForcedPromotion() {
        // pawn 9b, lance 7b, knight 1c (to 2a), knight 9d (to 8b), knight 8e (to 7c/9c), pawn 3c
        Set<String> ms = moves(pos("shogi", "4k4/P1L6/6P1N/N8/1N7/9/9/9/4K4 b - 1"));
        assertEquals(Set.of("9b9a+"), matching(ms, m -> m.startsWith("9b")), "pawn to the last rank");
        assertEquals(Set.of("7b7a+"), matching(ms, m -> m.startsWith("7b")), "lance to the last rank");
        assertEquals(Set.of("1c2a+"), matching(ms, m -> m.startsWith("1c")), "knight to the last rank");
        assertEquals(Set.of("9d8b+"), matching(ms, m -> m.startsWith("9d")), "knight to the second-last rank");
        assertEquals(Set.of("8e7c", "8e7c+", "8e9c", "8e9c+"), matching(ms, m -> m.startsWith("8e")), "knight to rank c");
        assertEquals(Set.of("3c3b", "3c3b+"), matching(ms, m -> m.startsWith("3c")), "pawn to rank b");
    }

    @Test
    void shogiOptionalPromotionLeavingTheZone() {
        // a rook on 2b leaving the zone downwards may promote (start square in the zone), and need not
        Set<String> ms = moves(pos("shogi", "4k4/7R1/9/9/9/9/9/9/4K4 b - 1"));
        assertTrue(ms.containsAll(Set.of("2b2h", "2b2h+", "2b2d", "2b2d+")), ms::toString);
        // a rook moving wholly outside the zone has no promotion
        Set<String> outside = moves(pos("shogi", "4k4/9/9/9/7R1/9/9/9/4K4 b - 1"));
        assertTrue(outside.contains("2e2f") && !outside.contains("2e2f+"));
        assertTrue(outside.contains("2e2c") && outside.contains("2e2c+"));
    }

    @Test
    void waForcedPromotionOnlyForSparrowAndOxcart() {
        // sparrow a10, oxcart c9, liberated horses e10 and g11 (the latter already on the last rank)
        Set<String> ms = moves(pos("washogi-drops", "6H2k1/P3H6/2O8/11/11/11/11/11/11/11/5K5[] w - - 0 1"));
        assertEquals(Set.of("a10a11+"), matching(ms, m -> m.startsWith("a10")), "sparrow to the last rank");
        assertEquals(Set.of("c9c10", "c9c10+", "c9c11+"), matching(ms, m -> m.startsWith("c9")), "oxcart");
        assertTrue(ms.containsAll(Set.of("e10e11", "e10e11+")), "liberated horse is not forced on the last rank");
        // the horse on g11 can retreat 1 or 2 (bR2), with optional promotion as it starts in the zone
        assertEquals(Set.of("g11g10", "g11g10+", "g11g9", "g11g9+"), matching(ms, m -> m.startsWith("g11")));
    }

    @Test
    void shodoKnightPromotesOnlyOnArrival() {
        Set<String> arriving = moves(pos("shodo", "k7/1N6/8/8/8/8/8/7K w - - 0 1"));
        assertEquals(Set.of("b7a5", "b7c5", "b7d6", "b7d8", "b7d8q"), matching(arriving, m -> m.startsWith("b7")));
        Set<String> leaving = moves(pos("shodo", "1N5k/8/8/8/8/8/8/7K w - - 0 1"));
        assertEquals(Set.of("b8a6", "b8c6", "b8d7"), matching(leaving, m -> m.startsWith("b8")));
        Set<String> black = moves(pos("shodo", "4k3/8/8/8/8/8/2n5/7K b - - 0 1"));
        assertEquals(Set.of("c2a1", "c2a1q", "c2a3", "c2b4", "c2d4", "c2e3", "c2e1", "c2e1q"),
                matching(black, m -> m.startsWith("c2")));
    }

    @Test
    void deathmatchKnightsNeverPromote() {
        Position p = pos("shodo-deathmatch", "4n3/8/1N6/8/8/8/8/8 w - - 0 1");
        assertEquals(Set.of("b6a4", "b6a8", "b6c4", "b6c8", "b6d5", "b6d7"), moves(p));
        for (int m : p.legalMoves()) {
            assertEquals(Move.NORMAL, Move.kind(m));
        }
    }

    @Test
    void chessPromotionOffersAllFourPiecesAndNoPawn() {
        // a7 can push to a8 or take on b8: 2 destinations x {q, r, b, n}, never a plain pawn move
        Set<String> white = moves(pos("chess", "1r5k/P7/8/8/8/8/8/7K w - - 0 1"));
        assertEquals(Set.of("a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"),
                matching(white, m -> m.startsWith("a7")));
        Set<String> black = moves(pos("chess", "7k/8/8/8/8/8/p7/1R5K b - - 0 1"));
        assertEquals(Set.of("a2a1q", "a2a1r", "a2a1b", "a2a1n", "a2b1q", "a2b1r", "a2b1b", "a2b1n"),
                matching(black, m -> m.startsWith("a2")));
    }

    /** A square by its engine name (e4, k11). */
    static int sq(Position p, String name) {
        return koma.rules.notation.Fen.parseSquare(p.geometry(), name, "test square");
    }
}
