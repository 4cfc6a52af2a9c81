package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Position#seeAtLeast}: exchanges worked out by hand (values P 100, N 300, B 300, R 500, Q 900, so each
 * expected gain below is the sum of the captured pieces along the exchange the comment names; in shogi P 100,
 * G 600), and on every
 * position of every rule set's random walks, that it leaves the position as it was and is monotone in the threshold,
 * that the generators' least valuable attacker of each square (table walk, and bitboards where the rule set has
 * them) is of the type trying every piece finds, and that both ways of finding attackers give the same exchanges.
 */
class SeeTest {
    private static final Map<String, Integer> CHESS = Map.of("P", 100, "N", 300, "B", 300, "R", 500, "Q", 900, "K", 0);

    private static int[] chessValues(RuleSet rs) {
        int[] v = new int[rs.pieces.size()];
        for (PieceType t : rs.pieces) {
            v[t.index()] = CHESS.getOrDefault(t.letter().toUpperCase(), 0);
        }
        return v;
    }

    @ParameterizedTest(name = "{0} {1}: gain {2}")
    @CsvSource(delimiter = ';', textBlock = """
            # pawn takes an undefended pawn: +100
            4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1; e4d5; 100
            # queen takes a pawn the e-pawn defends: 100 - 900
            4k3/4p3/3p4/8/8/8/3Q4/4K3 w - - 0 1; d2d6; -800
            # rook takes a pawn, rook takes back, the second rook (behind the first: an x-ray) takes back: 100 - 500 + 500
            3rk3/8/3p4/8/8/8/3R4/3RK3 w - - 0 1; d2d6; 100
            # the same with one white rook: 100 - 500
            3rk3/8/3p4/8/8/8/3R4/4K3 w - - 0 1; d2d6; -400
            # bishop takes a pawn only the king defends, and the rook on d1 guards d7: the king cannot take back, +100
            4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1; b5d7; 100
            # without the rook the king takes back: 100 - 300
            4k3/3p4/8/1B6/8/8/8/4K3 w - - 0 1; b5d7; -200
            # the cheapest recapture first: N takes N, the pawn (not the queen) takes back, B takes the pawn, the queen
            # takes the bishop: 300 - 300 + 100 - 300, so White stops after the pawn's recapture, 0 (queen first: +300)
            1q2k3/8/2p5/1n6/8/2NB4/8/4K3 w - - 0 1; c3b5; 0
            # pawn takes a defended pawn, pawn takes back, White's second pawn takes again: 100 - 100 + 100
            4k3/8/2p5/3p4/2P1P3/8/8/4K3 w - - 0 1; e4d5; 100
            """)
    void chessExchanges(String fen, String move, int gain) {
        RuleSet rs = RuleSet.of("chess");
        Position p = Fen.parse(rs, fen);
        int m = MoveNotation.parseUci(p, move);
        int[] v = chessValues(rs);
        assertTrue(p.seeAtLeast(m, v, gain), () -> fen + " " + move + " should win at least " + gain);
        assertTrue(!p.seeAtLeast(m, v, gain + 1), () -> fen + " " + move + " should win less than " + (gain + 1));
    }

    @ParameterizedTest(name = "{0} {1}: gain {2}")
    @CsvSource(delimiter = ';', textBlock = """
            # a gold dropped where a pawn takes it for nothing: -600
            4k4/9/4p4/9/9/9/9/9/4K4 b G 1; G*5d; -600
            # the same with a pawn of its own behind: the pawn takes back, 100 - 600
            4k4/9/4p4/9/4P4/9/9/9/4K4 b G 1; G*5d; -500
            # a gold dropped where nothing takes it: 0
            4k4/9/9/9/9/9/9/9/4K4 b G 1; G*5e; 0
            """)
    void shogiDrops(String sfen, String move, int gain) {
        RuleSet rs = RuleSet.of("shogi");
        Position p = Fen.parse(rs, sfen);
        int m = MoveNotation.parseUsi(p, move);
        int[] v = new int[rs.pieces.size()];
        for (PieceType t : rs.pieces) {
            v[t.index()] = Map.of("P", 100, "G", 600).getOrDefault(t.letter(), 0);
        }
        assertTrue(p.seeAtLeast(m, v, gain), () -> sfen + " " + move + " should win at least " + gain);
        assertTrue(!p.seeAtLeast(m, v, gain + 1), () -> sfen + " " + move + " should win less than " + (gain + 1));
    }

    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void leavesThePositionAsItWasAndIsMonotone(String id) {
        RuleSet rs = RuleSet.of(id);
        int[] v = new int[rs.pieces.size()];
        for (int t = 0; t < v.length; t++) {
            v[t] = 100 * (t + 1);
        }
        int captures = 0, bitboardChecks = 0;
        for (Position p : RandomWalks.positions(id)) {
            String before = Fen.format(p);
            long key = p.key();
            for (int m : p.legalMoves()) {
                boolean capture = !Move.isDrop(m) && Move.kind(m) != Move.CASTLING && !p.isEmpty(Move.to(m));
                captures += capture ? 1 : 0;
                boolean previous = true;
                for (int t = -2000; t <= 2000; t += 100) {
                    boolean now = p.seeAtLeast(m, v, t);
                    assertTrue(previous || !now, () -> id + " " + before + " " + MoveNotation.formatUci(p, m));
                    // where bitboards find the attackers, the table walk agrees
                    int t0 = t;
                    assertEquals(p.seeAtLeastByWalk(m, v, t), now,
                            () -> id + " " + before + " " + MoveNotation.formatUci(p, m) + " at " + t0);
                    previous = now;
                }
                if (!capture && (Move.kind(m) == Move.NORMAL || Move.isDrop(m))) {
                    // a quiet move wins nothing, and loses at most the moving piece
                    assertTrue(p.seeAtLeast(m, v, -100 * rs.pieces.size()));
                    assertTrue(!p.seeAtLeast(m, v, 1));
                }
            }
            for (int sq = 0; sq < rs.geometry.squares; sq++) {
                for (int by = 0; by < 2; by++) {
                    int fast = p.leastValuableAttacker(sq, by, v), slow = p.leastValuableAttackerByScan(sq, by, v);
                    int s0 = sq, b0 = by;
                    assertEquals(slow < 0, fast < 0, () -> id + " " + before + " square " + s0 + " by " + b0);
                    if (fast >= 0) {
                        assertEquals(p.typeAt(slow), p.typeAt(fast), () -> id + " " + before + " square " + s0);
                    }
                    int onBits = p.leastValuableAttackerOnBits(sq, by, v);
                    if (onBits != -2) {
                        bitboardChecks++;
                        assertEquals(slow < 0, onBits < 0, () -> id + " " + before + " square " + s0 + " on bits");
                        if (onBits >= 0) {
                            assertEquals(p.typeAt(slow), p.typeAt(onBits), () -> id + " " + before + " square " + s0);
                        }
                    }
                    // the public one, whichever way the position finds attackers
                    int cheapest = p.cheapestAttacker(sq, by, v);
                    assertEquals(slow < 0, cheapest < 0, () -> id + " " + before + " square " + s0 + " cheapest");
                    if (cheapest >= 0) {
                        assertEquals(p.typeAt(slow), p.typeAt(cheapest), () -> id + " " + before + " square " + s0);
                        assertEquals(by, p.colorAt(cheapest));
                    }
                }
            }
            assertEquals(before, Fen.format(p), id);
            assertEquals(key, p.key(), id);
        }
        assertTrue(captures > 0, "the walks should meet some captures");
        assertEquals(rs.bitboards != null, bitboardChecks > 0, id + ": bitboard attackers checked where they exist");
    }
}
