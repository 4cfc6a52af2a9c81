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

    /** The fixed list: start positions and a few played-out positions of each rule set. */
    public static final List<Entry> POSITIONS = List.of(
            new Entry("chess", null, 9),
            new Entry("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 7),
            new Entry("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 10),
            new Entry("shogi", null, 7),
            new Entry("shogi", "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", 7),
            new Entry("shogi", "ln1g3nl/1r1sg1kb1/p1pppp1pp/1p4p2/9/2P1P4/PPBP1PPPP/2S4R1/LN1GKGSNL b Ps 13", 6),
            new Entry("washogi", null, 6),
            new Entry("washogi-drops", null, 6),
            new Entry("shodo", null, 7),
            new Entry("shodo-deathmatch", null, 7));

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
