package koma.server;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.RuleSet;

/**
 * What the profile pages read (docs/server-api.md, "Profiles"): an account's ratings per rule set, its rating
 * history, and its games, filtered by rule set and result and paginated; and short summaries of games by id for a
 * guest's "my games". Read-only queries on the pooled connections.
 */
final class History {
    /** Games per page of a player's history, and ids per summaries request. */
    static final int PAGE = 20, MAX_IDS = 100;
    /** Points of a rating-history chart at most (the most recent). */
    static final int MAX_POINTS = 1_000;

    private final Database db;

    History(Database db) {
        this.db = db;
    }

    /** The account's ratings, one per rule set it has played rated. */
    List<Map<String, Object>> ratings(String userId) {
        List<Map<String, Object>> out = new ArrayList<>();
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT variant, rating, deviation, games FROM ratings"
                    + " WHERE user_id = ? ORDER BY games DESC, variant")) {
                st.setString(1, userId);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("variant", rs.getString(1));
                        m.put("rating", (int) Math.round(rs.getDouble(2)));
                        m.put("deviation", (int) Math.round(rs.getDouble(3)));
                        m.put("provisional", rs.getDouble(3) > Glicko2.PROVISIONAL_RD);
                        m.put("games", rs.getInt(4));
                        out.add(m);
                    }
                }
            }
        });
        return out;
    }

    /** The rating after each rated game in a rule set, oldest first: {@code {"at", "rating", "game"}}. */
    List<Map<String, Object>> ratingHistory(String userId, String variant) {
        List<Map<String, Object>> out = new ArrayList<>();
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT at, rating_after, game_id FROM rating_history"
                    + " WHERE user_id = ? AND variant = ? ORDER BY at DESC")) {
                st.setString(1, userId);
                st.setString(2, variant);
                st.setMaxRows(MAX_POINTS);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("at", rs.getLong(1));
                        m.put("rating", (int) Math.round(rs.getDouble(2)));
                        m.put("game", rs.getString(3));
                        out.add(0, m);
                    }
                }
            }
        });
        return out;
    }

    /**
     * A page of the account's games, newest first. {@code variant} null for all; {@code result} null, "win", "loss"
     * or "draw" (from the account's side).
     */
    Map<String, Object> games(String userId, String variant, String result, int page) {
        if (variant != null && !RuleSet.IDS.contains(variant)) {
            throw GameError.invalid("variant: unknown rule set '" + variant + "'; known: " + String.join(", ", RuleSet.IDS));
        }
        if (result != null && !List.of("win", "loss", "draw").contains(result)) {
            throw GameError.invalid("result: must be win, loss or draw, got '" + result + "'");
        }
        StringBuilder where = new StringBuilder("(g.first_user = ? OR g.second_user = ?)");
        List<String> args = new ArrayList<>(List.of(userId, userId));
        if (variant != null) {
            where.append(" AND g.variant = ?");
            args.add(variant);
        }
        if (result != null) {
            switch (result) {
                case "win" -> where.append(" AND ((g.first_user = ? AND g.result_winner = 'first') OR (g.second_user = ?"
                        + " AND g.result_winner = 'second'))");
                case "loss" -> where.append(" AND ((g.first_user = ? AND g.result_winner = 'second') OR (g.second_user = ?"
                        + " AND g.result_winner = 'first'))");
                default -> where.append(" AND g.result_winner = 'draw' AND (g.first_user = ? OR g.second_user = ?)");
            }
            args.add(userId);
            args.add(userId);
        }
        List<Map<String, Object>> games = new ArrayList<>();
        int[] total = {0};
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM games g WHERE " + where)) {
                for (int i = 0; i < args.size(); i++) {
                    st.setString(i + 1, args.get(i));
                }
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    total[0] = rs.getInt(1);
                }
            }
            try (PreparedStatement st = c.prepareStatement("SELECT " + SUMMARY_COLUMNS
                    + ", h.rating_before, h.rating_after FROM " + SUMMARY_TABLES
                    + " LEFT JOIN rating_history h ON h.game_id = g.id AND h.user_id = ?"
                    + " WHERE " + where + " ORDER BY g.created_at DESC, g.id LIMIT " + PAGE + " OFFSET " + (long) page * PAGE)) {
                st.setString(1, userId);
                for (int i = 0; i < args.size(); i++) {
                    st.setString(i + 2, args.get(i));
                }
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        int side = userId.equals(rs.getString(6)) ? 0 : 1;
                        Map<String, Object> m = summary(rs);
                        m.put("color", LiveGame.side(side));
                        m.put("outcome", outcome(rs.getString(10), side));
                        double before = rs.getDouble(16);
                        if (!rs.wasNull()) {
                            m.put("ratingDiff", (int) (Math.round(rs.getDouble(17)) - Math.round(before)));
                        }
                        games.add(m);
                    }
                }
            }
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("games", games);
        out.put("page", page);
        out.put("pages", Math.max(1, (total[0] + PAGE - 1) / PAGE));
        out.put("total", total[0]);
        return out;
    }

    /** Short summaries of the games with these ids that exist (a guest's "my games"), newest first. */
    List<Map<String, Object>> summaries(List<String> ids) {
        if (ids.size() > MAX_IDS) {
            throw GameError.invalid("ids: " + MAX_IDS + " at most");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        if (ids.isEmpty()) {
            return out;
        }
        db.query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT " + SUMMARY_COLUMNS + " FROM " + SUMMARY_TABLES
                    + " WHERE g.id IN (" + "?,".repeat(ids.size() - 1) + "?) ORDER BY g.created_at DESC")) {
                for (int i = 0; i < ids.size(); i++) {
                    st.setString(i + 1, ids.get(i));
                }
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(summary(rs));
                    }
                }
            }
        });
        return out;
    }

    /** The columns a game summary is read from, in the order {@link #summary(ResultSet)} reads them. */
    private static final String SUMMARY_COLUMNS = "g.id, g.variant, g.mode, g.status, g.rated, g.first_user,"
            + " g.second_user, g.first_player, g.second_player, g.result_winner, g.result_termination, g.ply,"
            + " g.created_at, u1.name, u2.name";
    /** The games with their players' account names, as {@link #SUMMARY_COLUMNS} names them. */
    private static final String SUMMARY_TABLES = "games g LEFT JOIN users u1 ON u1.id = g.first_user"
            + " LEFT JOIN users u2 ON u2.id = g.second_user";

    /** A game's summary from the current row of a query that starts with {@link #SUMMARY_COLUMNS}. */
    private static Map<String, Object> summary(ResultSet rs) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", rs.getString(1));
        m.put("variant", rs.getString(2));
        m.put("mode", rs.getString(3));
        m.put("status", rs.getString(4));
        m.put("rated", rs.getInt(5) == 1);
        List<Map<String, Object>> sides = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("player", rs.getString(8 + i));
            p.put("account", rs.getString(6 + i) != null);
            p.put("name", rs.getString(14 + i));
            sides.add(p);
        }
        m.put("sides", sides);
        m.put("winner", rs.getString(10));
        m.put("termination", rs.getString(11));
        m.put("ply", rs.getInt(12));
        m.put("createdAt", rs.getLong(13));
        return m;
    }

    private static String outcome(String winner, int side) {
        if (winner == null) {
            return null;
        }
        return switch (winner) {
            case "draw" -> "draw";
            case "none" -> "none";
            default -> winner.equals(LiveGame.side(side)) ? "win" : "loss";
        };
    }
}
