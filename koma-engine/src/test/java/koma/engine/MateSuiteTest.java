package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Mate-finding suites per rule set ({@code src/test/resources/mates/<rule set>.mates}): Koma must find each
 * forced win at its exact distance (score = mate in N) with a mating first move, within a fixed node budget.
 * Line format: {@code FEN ; N ; first moves (space-separated, '-' when several moves mate in N)}; a
 * {@code # source:} comment before a block names where the positions and their distances come from.
 */
class MateSuiteTest {
    /** Node budget per position: generous for mate in 4 on a 2-core CI machine, small enough to catch a blind search. */
    static final long NODE_BUDGET = 3_000_000;

    /** Exhaustive re-check of each position by {@link MateProver} up to this distance (beyond it, too slow). */
    static final int PROVER_MAX_N = 3;

    record Case(String variant, int line, String fen, int mateIn, List<String> moves) {
    }

    static List<Case> load(String variant) throws IOException {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = MateSuiteTest.class.getResourceAsStream("/mates/" + variant + ".mates")) {
            if (in == null) {
                throw new IOException("no mate suite for " + variant);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String l;
            int n = 0;
            while ((l = r.readLine()) != null) {
                n++;
                l = l.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String[] f = l.split(";");
                if (f.length != 3) {
                    throw new IOException(variant + ".mates line " + n + ": expected 'FEN ; N ; moves', got " + l);
                }
                String moves = f[2].strip();
                cases.add(new Case(variant, n, f[0].strip(), Integer.parseInt(f[1].strip()),
                        moves.equals("-") ? List.of() : Arrays.asList(moves.split("\\s+"))));
            }
        }
        return cases;
    }

    @TestFactory
    Stream<DynamicTest> mates() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String v : List.of("chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch")) {
            List<Case> cases = load(v);
            tests.add(DynamicTest.dynamicTest(v + " suite size", () -> assertTrue(cases.size() >= 8,
                    v + ": a suite needs at least 8 positions, has " + cases.size())));
            for (Case c : cases) {
                tests.add(DynamicTest.dynamicTest(v + " line " + c.line + " mate in " + c.mateIn, () -> check(c)));
            }
        }
        return tests.stream();
    }

    static void check(Case c) {
        RuleSet rs = RuleSet.of(c.variant);
        Position p = Position.fromFen(rs, c.fen);
        Search s = new Search(rs, new TranspositionTable(16));
        Search.Result r = s.search(p, Limits.nodes(NODE_BUDGET), new TimeManager(0), null);
        String move = MoveNotation.format(p, r.bestMove(),
                c.variant.equals("shogi") ? MoveNotation.Style.USI : MoveNotation.Style.UCI);
        assertEquals(Search.MATE - (2 * c.mateIn - 1), r.score(),
                c.fen + ": expected mate in " + c.mateIn + ", got score " + r.score() + " (best " + move + ", "
                        + r.nodes() + " nodes)");
        if (!c.moves.isEmpty()) {
            assertTrue(c.moves.contains(move), c.fen + ": best move " + move + " is not one of " + c.moves);
        }
        assertTrue(r.nodes() <= NODE_BUDGET + 10_000, "node budget exceeded: " + r.nodes());
        // a mating first move: after it the opponent is mated in N-1 (checked by a search of the reply)
        p.doMove(r.bestMove());
        if (c.mateIn > 1) {
            Search.Result reply = new Search(rs, new TranspositionTable(16))
                    .search(p, Limits.nodes(NODE_BUDGET), new TimeManager(0), null);
            assertEquals(-Search.MATE + 2 * (c.mateIn - 1), reply.score(), c.fen + ": after " + move
                    + " the defender should be mated in " + (c.mateIn - 1));
        } else {
            assertEquals(0, p.legalMoves().length == 0 || p.pieceCount(p.sideToMove()) == 0 ? 0 : 1,
                    c.fen + ": " + move + " does not end the game");
        }
        p.undoMove();
        if (c.mateIn <= PROVER_MAX_N) {
            // the suite's own claims, on the rules core alone: no faster win, and the listed first moves are all of them
            MateProver prover = new MateProver(rs);
            assertTrue(c.mateIn == 1 || !prover.wins(p, c.mateIn - 1), c.fen + ": wins faster than in " + c.mateIn);
            if (!c.moves.isEmpty() && !c.variant.equals("chess") && !c.variant.equals("shogi")) {
                List<String> all = new ArrayList<>();
                for (int m : prover.winningMoves(p, c.mateIn)) {
                    all.add(MoveNotation.format(p, m, MoveNotation.Style.UCI));
                }
                assertEquals(new java.util.TreeSet<>(c.moves), new java.util.TreeSet<>(all),
                        c.fen + ": the mating first moves");
            }
        }
    }
}
