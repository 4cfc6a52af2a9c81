package koma.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The engine as a player, for callers that need a move or an evaluation and nothing of the search's
 * internals (the web server): each call runs one search with its own transposition table, so calls from
 * different threads do not share state (an instance holds only the rule set).
 */
public final class EnginePlayer {
    /** Hash per search in MB: small, because the server runs several searches at once. */
    private static final int HASH_MB = 8;

    /**
     * An evaluation from the side to move's view: {@code scoreCp} centipawns, or mate in {@code mateIn} moves
     * when not 0 (negative: the side to move is mated), at {@code depth}, with the principal variation.
     */
    public record Analysis(int depth, int scoreCp, int mateIn, int[] pv) {
    }

    private final RuleSet rs;

    public EnginePlayer(RuleSet rs) {
        this.rs = rs;
    }

    /**
     * The move to play at Skill Level {@code level} (0..20) thinking about {@code timeMs}; {@link Move#NONE} when
     * there is no legal move. {@code seed} varies the weaker levels' mistakes from game to game.
     */
    public int bestMove(Position position, int level, long timeMs, long seed) {
        Search search = new Search(rs, new TranspositionTable(HASH_MB));
        search.setSkill(level, seed);
        return search.search(position.copy(), Limits.moveTime(Math.max(1, timeMs)), new TimeManager(0), null)
                .bestMove();
    }

    /** Full-strength analysis to {@code maxDepth} or {@code timeMs}, whichever comes first. */
    public Analysis analyse(Position position, int maxDepth, long timeMs) {
        Search search = new Search(rs, new TranspositionTable(HASH_MB));
        AtomicReference<SearchInfo> last = new AtomicReference<>();
        Limits limits = new Limits(-1, -1, 0, 0, 0, 0, Math.max(1, timeMs), Math.max(1, maxDepth), -1, false);
        Search.Result r = search.search(position.copy(), limits, new TimeManager(0), last::set);
        SearchInfo info = last.get();
        if (info == null) {
            return new Analysis(r.depth(), r.score(), 0, r.bestMove() == Move.NONE ? new int[0] : new int[]{r.bestMove()});
        }
        return new Analysis(info.depth(), info.score(), info.mateIn(), info.pv().clone());
    }

    /**
     * Full-strength analysis of the {@code multiPv} best lines (UCI MultiPV; fewer when there are fewer legal moves),
     * best first, to {@code maxDepth} or {@code timeMs}, whichever comes first. The lines come from the deepest
     * iteration that reported all of them (a search stopped halfway through an iteration does not mix depths); an
     * empty list when there is no legal move.
     */
    public List<Analysis> analyse(Position position, int maxDepth, long timeMs, int multiPv) {
        if (multiPv < 1) {
            throw new IllegalArgumentException("multiPv: must be at least 1, got " + multiPv);
        }
        Search search = new Search(rs, new TranspositionTable(HASH_MB));
        search.setMultiPv(multiPv);
        // depth -> the lines reported at that depth, by their MultiPV index (1-based)
        TreeMap<Integer, TreeMap<Integer, SearchInfo>> byDepth = new TreeMap<>();
        Limits limits = new Limits(-1, -1, 0, 0, 0, 0, Math.max(1, timeMs), Math.max(1, maxDepth), -1, false);
        Search.Result r = search.search(position.copy(), limits, new TimeManager(0),
                info -> byDepth.computeIfAbsent(info.depth(), d -> new TreeMap<>()).put(info.multiPv(), info));
        List<Analysis> out = new ArrayList<>();
        if (byDepth.isEmpty()) {
            if (r.bestMove() != Move.NONE) {
                out.add(new Analysis(r.depth(), r.score(), 0, new int[]{r.bestMove()}));
            }
            return out;
        }
        int most = byDepth.values().stream().mapToInt(TreeMap::size).max().orElse(0);
        TreeMap<Integer, SearchInfo> lines = byDepth.lastEntry().getValue();
        for (TreeMap<Integer, SearchInfo> l : byDepth.descendingMap().values()) {
            if (l.size() == most) {
                lines = l;
                break;
            }
        }
        for (SearchInfo info : lines.values()) {
            out.add(new Analysis(info.depth(), info.score(), info.mateIn(), info.pv().clone()));
        }
        // each line is searched without the earlier lines' first moves, so it is rarely better; aspiration windows
        // can still leave one a little out of order: best first by the search's score (stable)
        out.sort(Comparator.comparingInt((Analysis a) -> -lineScore(a)));
        return out;
    }

    /** A line's score on one scale: mates beyond any centipawn score, the sooner the better. */
    private static int lineScore(Analysis a) {
        if (a.mateIn() > 0) {
            return Search.MATE - a.mateIn();
        }
        if (a.mateIn() < 0) {
            return -Search.MATE - a.mateIn();
        }
        return a.scoreCp();
    }
}
