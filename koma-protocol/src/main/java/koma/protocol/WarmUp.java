package koma.protocol;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import koma.engine.Search;
import koma.engine.nnue.Network;
import koma.rules.RuleSet;

/**
 * Warms the JVM up once per rule set and evaluation before a clock runs: the protocols call it when a GUI asks
 * whether the engine is ready (UCI/USI {@code isready}, XBoard {@code ping}). A cold JVM runs the search, and above
 * all the net's vector code, interpreted for its first second or so: without it the first search of a game reached
 * depth 3-4 (under 1,000 nodes) in half a second in Shodo and shogi, with it depth 8-10 (bench/results,
 * 2026-11-25-search-techniques.txt).
 */
final class WarmUp {
    /** The throw-away search's budget: it stops at whichever comes first (a loaded machine must not stall the GUI). */
    static final long NODES = 100_000, MAX_MS = 2000;
    /** The rule sets and evaluations (a net, or "hand-written") already warmed up in this process. */
    private final Set<List<Object>> done = new HashSet<>();

    /** Warms up for {@code rules} searched with {@code net} (null: the hand-written evaluation), once. */
    void ensure(RuleSet rules, Network net) {
        if (done.add(List.of(rules.id, net == null ? "hand-written" : net))) {
            Search.warmUp(rules, net, NODES, MAX_MS);
        }
    }

    /** How many warm-up searches ran (for tests). */
    int count() {
        return done.size();
    }
}
