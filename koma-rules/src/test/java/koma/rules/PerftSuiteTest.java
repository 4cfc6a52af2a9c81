package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the perft suites in {@code src/test/resources/perft/<rule set>.perft}. Each expected number comes from a
 * reference engine or a published table, named in the file's {@code # source:} line. Cases with more than
 * {@link #FAST_LIMIT} leaves run only with {@code -Pdeep} ({@code koma.deep=true}).
 */
class PerftSuiteTest {
    static final long FAST_LIMIT = 5_000_000;
    static final boolean DEEP = Boolean.getBoolean("koma.deep");

    /** One case of a suite file: a position (FEN or 'startpos', then moves) and expected counts per depth. */
    record Case(String variant, String id, String fen, List<String> moves, List<long[]> depths) {
    }

    static List<Case> load(String variant) throws IOException {
        List<Case> out = new ArrayList<>();
        try (InputStream in = PerftSuiteTest.class.getResourceAsStream("/perft/" + variant + ".perft")) {
            assertTrue(in != null, "missing suite /perft/" + variant + ".perft");
            String id = null, fen = null;
            List<String> moves = new ArrayList<>();
            List<long[]> depths = new ArrayList<>();
            for (String raw : (new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n\n").split("\n", -1)) {
                String line = raw.strip();
                if (line.startsWith("#")) {
                    continue;
                }
                if (line.isEmpty()) {
                    if (id != null) {
                        out.add(new Case(variant, id, fen, List.copyOf(moves), List.copyOf(depths)));
                    }
                    id = null;
                    fen = null;
                    moves.clear();
                    depths.clear();
                    continue;
                }
                String[] w = line.split("\\s+", 2);
                switch (w[0]) {
                    case "id" -> id = w[1];
                    case "fen" -> fen = w[1];
                    case "moves" -> moves.addAll(List.of(w[1].split("\\s+")));
                    case "perft" -> {
                        String[] d = w[1].split("\\s+");
                        depths.add(new long[]{Long.parseLong(d[0]), Long.parseLong(d[1])});
                    }
                    default -> throw new IllegalStateException(variant + ".perft: unknown line '" + line + "'");
                }
            }
        }
        return out;
    }

    static Position position(Case c) {
        RuleSet rs = RuleSet.of(c.variant());
        Position p = c.fen().equals("startpos") ? Position.start(rs) : Position.fromFen(rs, c.fen());
        MoveNotation.Style style = rs.conventions.moveStyle().equals("usi") ? MoveNotation.Style.USI
                : MoveNotation.Style.UCI;
        for (String m : c.moves()) {
            p.doMove(MoveNotation.parse(p, m, style));
        }
        return p;
    }

    @TestFactory
    Stream<DynamicTest> suites() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String variant : RuleSet.IDS) {
            List<Case> cases = load(variant);
            assertTrue(cases.size() >= 5, variant + ": expected a real suite, got " + cases.size() + " cases");
            for (Case c : cases) {
                for (long[] d : c.depths()) {
                    if (d[1] > FAST_LIMIT && !DEEP) {
                        continue;
                    }
                    tests.add(DynamicTest.dynamicTest(variant + " " + c.id() + " depth " + d[0], () -> {
                        Position p = position(c);
                        long key = p.key();
                        assertEquals(d[1], new Perft(p, (int) d[0]).perft((int) d[0]),
                                variant + " " + c.id() + " perft " + d[0]);
                        assertEquals(key, p.key(), "perft must leave the position as it found it");
                    }));
                }
            }
        }
        return tests.stream();
    }
}
