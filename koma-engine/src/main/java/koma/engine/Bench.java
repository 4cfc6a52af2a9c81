package koma.engine;

import java.util.List;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The search benchmark behind {@code koma bench}: a fixed list of positions from every rule set, each searched
 * to a fixed depth from an empty hash table on one thread. The total node count is the search's signature
 * (a commit that changes search behaviour quotes it as {@code Bench: N}); nodes per second is its speed.
 */
public final class Bench {
    /** One benchmark position. */
    public record Entry(String variant, String fen, int depth) {
    }

    /** A default perft depth of {@code koma bench perft}. */
    public record PerftEntry(String variant, int depth) {
    }

    /** The fixed list: start positions and a few played-out positions of each rule set ({@code bench.txt}). */
    public static final List<Entry> POSITIONS;
    /** The default depth of each rule set for the perft benchmark ({@code bench.txt}). */
    public static final List<PerftEntry> PERFT;

    static {
        List<Entry> search = new java.util.ArrayList<>();
        List<PerftEntry> perft = new java.util.ArrayList<>();
        try (java.io.InputStream in = Bench.class.getResourceAsStream("/koma/engine/bench.txt")) {
            if (in == null) {
                throw new IllegalStateException("resource /koma/engine/bench.txt not found");
            }
            int ln = 0;
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                ln++;
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String[] w = l.split("\\s+", 4);
                if (w.length < 3 || !(w[0].equals("search") || w[0].equals("perft"))) {
                    throw new IllegalStateException("bench.txt:" + ln + ": expected 'search RULE-SET DEPTH [FEN]' or "
                            + "'perft RULE-SET DEPTH', got '" + l + "'");
                }
                if (w[0].equals("search")) {
                    search.add(new Entry(w[1], w.length > 3 ? w[3] : null, Integer.parseInt(w[2])));
                } else {
                    perft.add(new PerftEntry(w[1], Integer.parseInt(w[2])));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        POSITIONS = List.copyOf(search);
        PERFT = List.copyOf(perft);
    }

    /** Totals of a run. */
    public record Result(long nodes, long timeMs) {
        public long nps() {
            return timeMs <= 0 ? nodes * 1000 : nodes * 1000 / timeMs;
        }
    }

    private Bench() {
    }

    /** Runs every position; {@code hashMb} sets the table size, {@code report} gets one line per position. */
    public static Result run(int hashMb, java.util.function.Consumer<String> report) {
        long nodes = 0, start = System.currentTimeMillis();
        TranspositionTable tt = new TranspositionTable(hashMb);
        TimeManager time = new TimeManager(0);
        for (Entry e : POSITIONS) {
            RuleSet rs = RuleSet.of(e.variant());
            Position p = e.fen() == null ? Position.start(rs) : Position.fromFen(rs, e.fen());
            tt.clear();
            Search s = new Search(rs, tt);
            long t0 = System.currentTimeMillis();
            Search.Result r = s.search(p, Limits.depth(e.depth()), time, null);
            nodes += r.nodes();
            if (report != null) {
                report.accept(String.format("%-17s depth %2d  nodes %,12d  time %6d ms  score %6d  %s", e.variant(),
                        e.depth(), r.nodes(), System.currentTimeMillis() - t0, r.score(),
                        e.fen() == null ? "startpos" : e.fen()));
            }
        }
        return new Result(nodes, System.currentTimeMillis() - start);
    }
}
