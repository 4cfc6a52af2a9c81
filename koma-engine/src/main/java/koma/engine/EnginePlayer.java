package koma.engine;

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
}
