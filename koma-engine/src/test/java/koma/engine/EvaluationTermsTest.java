package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The evaluation's terms as one table ({@link EvalTerm#ALL}): the fast path and the trace built from it agree on
 * every rule set, the evaluation is the one of commit 11e0745 (before the table) on fixed positions, every term is
 * declared completely and does something, and evaluating allocates nothing.
 */
class EvaluationTermsTest {
    /** The weight sets the checksums cover (see {@link #weights}). */
    static final List<String> WEIGHT_SETS = List.of("defaults", "all-on", "random");
    /** The weight sets the trace test covers: those and "tables" (the per-square tables on, added after 11e0745). */
    static final List<String> TRACE_SETS = List.of("defaults", "all-on", "random", "tables");
    /** Terms added to the table after commit 11e0745: switched off for the checksums that commit printed. */
    static final Set<String> ADDED_SINCE = Set.of("mop-up", "mop-up-bare", "pawn-threat", "threat", "hanging", "king-attack",
            "king-attack2", "passed-free", "passed-king-eg", "king-danger2", "king-safety");
    /**
     * Positions that random playouts seldom reach, where a term that counts only there (mop-up-bare: a bare king)
     * is seen by {@link #everyTermCounts}.
     */
    static final Map<String, List<String>> RARE = Map.of("chess", List.of("8/8/8/8/3R4/8/8/k6K w - - 0 1"));
    /** Positions per rule set. */
    static final int POSITIONS = 400;

    /** The fixed positions of a rule set: random playouts of 0 to 200 plies from the start (seed 20261124). */
    static List<Position> positions(RuleSet rs) {
        Random rng = new Random(20261124);
        List<Position> out = new ArrayList<>();
        for (int n = 0; n < POSITIONS; n++) {
            Position p = Position.start(rs);
            int[] buf = p.newMoveBuffer();
            int target = rng.nextInt(201);
            for (int i = 0; i < target; i++) {
                int k = p.legalMoves(buf);
                if (k == 0 || p.pieceCount(0) == 0 || p.pieceCount(1) == 0) {
                    break;
                }
                p.doMove(buf[rng.nextInt(k)]);
            }
            out.add(p);
        }
        return out;
    }

    /**
     * A weight set by name, independent of the shipped .eval files: "defaults" (no key given: every default, piece
     * values estimated), "all-on" (the defaults with every weight but the piece and hand values set to a small
     * non-zero value, so that no term hides behind a zero), "random" (every weight drawn with seed 31) and "tables"
     * ("all-on" with the per-square tables in the vector, their weights drawn with seed 32).
     */
    static Map<String, Integer> weights(RuleSet rs, String set) {
        Map<String, Integer> given = new LinkedHashMap<>();
        if (set.equals("tables")) {
            String a1 = rs.geometry.squareName(0), letter = rs.pieces.get(0).letter();
            given.put("psq " + letter + " " + a1, 0);
            given.put("psq-eg " + letter + " " + a1, 0);
        }
        Map<String, Integer> w = new LinkedHashMap<>(new Evaluation(rs, given).weights());
        switch (set) {
            case "defaults" -> {
            }
            case "tables" -> {
                Random rng = new Random(32);
                int i = 0;
                for (String key : w.keySet()) {
                    if (key.startsWith("psq")) {
                        w.put(key, rng.nextInt(81) - 40);
                    } else if (!key.startsWith("hand ") && rs.typeOf(key) < 0) {
                        w.put(key, 3 + 7 * (i++ % 5) * (i % 2 == 0 ? 1 : -1));
                    }
                }
            }
            case "all-on" -> {
                int i = 0;
                for (String key : w.keySet()) {
                    if (!key.startsWith("hand ") && rs.typeOf(key) < 0) {
                        w.put(key, 3 + 7 * (i++ % 5) * (i % 2 == 0 ? 1 : -1));
                    }
                }
            }
            case "random" -> {
                Random rng = new Random(31);
                for (String key : w.keySet()) {
                    boolean material = key.startsWith("hand ") || rs.typeOf(key) >= 0;
                    w.put(key, material ? 40 + rng.nextInt(1400) : rng.nextInt(121) - 60);
                }
            }
            default -> throw new IllegalArgumentException("no weight set " + set);
        }
        return w;
    }

    /** A checksum of the evaluations of the fixed positions: h = h * 1000003 + evaluate(p), in order. */
    static long checksum(RuleSet rs, Evaluation e) {
        long h = 0;
        for (Position p : positions(rs)) {
            h = h * 1_000_003 + e.evaluate(p);
        }
        return h;
    }

    /**
     * evaluate() gives what commit 11e0745's evaluation gave on the same positions and weights (the terms added
     * since, {@link #ADDED_SINCE}, at 0): the checksums in evaluation-checksums.txt were printed by that commit's
     * Evaluation (one test per line of the file).
     */
    @TestFactory
    Stream<DynamicTest> evaluationIsThatOfCommit11e0745() throws IOException {
        String text;
        try (InputStream in = getClass().getResourceAsStream("/koma/engine/evaluation-checksums.txt")) {
            assertNotNull(in, "evaluation-checksums.txt");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<DynamicTest> tests = new ArrayList<>();
        Set<String> covered = new HashSet<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.strip().split("\\s+");
            covered.add(f[0]);
            tests.add(DynamicTest.dynamicTest(f[0] + " " + f[1], () -> {
                RuleSet rs = RuleSet.of(f[0]);
                Map<String, Integer> w = weights(rs, f[1]);
                for (String key : ADDED_SINCE) {
                    w.replace(key, 0);
                }
                assertEquals(Long.parseLong(f[2]), checksum(rs, new Evaluation(rs, w)),
                        f[0] + " with the " + f[1] + " weights");
            }));
        }
        // the file was written for every rule set there was at 11e0745
        assertEquals(Set.of("chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"),
                covered);
        assertEquals(covered.size() * WEIGHT_SETS.size(), tests.size());
        return tests.stream();
    }

    /**
     * On every rule set and weight set, the trace's dot product with the weights is the evaluation up to the
     * rounding the fast path does: half a centipawn per piece (the piece-square table is rounded per piece and
     * square; twice that with the endgame table too, plus one for its weighing by the endgame share) and under one
     * per division of a term with a divisor (per side for a side's term).
     */
    @TestFactory
    Stream<DynamicTest> traceIsTheEvaluation() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String id : RuleSet.IDS) {
            for (String set : TRACE_SETS) {
                tests.add(DynamicTest.dynamicTest(id + " " + set, () -> {
                    RuleSet rs = RuleSet.of(id);
                    Evaluation e = new Evaluation(rs, weights(rs, set));
                    int[] vec = e.weights().values().stream().mapToInt(Integer::intValue).toArray();
                    double divisions = 0;
                    for (EvalTerm t : EvalTerm.ALL) {
                        if (t.divisor > 1 && e.keys().contains(t.key)) {
                            divisions += t.scope == EvalTerm.Scope.SIDE ? 2 : 1;
                        }
                    }
                    boolean tables = e.keys().stream().anyMatch(key -> key.startsWith("psq-eg "));
                    double[] coef = new double[vec.length];
                    for (Position p : positions(rs)) {
                        e.trace(p, coef);
                        double dot = 0;
                        for (int k = 0; k < vec.length; k++) {
                            dot += coef[k] * vec[k];
                        }
                        int pieces = p.pieceCount(0) + p.pieceCount(1);
                        double slack = tables ? pieces + 1 + divisions : pieces * 0.5 + divisions;
                        int v = e.evaluate(p);
                        assertTrue(Math.abs(dot - v) <= slack, id + " " + p + ": trace " + dot + " vs evaluate " + v);
                    }
                }));
            }
        }
        return tests.stream();
    }

    /**
     * Every term does something: on some rule set its key exists and its coefficient is not 0 in some fixed
     * position (otherwise the trace test above could not see it).
     */
    @Test
    void everyTermCounts() {
        Set<String> counted = new HashSet<>();
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            Evaluation e = new Evaluation(rs, weights(rs, "tables"));
            List<String> keys = e.keys();
            double[] coef = new double[keys.size()];
            Set<String> nonZero = new HashSet<>();
            List<Position> fixed = new ArrayList<>(positions(rs));
            for (String fen : RARE.getOrDefault(id, List.of())) {
                fixed.add(koma.rules.notation.Fen.parse(rs, fen));
            }
            for (Position p : fixed) {
                e.trace(p, coef);
                for (int k = 0; k < coef.length; k++) {
                    if (coef[k] != 0) {
                        nonZero.add(keys.get(k));
                    }
                }
            }
            EvalContext x = new EvalContext(rs);
            for (String key : nonZero) {
                counted.add(termOf(rs, x, key).key);
            }
        }
        for (EvalTerm t : EvalTerm.ALL) {
            if (t.scope != EvalTerm.Scope.SETTING) {
                assertTrue(counted.contains(t.key), "term '" + t.key + "' is never counted");
            }
        }
    }

    /** The term a key of the rule set's parameter vector belongs to: a single key, or a prefix and a piece letter. */
    private static EvalTerm termOf(RuleSet rs, EvalContext x, String key) {
        String[] parts = key.split(" ");
        if (parts.length == 3) {
            for (EvalTerm t : EvalTerm.ALL) {
                if (t.perSquare && t.key.equals(parts[0]) && rs.typeOf(parts[1]) >= 0) {
                    return t;
                }
            }
        }
        for (EvalTerm t : EvalTerm.ALL) {
            if (t.scope != EvalTerm.Scope.SETTING && !t.perType && t.key.equals(key)) {
                return t;
            }
        }
        for (EvalTerm t : EvalTerm.ALL) {
            if (t.perType) {
                for (PieceType p : rs.pieces) {
                    if (t.appliesTo(x, p) && t.key(p).equals(key)) {
                        return t;
                    }
                }
            }
        }
        throw new AssertionError("no term has the key '" + key + "' of " + rs.id);
    }

    /**
     * The table is complete: each term has its doc, a scope and a positive divisor, keys are not used twice, each
     * rule set's parameter vector is made of the terms' keys, and the named keys are the single-key terms and
     * settings.
     */
    @Test
    void everyTermIsDeclaredCompletely() {
        Set<String> names = new HashSet<>();
        for (EvalTerm t : EvalTerm.ALL) {
            assertFalse(t.doc.isBlank(), t.key);
            assertNotNull(t.scope, t.key);
            assertTrue(t.divisor > 0, t.key);
            assertTrue(names.add((t.perType ? "per-type " : "") + t.key), "key used twice: " + t.key);
            if (!t.perType) {
                assertEquals(t.defaultWeight, Evaluation.NAMED.get(t.key), t.key);
            }
            if (t.scope == EvalTerm.Scope.SETTING) {
                assertTrue(EvalTerm.ALL.stream().anyMatch(o -> o.setting == t), "setting " + t.key + " sets nothing");
            }
        }
        assertEquals(names.stream().filter(n -> !n.startsWith("per-type ")).count(), Evaluation.NAMED.size());
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            EvalContext x = new EvalContext(rs);
            for (String key : new Evaluation(rs, Map.of()).keys()) {
                assertNotNull(termOf(rs, x, key));
            }
        }
    }

    /** README.md names every key of the table (the .eval file format is documented there; piece values by letter). */
    @Test
    void readmeNamesEveryKey() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        assertTrue(readme.contains("a piece letter for its value"), "README.md on the piece values");
        for (EvalTerm t : EvalTerm.ALL) {
            if (t.perType && t.key.isEmpty()) {
                continue;
            }
            String name = t.perSquare ? t.key + " X SQ" : t.perType ? t.key + " X" : t.key;
            assertTrue(readme.contains("`" + name + "`"), "README.md does not name `" + name + "`");
        }
    }

    /**
     * The mop-up coefficient by hand: twice the bare king's distance from the centre (as kingCentral2 measures it)
     * plus twice the kings' nearness (span minus their distance), halved, for the side to move; 0 without a lead.
     * Wa shogi: the last position of a game against HaChu that Koma (Black: rook-like +O, U, D and two tokins
     * against White's X) did not convert in 512 plies; White's king c8 is 3 files and 2 ranks from the centre f6,
     * so 2 x (5.5 - 3) = 5 against the centre's 11, edge 6; the kings c8 and h7 are 5 apart on a span of 10,
     * nearness 2 x 5 = 10; (6 + 10) / 2 = 8, against White (to move). Chess: king and rook against a bare king
     * in the corner a1 (edge 2 x 3.5 - 2 x 0.5 = 6), the kings a1 and h1 7 apart on a span of 7 (nearness 0): 3,
     * and -3 with the colours swapped (the bare king White's, White to move).
     */
    @Test
    void mopUpDrivesTheBareKingToTheEdge() {
        assertEquals(-8.0, mopUp("washogi", "11/11/11/2K2+odu3/2X4k3/5+p1+p3/11/11/11/11/11 w - - 42 257"));
        assertEquals(3.0, mopUp("chess", "8/8/8/8/3R4/8/8/k6K w - - 0 1"));
        assertEquals(-3.0, mopUp("chess", "8/8/8/8/3r4/8/8/K6k w - - 0 1"));
        for (String id : RuleSet.IDS) {
            assertEquals(0.0, mopUp(id, koma.rules.notation.Fen.format(Position.start(RuleSet.of(id)))), id);
        }
    }

    /**
     * The per-square tables name squares from each side's view: in chess a black piece's square is the white one's
     * with the ranks mirrored, in shogi the board turned round (the start positions' symmetries). 'psq N e4 = 50'
     * gives a lone white knight on e4 +50 and a black one on e5 +50 for Black; 'psq-eg' weighs by the endgame
     * share, all of it with kings and knights only (no material at the start counts toward the phase but the
     * knights') and none at the start. Shogi ('psq S h2 = 30', Black's silver on h2, the file h from the left and
     * the rank 2 from the bottom of the board as the FEN draws it): White's silver on b8 counts the same for White.
     */
    @Test
    void pieceSquareTablesSeeEachSideFromItsOwnCamp() {
        RuleSet chess = RuleSet.of("chess");
        Evaluation e = new Evaluation(chess, Map.of("psq N e4", 50));
        assertEquals(50, gain(chess, e, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1"));
        assertEquals(50, gain(chess, e, "4k3/8/8/4n3/8/8/8/4K3 b - - 0 1"));
        assertEquals(-50, gain(chess, e, "4k3/8/8/4n3/8/8/8/4K3 w - - 0 1"));
        assertEquals(0, gain(chess, e, "4k3/8/8/4N3/8/8/8/4K3 w - - 0 1"));
        assertEquals(50, e.weights().get("psq N e4"));
        assertEquals(0, e.weights().get("psq N e5"));
        assertFalse(e.weights().containsKey("psq-eg N e4"), "the endgame table is not named, so not in the vector");
        Evaluation eg = new Evaluation(chess, Map.of("psq-eg K e1", 40));
        assertEquals(0, gain(chess, eg, koma.rules.notation.Fen.format(Position.start(chess))), "none at the start");
        assertEquals(40, gain(chess, eg, "3k4/8/8/8/8/8/8/4K3 w - - 0 1"), "all of it with kings alone");
        assertEquals(-40, gain(chess, eg, "3k4/8/8/8/8/8/8/4K3 b - - 0 1"));
        int half = gain(chess, eg, "r2k4/8/8/8/8/8/8/R3K3 w - - 0 1");
        assertTrue(half > 0 && half < 40, "a share with rooks on the board: " + half);
        RuleSet shogi = RuleSet.of("shogi");
        Evaluation s = new Evaluation(shogi, Map.of("psq S h2", 30));
        assertEquals(30, gain(shogi, s, "4k4/9/9/9/9/9/9/7S1/4K4 b - 1"));
        assertEquals(30, gain(shogi, s, "4k4/1s7/9/9/9/9/9/9/4K4 w - 1"));
        assertEquals(0, gain(shogi, s, "4k4/7s1/9/9/9/9/9/9/4K4 w - 1"));
    }

    /**
     * The king danger (term king-safety) by hand, in chess, Black's king on g8 behind f7 g7 h7. White's queen h5 and
     * knight g5 both attack f7 and h7 next to the king: 2 attackers (60 x 2 x 2 = 240), 4 attacks on squares next to
     * it (69 x 4 = 276), f7 and h7 defended by no black piece but the king (185 x 2 = 370), no safe check (the
     * queen's f7 and h7 are the king's; the knight reaches none of e7 f6 h6): 886. With a rook a1 for the knight:
     * the queen alone attacks the king's squares (60 + 69 x 2 + 370), and the rook checks safely from a8 (800):
     * 1368. Black, without a queen and with pawns alone: -873. The term is that danger squared over 4096 (886: 191)
     * times the phase, over 10.
     */
    @Test
    void kingSafetyCountsAttackersWeakSquaresAndSafeChecks() {
        RuleSet chess = RuleSet.of("chess");
        Evaluation e = new Evaluation(chess, Map.of("king-safety", 10));
        EvalContext x = new EvalContext(chess);
        int[] values = new int[chess.pieceCount()];
        for (int t = 0; t < values.length; t++) {
            values[t] = e.value(t);
        }
        x.setValues(values);
        Position knight = koma.rules.notation.Fen.parse(chess, "6k1/5ppp/8/6NQ/8/8/5PPP/6K1 b - - 0 1");
        x.newPosition();
        assertEquals(886, x.kingDanger(knight, 0));
        assertEquals(-873, x.kingDanger(knight, 1));
        Position rook = koma.rules.notation.Fen.parse(chess, "6k1/5ppp/8/7Q/8/8/5PPP/R5K1 b - - 0 1");
        x.newPosition();
        assertEquals(1368, x.kingDanger(rook, 0));
        double[] coef = new double[e.keys().size()];
        e.trace(knight, coef);
        x.measurePhase(knight);
        double expected = -(886 * 886 / 4096 * (256 - x.eg) / 256) / 10.0;
        assertTrue(expected < 0, "the phase with a queen and a knight on the board is above 0");
        assertEquals(expected, coef[e.keys().indexOf("king-safety")], 1e-9, "Black to move: White's attack counts against it");
        assertEquals(0, x.kingDanger(Position.start(RuleSet.of("shogi")), 0), "no bitboards on 81 squares: no danger");
    }

    /** What the evaluation e adds to the same weights without its tables, in the rule set's position given as FEN. */
    private static int gain(RuleSet rs, Evaluation e, String fen) {
        Map<String, Integer> w = new LinkedHashMap<>(e.weights());
        w.keySet().removeIf(key -> key.startsWith("psq"));
        Position p = koma.rules.notation.Fen.parse(rs, fen);
        return e.evaluate(p) - new Evaluation(rs, w).evaluate(p);
    }

    /**
     * mop-up-bare counts mop-up's coefficient (see above) only against a royal piece alone, board and hand, and for a
     * side with a piece other than a pawn, whatever the lead. King and rook against the bare king a1: 3, as mop-up;
     * -3 with the colours swapped. With a black pawn on h7 beside the bare king: 0, though mop-up (a rook against a
     * pawn, far ahead) still counts 3. King and pawn against king: 0 (a pawn only), as mop-up (no non-pawn lead).
     * Shogi: rook against a bare king e9 (edge 2 x 4 = 8 from e5, 2 x (8 - 8) nearness with the kings e1 and e9 8
     * ranks apart): 4 for Black; with a pawn in White's hand: 0, the king is not bare.
     */
    @Test
    void mopUpBareCountsAgainstABareKingOnly() {
        assertEquals(3.0, mopUp("chess", "8/8/8/8/3R4/8/8/k6K w - - 0 1", "mop-up-bare"));
        assertEquals(-3.0, mopUp("chess", "8/8/8/8/3r4/8/8/K6k w - - 0 1", "mop-up-bare"));
        assertEquals(0.0, mopUp("chess", "8/7p/8/8/3R4/8/8/k6K w - - 0 1", "mop-up-bare"));
        assertEquals(3.0, mopUp("chess", "8/7p/8/8/3R4/8/8/k6K w - - 0 1", "mop-up"));
        assertEquals(0.0, mopUp("chess", "8/8/8/8/3P4/8/8/k6K w - - 0 1", "mop-up-bare"));
        assertEquals(4.0, mopUp("shogi", "4k4/9/9/9/9/9/9/1R7/4K4 b - 1", "mop-up-bare"));
        assertEquals(0.0, mopUp("shogi", "4k4/9/9/9/9/9/9/1R7/4K4 b p 1", "mop-up-bare"));
        for (String id : RuleSet.IDS) {
            assertEquals(0.0, mopUp(id, koma.rules.notation.Fen.format(Position.start(RuleSet.of(id))), "mop-up-bare"),
                    id);
        }
    }

    /** The mop-up term's coefficient (for the side to move) in a position given as FEN. */
    private static double mopUp(String id, String fen) {
        return mopUp(id, fen, "mop-up");
    }

    /** The coefficient of a mop-up term, by key, for the side to move in a position given as FEN. */
    private static double mopUp(String id, String fen, String key) {
        RuleSet rs = RuleSet.of(id);
        Evaluation e = new Evaluation(rs, Map.of(key, 1));
        double[] coef = new double[e.keys().size()];
        e.trace(koma.rules.notation.Fen.parse(rs, fen), coef);
        int k = e.keys().indexOf(key);
        return k < 0 ? 0 : coef[k];
    }

    /**
     * The fast path allocates nothing: evaluating every fixed position of every rule set allocates 0 bytes (in the
     * least of three runs after a warm-up one).
     */
    @Test
    void evaluatingAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Evaluation> evals = new ArrayList<>();
        List<Position[]> sets = new ArrayList<>();
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            evals.add(new Evaluation(rs, weights(rs, "all-on")));
            sets.add(positions(rs).toArray(new Position[0]));
        }
        Evaluation[] e = evals.toArray(new Evaluation[0]);
        Position[][] ps = sets.toArray(new Position[0][]);
        long sum = run(e, ps);
        // An allocation in the code path shows in every run; the JIT's one-off work (a deoptimisation rebuilding an
        // object it had kept in registers) in at most one of three, so the least of three runs must be 0.
        long allocated = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3 && allocated > 0; attempt++) {
            long before = mx.getCurrentThreadAllocatedBytes();
            sum += run(e, ps);
            allocated = Math.min(allocated, mx.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0, allocated, "bytes allocated by " + e.length * POSITIONS + " evaluations (sum " + sum + ")");
    }

    /** Evaluates every position once with its rule set's evaluation (no iterator, no boxing). */
    private static long run(Evaluation[] e, Position[][] ps) {
        long sum = 0;
        for (int i = 0; i < e.length; i++) {
            for (Position p : ps[i]) {
                sum += e[i].evaluate(p);
            }
        }
        return sum;
    }
}
