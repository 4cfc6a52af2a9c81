package koma.server;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import koma.rules.Position;
import koma.rules.notation.MoveNotation;

/**
 * Whole-game analyses of finished games, as lichess's "computer analysis": the engine judges every position of the
 * game, one job per ply at the background priority (below every computer move and every interactive analysis), one
 * ply after another, and each ply's result is stored in {@code game_analysis} as it arrives, so that every viewer
 * reads the same and nothing is computed twice. At most {@link #MAX_RUNNING} games are analysed at once; a request
 * beyond that is refused with a retry time.
 */
final class GameAnalyses {
    private static final Logger LOG = LoggerFactory.getLogger(GameAnalyses.class);
    /** Think time per position (ms) and the depth cap. */
    static final long PLY_MS = 300;
    static final int PLY_DEPTH = 64;
    /** Games analysed at once at most. */
    static final int MAX_RUNNING = 4;

    private final Database db;
    private final EngineQueue engines;
    /** The games being analysed (bounded by MAX_RUNNING). */
    private final Map<String, Boolean> running = new ConcurrentHashMap<>();

    GameAnalyses(Database db, EngineQueue engines) {
        this.db = db;
        this.engines = engines;
    }

    /**
     * Starts the analysis of a finished game unless it is complete or running; answers its state as
     * {@link #state} does. A game still being played is refused: the engine's help is for after the game.
     */
    Map<String, Object> request(GameSnapshot s) {
        if (!s.finished()) {
            throw GameError.conflict("analysis: the game is still being played; ask again when it is over");
        }
        List<Map<String, Object>> stored = stored(s);
        int total = s.ply() + 1;
        if (stored.size() < total && !running.containsKey(s.id())) {
            if (running.size() >= MAX_RUNNING) {
                throw new GameError(GameError.Kind.UNAVAILABLE, "analysis: " + MAX_RUNNING
                        + " games are being analysed, the limit; try again shortly", 10);
            }
            if (running.putIfAbsent(s.id(), Boolean.TRUE) == null) {
                next(s, stored.size());
            }
        }
        return state(s);
    }

    /** {@code {"status": "none" | "running" | "done", "total": plies + 1, "plies": [...]}} with the stored plies. */
    Map<String, Object> state(GameSnapshot s) {
        List<Map<String, Object>> plies = stored(s);
        int total = s.ply() + 1;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", plies.size() >= total ? "done" : running.containsKey(s.id()) ? "running" : "none");
        out.put("total", total);
        out.put("plies", plies);
        return out;
    }

    /** Queues the job of one ply; its end stores it and queues the next, until the last position. */
    private void next(GameSnapshot s, int ply) {
        if (ply > s.ply()) {
            running.remove(s.id());
            return;
        }
        Position p = s.positionAt(ply);
        if (!p.hasLegalMove()) {
            // the game's end with no move (mate, or stalemate: a loss or a draw as the rule set says): the result
            // tells which; a lost side to move is "mate 0", a draw 0 centipawns
            boolean lost = s.winner() == (p.sideToMove() ^ 1);
            store(s.id(), ply, 0, lost ? null : 0, lost ? 0 : null, null);
            next(s, ply + 1);
            return;
        }
        EngineJob job = EngineJob.analysis(s.rules().id, s.initialFen(), s.moves().subList(0, ply), PLY_MS, PLY_DEPTH, 1);
        try {
            engines.submit(job, EngineQueue.Priority.BACKGROUND, "game-analysis:" + s.id()).whenComplete((r, failure) -> {
                if (failure != null || r.lines().isEmpty()) {
                    LOG.warn("analysis of game {} stopped at ply {}: {}", s.id(), ply, failure == null ? "no line" : failure.toString());
                    running.remove(s.id());
                    return;
                }
                EngineResult.Line line = r.lines().get(0);
                store(s.id(), ply, line.depth(), line.cp(), line.mate(), line.pv().isEmpty() ? null : line.pv().get(0));
                next(s, ply + 1);
            });
        } catch (GameError e) {
            LOG.warn("analysis of game {} not queued at ply {}: {}", s.id(), ply, e.getMessage());
            running.remove(s.id());
        }
    }

    private void store(String gameId, int ply, int depth, Integer cp, Integer mate, String best) {
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "DELETE FROM game_analysis WHERE game_id = ? AND ply = ?")) {
                st.setString(1, gameId);
                st.setInt(2, ply);
                st.executeUpdate();
            }
            try (PreparedStatement st = c.prepareStatement(
                    "INSERT INTO game_analysis (game_id, ply, depth, score_cp, mate, best) VALUES (?, ?, ?, ?, ?, ?)")) {
                st.setString(1, gameId);
                st.setInt(2, ply);
                st.setInt(3, depth);
                st.setObject(4, mate == null ? cp : null, java.sql.Types.INTEGER);
                st.setObject(5, mate, java.sql.Types.INTEGER);
                st.setString(6, best);
                st.executeUpdate();
            }
        });
    }

    /** The stored plies in order: {@code ply, depth, score {cp}|{mate}, best, bestText}. */
    private List<Map<String, Object>> stored(GameSnapshot s) {
        List<Map<String, Object>> out = new ArrayList<>();
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT ply, depth, score_cp, mate, best FROM game_analysis"
                    + " WHERE game_id = ? ORDER BY ply")) {
                st.setString(1, s.id());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        int ply = rs.getInt(1);
                        if (ply > s.ply()) {
                            continue;
                        }
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("ply", ply);
                        e.put("depth", rs.getInt(2));
                        int cp = rs.getInt(3);
                        boolean hasCp = !rs.wasNull();
                        int mate = rs.getInt(4);
                        e.put("score", hasCp ? Map.of("cp", cp) : Map.of("mate", mate));
                        String best = rs.getString(5);
                        e.put("best", best);
                        e.put("bestText", best == null ? null : readable(s.positionAt(ply), best));
                        out.add(e);
                    }
                }
            }
        });
        // only a gapless run from ply 0 counts (plies are stored in order)
        int n = 0;
        while (n < out.size() && (int) out.get(n).get("ply") == n) {
            n++;
        }
        return n == out.size() ? out : new ArrayList<>(out.subList(0, n));
    }

    private static String readable(Position p, String move) {
        try {
            List<String> t = GameView.readable(p, new int[]{MoveNotation.parseUci(p, move)});
            return t.isEmpty() ? move : t.get(0);
        } catch (IllegalArgumentException e) {
            return move;
        }
    }
}
