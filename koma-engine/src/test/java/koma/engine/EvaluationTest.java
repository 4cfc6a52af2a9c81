package koma.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import koma.rules.Position;
import koma.rules.RuleSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The evaluation as a weight vector: its trace, its .eval text, and the file that overrides the built-in one. */
class EvaluationTest {
    /** Positions from random games (a fixed seed), at most {@code plies} plies deep. */
    static Position randomPosition(RuleSet rs, Random rng, int plies) {
        Position p = Position.start(rs);
        int[] buf = p.newMoveBuffer();
        int target = rng.nextInt(plies + 1);
        for (int i = 0; i < target; i++) {
            int n = p.legalMoves(buf);
            if (n == 0 || p.pieceCount(0) == 0 || p.pieceCount(1) == 0) {
                break;
            }
            p.doMove(buf[rng.nextInt(n)]);
        }
        return p;
    }

    /**
     * The trace's dot product with the weights is the evaluation, up to the rounding of the piece-square table
     * (at most half a centipawn per piece) and of the king-hand-danger eighths (under 1 per side). All terms are
     * switched on with odd weights so that none hides behind a zero.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void traceMatchesEvaluate(String id) {
        RuleSet rs = RuleSet.of(id);
        Map<String, Integer> w = new LinkedHashMap<>(new Evaluation(rs).weights());
        int i = 0;
        for (String key : w.keySet()) {
            if (!key.startsWith("hand ") && rs.typeOf(key) < 0) {
                w.put(key, 3 + 7 * (i++ % 5) * (i % 2 == 0 ? 1 : -1));
            }
        }
        Evaluation e = new Evaluation(rs, w);
        int[] vec = e.weights().values().stream().mapToInt(Integer::intValue).toArray();
        double[] coef = new double[vec.length];
        Random rng = new Random(7);
        for (int n = 0; n < 300; n++) {
            Position p = randomPosition(rs, rng, 120);
            e.trace(p, coef);
            double dot = 0;
            for (int k = 0; k < vec.length; k++) {
                dot += coef[k] * vec[k];
            }
            double slack = (p.pieceCount(0) + p.pieceCount(1)) * 0.5 + 2;
            assertTrue(Math.abs(dot - e.evaluate(p)) <= slack,
                    id + " " + p + ": trace " + dot + " vs evaluate " + e.evaluate(p));
        }
    }

    /** Every start position is symmetric: only the tempo remains. */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void startPositionIsTempo(String id) {
        RuleSet rs = RuleSet.of(id);
        Evaluation e = new Evaluation(rs);
        assertEquals(e.weights().get("tempo"), e.evaluate(Position.start(rs)));
    }

    /** weights() written as an .eval file and read back builds the same evaluation. */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi-drops", "shodo-deathmatch"})
    void evalFileRoundTrip(String id, @TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of(id);
        Map<String, Integer> w = new Evaluation(rs).weights();
        Path file = dir.resolve(id + ".eval");
        Files.writeString(file, EvalWeights.format(w, "a header\nover two lines"));
        Map<String, Integer> back = EvalWeights.read(file);
        assertEquals(w, back);
        assertEquals(w, new Evaluation(rs, back).weights());
        assertTrue(Files.readString(file).startsWith("# a header\n# over two lines\n"));
    }

    @Test
    void badWeightsAreRefusedWithTheirPlace() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EvalWeights.parse("P = 100\nN 300\n", "x.eval"));
        assertTrue(e.getMessage().contains("x.eval:2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EvalWeights.parse("P = lots\n", "x.eval"));
        assertTrue(e.getMessage().contains("'P'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Evaluation(RuleSet.of("chess"), Map.of("Z", 5)));
        assertTrue(e.getMessage().contains("'Z'"), e.getMessage());
        // chess has no drops, so no hand values
        assertThrows(IllegalArgumentException.class, () -> new Evaluation(RuleSet.of("chess"), Map.of("hand P", 5)));
    }

    /** -Dkoma.eval.dir replaces the built-in weights of the rule sets it has a file for. */
    @Test
    void evalDirectoryOverridesBuiltIn(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("chess.eval"), "P = 123\ntempo = 0\n");
        String old = System.getProperty(EvalWeights.DIR_PROPERTY);
        System.setProperty(EvalWeights.DIR_PROPERTY, dir.toString());
        try {
            Evaluation e = new Evaluation(RuleSet.of("chess"));
            assertEquals(123, e.weights().get("P"));
            assertEquals(0, e.evaluate(Position.start(RuleSet.of("chess"))));
            // no file for shogi there: the built-in one
            assertEquals(90, new Evaluation(RuleSet.of("shogi")).weights().get("P"));
        } finally {
            if (old == null) {
                System.clearProperty(EvalWeights.DIR_PROPERTY);
            } else {
                System.setProperty(EvalWeights.DIR_PROPERTY, old);
            }
        }
    }

    /**
     * What one shogi term at {@code weight} adds to the built-in evaluation of the position given as SFEN: the
     * evaluation with the term at that weight less the evaluation with it at 0.
     */
    private static int shogiTermAlone(String key, int weight, String sfen) {
        RuleSet rs = RuleSet.of("shogi");
        Map<String, Integer> w = new LinkedHashMap<>(new Evaluation(rs).weights());
        w.put(key, weight);
        Evaluation on = new Evaluation(rs, w);
        w.put(key, 0);
        Position p = Position.fromFen(rs, sfen);
        return on.evaluate(p) - new Evaluation(rs, w).evaluate(p);
    }

    /** A shogi king with open squares around it is worse off against a hand full of gold and silver. */
    @Test
    void handPiecesThreatenAnOpenKing() {
        // black king alone in the open, white holds gold and silver; white's king boxed in by its own pieces:
        // 2 hand attackers x 8 empty squares = 16; 40 * 16 / 8 = 80 centipawns less for black
        assertEquals(-80, shogiTermAlone("king-hand-danger", 40, "7gk/7gs/9/9/4K4/9/9/9/9 b gs 1"));
    }

    /**
     * king-danger2 by hand: Black's king alone on 5e, White holding gold and silver: danger 0 + 2 - 0 = 2, so
     * 40 x -(2 x 2) / 4 = -40; with a white silver next to it and only the gold in hand: 2 + 1 - 0 = 3, so
     * 40 x -9 / 4 = -90. White's king on 1a has three guards and Black holds nothing: danger below 0, no penalty.
     */
    @Test
    void kingDanger2SquaresWhatGathersAroundTheKing() {
        assertEquals(-40, shogiTermAlone("king-danger2", 40, "7gk/7gs/9/9/4K4/9/9/9/9 b gs 1"));
        assertEquals(-90, shogiTermAlone("king-danger2", 40, "7gk/7gs/9/4s4/4K4/9/9/9/9 b g 1"));
    }

    /**
     * {@code net KEY} weights are not the hand-written evaluation's: they build {@link Evaluation#netTerms}, an
     * evaluation of those terms alone (the position of the test above: -40 for Black, to move), which the search
     * adds to a net's output. A key that is not a single-key term of the rule set is refused by name.
     */
    @Test
    void netTermsAreTheNetKeysAlone() {
        RuleSet rs = RuleSet.of("shogi");
        assertNull(new Evaluation(rs).netTerms());
        Map<String, Integer> w = new LinkedHashMap<>(new Evaluation(rs).weights());
        w.put("net king-danger2", 40);
        Evaluation e = new Evaluation(rs, w);
        assertEquals(new Evaluation(rs).weights(), e.weights(), "the hand-written weights are unchanged");
        Position open = Position.fromFen(rs, "7gk/7gs/9/9/4K4/9/9/9/9 b gs 1");
        assertEquals(-40, e.netTerms().evaluate(open));
        assertEquals(0, e.netTerms().evaluate(Position.start(rs)), "no tempo, no material: only the term");
        for (String bad : new String[] {"net P", "net bogus", "net king-attack-nothing"}) {
            Map<String, Integer> b = new LinkedHashMap<>(Map.of(bad, 5));
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> new Evaluation(rs, b).netTerms());
            assertTrue(x.getMessage().contains("'" + bad + "'"), x.getMessage());
        }
        // scarcity is a term of extinction games only
        assertThrows(IllegalArgumentException.class,
                () -> new Evaluation(rs, Map.of("net scarcity", 5)).netTerms());
    }

    /**
     * A net term that compares material still weighs the pieces by the rule set's values, though the net's terms
     * score no material themselves: with {@code net mop-up = 10}, Wa shogi's bare-king ending of
     * EvaluationTermsTest#mopUpDrivesTheBareKingToTheEdge (mop-up coefficient -8 for the side to move, counted by
     * hand there) scores 10 x -8 = -80. Until stop 53 the net's terms saw every piece worth 0, so no side was ever
     * far ahead and this was 0.
     */
    @Test
    void netMopUpWeighsPiecesByTheirValues() {
        RuleSet rs = RuleSet.of("washogi");
        Map<String, Integer> w = new LinkedHashMap<>(new Evaluation(rs).weights());
        w.put("net mop-up", 10);
        Evaluation terms = new Evaluation(rs, w).netTerms();
        Position bare = Position.fromFen(rs, "11/11/11/2K2+odu3/2X4k3/5+p1+p3/11/11/11/11/11 w - - 42 257");
        assertEquals(-80, terms.evaluate(bare));
        assertEquals(0, terms.evaluate(Position.start(rs)), "nobody is far ahead at the start");
    }

    /** The coefficient of one weight in a position, from White's side (White to move in every FEN below). */
    private static double coefficient(Evaluation e, Position p, String key) {
        double[] coef = new double[e.keys().size()];
        e.trace(p, coef);
        return coef[e.keys().indexOf(key)];
    }

    /**
     * pawn-threat counts the enemy pieces (not pawns, not the king) a side's pawns could capture, by hand: chess, the
     * e4 pawn forks d5 and f5 (2; the pawn on e5 in front of it does not count), Black's g6 pawn eyes f5 (its own
     * bishop: 0) and h5 (a white rook: 1), from White's side 2 - 1; shogi, Black's pawn on e5 (seen from the board as
     * the FEN draws it) attacks e6 straight ahead, a white silver there counts 1, a gold beside it (d6) 0.
     */
    @Test
    void pawnThreatCountsWhatPawnsCouldTake() {
        RuleSet chess = RuleSet.of("chess");
        Evaluation e = new Evaluation(chess);
        assertEquals(2 - 1, coefficient(e, Position.fromFen(chess, "4k3/8/6p1/3nPb1R/4P3/8/8/4K3 w - - 0 1"),
                "pawn-threat"));
        assertEquals(-(2 - 1), coefficient(e, Position.fromFen(chess, "4k3/8/6p1/3nPb1R/4P3/8/8/4K3 b - - 0 1"),
                "pawn-threat"), "the same from Black's side");
        RuleSet shogi = RuleSet.of("shogi");
        Evaluation s = new Evaluation(shogi);
        assertEquals(1, coefficient(s, Position.fromFen(shogi, "4k4/9/9/3gs4/4P4/9/9/9/4K4 b - 1"), "pawn-threat"));
    }

    /**
     * threat and hanging, counted by hand. Chess: the knight on c3 attacks the rook on b5 and the queen on d5 (threat
     * 2; they defend each other along the fifth rank, so neither hangs) and the pawn on a4, which nothing defends
     * (hanging 1); Black attacks no piece. With a white pawn on e4 the queen's least valuable attacker is that pawn
     * (pawn-threat's, not threat's), and the queen's attack on e4 finds it defended by the knight. Shogi: Black's
     * silver attacks the rook in front of it (threat), and each of them hangs. king-attack in the first position:
     * Black's queen attacks d1 and d2, next to White's king, White nothing next to Black's.
     */
    @Test
    void threatAndHangingCountWhatTheyName() {
        RuleSet chess = RuleSet.of("chess");
        Evaluation e = new Evaluation(chess);
        Position knight = Position.fromFen(chess, "4k3/8/8/1r1q4/p7/2N5/8/4K3 w - - 0 1");
        assertEquals(2, coefficient(e, knight, "threat"));
        assertEquals(1, coefficient(e, knight, "hanging"));
        assertEquals(0 - 2, coefficient(e, knight, "king-attack"), "the queen reaches d1 and d2 next to White's king");
        assertEquals((0 - 2 * 2) / 4.0, coefficient(e, knight, "king-attack2"));
        Position blackToMove = Position.fromFen(chess, "4k3/8/8/1r1q4/p7/2N5/8/4K3 b - - 0 1");
        assertEquals(-2, coefficient(e, blackToMove, "threat"), "the same from Black's side");
        assertEquals(-1, coefficient(e, blackToMove, "hanging"));
        Position pawn = Position.fromFen(chess, "4k3/8/8/1r1q4/p3P3/2N5/8/4K3 w - - 0 1");
        assertEquals(1, coefficient(e, pawn, "threat"));
        assertEquals(1, coefficient(e, pawn, "hanging"));
        assertEquals(1, coefficient(e, pawn, "pawn-threat"));
        RuleSet shogi = RuleSet.of("shogi");
        Evaluation s = new Evaluation(shogi);
        Position silver = Position.fromFen(shogi, "4k4/9/9/9/4r4/4S4/9/9/4K4 b - 1");
        assertEquals(1, coefficient(s, silver, "threat"));
        assertEquals(1 - 1, coefficient(s, silver, "hanging"));
    }

    /**
     * threat, hanging and king-attack are counted on bitboards where the position keeps them: on every position of
     * EvaluationTermsTest's random playouts of the rule sets with bitboards, with the shipped piece values and with
     * random ones, the attacker searches that serve every board count the same.
     */
    @Test
    void threatsOnBitboardsAreThoseOfTheScan() {
        Random rng = new Random(20261126);
        int compared = 0, seen = 0;
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            if (!Position.start(rs).hasBitboards()) {
                continue;
            }
            EvalContext x = new EvalContext(rs);
            int[] values = new int[rs.pieces.size()];
            for (int round = 0; round < 2; round++) {
                for (int t = 0; t < values.length; t++) {
                    values[t] = round == 0 ? new Evaluation(rs).value(t) : 50 + rng.nextInt(1000);
                }
                x.setValues(values);
                for (Position p : EvaluationTermsTest.positions(rs)) {
                    int[] bits = x.threatCounts(p, true), scan = x.threatCounts(p, false);
                    assertArrayEquals(scan, bits, () -> rs.id + " " + p);
                    compared++;
                    seen += Arrays.stream(scan).sum();
                }
            }
        }
        assertTrue(compared >= 3 * 2 * EvaluationTermsTest.POSITIONS, "chess, Shodo and the deathmatch: " + compared);
        assertTrue(seen > 1000, "the playouts should meet threats and hanging pieces: " + seen);
    }

    /**
     * The term mobility read from the threat terms' attack sets (bitboard positions) is the sum of
     * Position.mobility over the side's pieces: on every position of EvaluationTermsTest's random playouts of every
     * rule set, each side, with a random weight per type (a one-hot weight would hide a piece counted as another).
     */
    @Test
    void mobilityFromAttackSetsIsThatOfTheMoves() {
        Random rng = new Random(20261202);
        int compared = 0, onBits = 0;
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            EvalContext x = new EvalContext(rs);
            int[] weight = new int[rs.pieces.size()];
            for (Position p : EvaluationTermsTest.positions(rs)) {
                for (int t = 0; t < weight.length; t++) {
                    weight[t] = 1 + rng.nextInt(100);
                }
                for (int c = 0; c < 2; c++) {
                    int expected = 0;
                    for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                        int sq = p.pieceSquare(c, i);
                        if (EvalContext.hasMobility(rs.piece(p.typeAt(sq)))) {
                            expected += weight[p.typeAt(sq)] * p.mobility(sq);
                        }
                    }
                    x.newPosition();
                    assertEquals(expected, x.mobility(p, c, weight), () -> rs.id + " " + p);
                    compared++;
                    onBits += p.hasBitboards() ? 1 : 0;
                }
            }
        }
        assertTrue(onBits >= 3 * 2 * EvaluationTermsTest.POSITIONS, "chess, Shodo and the deathmatch: " + onBits);
        assertTrue(compared > onBits, "and the table-walk rule sets: " + compared);
    }

    /** Pawn structure, pairs, open files and the endgame king, counted by hand in small chess positions. */
    @Test
    void structureTermsCountWhatTheyName() {
        RuleSet rs = RuleSet.of("chess");
        Evaluation e = new Evaluation(rs);
        Position lone = Position.fromFen(rs, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        assertEquals(16, coefficient(e, lone, "passed"), "d5 is passed: relative rank 4, squared");
        assertEquals(1, coefficient(e, lone, "isolated"));
        assertEquals(16, coefficient(e, lone, "passed-eg"), "kings and pawns only: the whole endgame share");
        assertEquals(16, coefficient(e, lone, "passed-free"), "d6 in front of it is empty");
        assertEquals(4 * (2 - 5), coefficient(e, lone, "passed-king-eg"),
                "rank 4 times (e8 to d6: 2 steps, less e1 to d6: 5 steps)");
        Position guarded = Position.fromFen(rs, "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1");
        assertEquals(0, coefficient(e, guarded, "passed"), "e7 stops d5, and d5 stops e7");
        Position doubled = Position.fromFen(rs, "4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1");
        assertEquals(1, coefficient(e, doubled, "doubled"));
        assertEquals(2, coefficient(e, doubled, "isolated"));
        assertEquals(1 + 4, coefficient(e, doubled, "passed"), "d2 and d3 both passed: 1 + 4");
        assertEquals(4, coefficient(e, doubled, "passed-free"), "d2 is blocked by d3");
        Position bishops = Position.fromFen(rs, "4k3/8/8/8/8/8/P7/R1B1KB2 w - - 0 1");
        assertEquals(1, coefficient(e, bishops, "pair B"));
        assertEquals(0, coefficient(e, bishops, "open-file R"), "a1 has its own pawn on a2");
        Position openRook = Position.fromFen(rs, "4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1");
        assertEquals(1, coefficient(e, openRook, "open-file R"));
        assertEquals(0, coefficient(e, openRook, "pair B"));
        Position start = Position.start(rs);
        assertEquals(0, coefficient(e, start, "king-center-eg"), "symmetric");
        Position kings = Position.fromFen(rs, "7k/8/8/8/3K4/8/8/8 w - - 0 1");
        assertEquals(3.5 - 0.5, coefficient(e, kings, "king-center-eg"), 1e-9, "d4 (3.5) against h8 (0.5)");
        Map<String, Integer> w = e.weights();
        assertEquals(e.evaluate(kings), w.get("tempo") + w.get("king-center-eg") * 3 + w.get("king-center") * 3
                + w.get("king-advance") * 3 + w.get("psq K d4") - w.get("psq K h1") + w.get("psq-eg K d4")
                - w.get("psq-eg K h1"), "d4 against h8: 3 squares of centralisation (weights king-center and "
                + "king-center-eg), 3 ranks of advance, and the tables' squares (h8 is h1 from Black's side)");
    }
}
