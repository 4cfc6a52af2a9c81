package koma.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.flywaydb.core.Flyway;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * The games in a SQL database (SQLite or PostgreSQL) through a HikariCP pool; the schema is migrated with
 * Flyway at start. Every write that changes a game is one transaction, committed before the API answers.
 */
final class Database implements AutoCloseable {
    private final HikariDataSource pool;
    final boolean sqlite;

    Database(String jdbcUrl) {
        sqlite = jdbcUrl.startsWith("jdbc:sqlite:");
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(jdbcUrl);
        cfg.setPoolName("koma-db");
        if (sqlite) {
            createParent(jdbcUrl.substring("jdbc:sqlite:".length()));
            // one connection: SQLite has one writer anyway, and this way no request waits on SQLITE_BUSY
            cfg.setMaximumPoolSize(1);
            cfg.addDataSourceProperty("journal_mode", "WAL");
            cfg.addDataSourceProperty("synchronous", "NORMAL");
            cfg.addDataSourceProperty("busy_timeout", "10000");
            cfg.addDataSourceProperty("foreign_keys", "true");
        } else {
            cfg.setMaximumPoolSize(8);
        }
        pool = new HikariDataSource(cfg);
        Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate();
    }

    private static void createParent(String file) {
        int q = file.indexOf('?');
        String path = q >= 0 ? file.substring(0, q) : file;
        if (path.isEmpty() || path.startsWith(":memory:") || path.startsWith("file:")) {
            return;
        }
        Path parent = Path.of(path).toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--data: cannot create " + parent + ": " + e.getMessage(), e);
        }
    }

    DataSource dataSource() {
        return pool;
    }

    /** Inserts a new game with its initial moves (a game started from a record). */
    void insert(LiveGame g, long now) {
        inTransaction(c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO games (id, variant, mode, status, initial_fen,"
                    + " first_player, second_player, first_token, second_token, clock_type, clock_initial_ms,"
                    + " clock_increment_ms, clock_byoyomi_ms, clock_periods, first_ms, second_ms, first_periods,"
                    + " second_periods, turn_started_at, ply, draw_offer, result_winner, result_termination,"
                    + " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                Clock k = g.clock;
                st.setString(1, g.id);
                st.setString(2, g.rules.id);
                st.setString(3, g.mode.name().toLowerCase());
                st.setString(4, g.status);
                st.setString(5, g.initialFen);
                st.setString(6, g.players[0]);
                st.setString(7, g.players[1]);
                st.setString(8, g.tokens[0]);
                st.setString(9, g.tokens[1]);
                st.setString(10, k.type.name().toLowerCase());
                st.setLong(11, k.initialMs);
                st.setLong(12, k.incrementMs);
                st.setLong(13, k.byoyomiMs);
                st.setInt(14, k.periods);
                st.setLong(15, k.ms[0]);
                st.setLong(16, k.ms[1]);
                st.setInt(17, k.periodsLeft[0]);
                st.setInt(18, k.periodsLeft[1]);
                setNullableLong(st, 19, k.turnStartedAt);
                st.setInt(20, g.ply());
                st.setString(21, LiveGame.side(g.drawOffer));
                st.setString(22, winner(g));
                st.setString(23, g.resultTermination);
                st.setLong(24, g.createdAt);
                st.setLong(25, now);
                st.executeUpdate();
            }
            for (int i = 0; i < g.moves.size(); i++) {
                insertMove(c, g.id, i + 1, g.moves.get(i), now);
            }
        });
    }

    /** Stores a move (ply numbered from 1) and the game's new state in one transaction. */
    void saveMove(LiveGame g, int ply, String move, long now) {
        inTransaction(c -> {
            insertMove(c, g.id, ply, move, now);
            update(c, g, now);
        });
    }

    /** Stores the game's state (seats, clocks, offer, result). */
    void save(LiveGame g, long now) {
        inTransaction(c -> update(c, g, now));
    }

    private static void insertMove(Connection c, String id, int ply, String move, long now) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "INSERT INTO moves (game_id, ply, move, played_at) VALUES (?,?,?,?)")) {
            st.setString(1, id);
            st.setInt(2, ply);
            st.setString(3, move);
            st.setLong(4, now);
            st.executeUpdate();
        }
    }

    private static void update(Connection c, LiveGame g, long now) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("UPDATE games SET status = ?, first_token = ?, second_token = ?,"
                + " first_ms = ?, second_ms = ?, first_periods = ?, second_periods = ?, turn_started_at = ?, ply = ?,"
                + " draw_offer = ?, result_winner = ?, result_termination = ?, updated_at = ? WHERE id = ?")) {
            Clock k = g.clock;
            st.setString(1, g.status);
            st.setString(2, g.tokens[0]);
            st.setString(3, g.tokens[1]);
            st.setLong(4, k.ms[0]);
            st.setLong(5, k.ms[1]);
            st.setInt(6, k.periodsLeft[0]);
            st.setInt(7, k.periodsLeft[1]);
            setNullableLong(st, 8, k.turnStartedAt);
            st.setInt(9, g.ply());
            st.setString(10, LiveGame.side(g.drawOffer));
            st.setString(11, winner(g));
            st.setString(12, g.resultTermination);
            st.setLong(13, now);
            st.setString(14, g.id);
            if (st.executeUpdate() != 1) {
                throw new SQLException("game " + g.id + " is not in the database");
            }
        }
    }

    private static String winner(LiveGame g) {
        if (g.resultTermination == null) {
            return null;
        }
        return g.resultWinner < 0 ? "draw" : LiveGame.side(g.resultWinner);
    }

    private static void setNullableLong(PreparedStatement st, int i, long v) throws SQLException {
        if (v == 0) {
            st.setNull(i, Types.BIGINT);
        } else {
            st.setLong(i, v);
        }
    }

    /** The ids of every game not finished, for resuming them after a restart. */
    List<String> unfinished() {
        List<String> ids = new ArrayList<>();
        query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT id FROM games WHERE status <> 'finished'");
                 ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        });
        return ids;
    }

    /** Loads a game and replays its moves through the rules core; null when there is no such game. */
    LiveGame load(String id) {
        LiveGame[] out = new LiveGame[1];
        query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT * FROM games WHERE id = ?")) {
                st.setString(1, id);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return;
                    }
                    RuleSet rules = RuleSet.of(rs.getString("variant"));
                    Position start = Fen.parse(rules, rs.getString("initial_fen"));
                    Clock k = new Clock(Clock.Type.valueOf(rs.getString("clock_type").toUpperCase()),
                            rs.getLong("clock_initial_ms"), rs.getLong("clock_increment_ms"),
                            rs.getLong("clock_byoyomi_ms"), rs.getInt("clock_periods"));
                    k.ms[0] = rs.getLong("first_ms");
                    k.ms[1] = rs.getLong("second_ms");
                    k.periodsLeft[0] = rs.getInt("first_periods");
                    k.periodsLeft[1] = rs.getInt("second_periods");
                    k.turnStartedAt = rs.getLong("turn_started_at");
                    LiveGame g = new LiveGame(id, rules, LiveGame.Mode.valueOf(rs.getString("mode").toUpperCase()),
                            start, k, rs.getLong("created_at"));
                    g.status = rs.getString("status");
                    g.players[0] = rs.getString("first_player");
                    g.players[1] = rs.getString("second_player");
                    g.tokens[0] = rs.getString("first_token");
                    g.tokens[1] = rs.getString("second_token");
                    String offer = rs.getString("draw_offer");
                    g.drawOffer = offer == null ? -1 : offer.equals("first") ? 0 : 1;
                    String winner = rs.getString("result_winner");
                    g.resultTermination = rs.getString("result_termination");
                    if (g.resultTermination != null) {
                        g.resultWinner = winner.equals("draw") ? -1 : winner.equals("first") ? 0 : 1;
                    }
                    out[0] = g;
                }
            }
            try (PreparedStatement st = c.prepareStatement("SELECT move FROM moves WHERE game_id = ? ORDER BY ply")) {
                st.setString(1, id);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out[0].playOnBoard(rs.getString(1));
                    }
                }
            }
        });
        return out[0];
    }

    /** Work on a connection that may throw SQLException. */
    private interface Work {
        void run(Connection c) throws SQLException;
    }

    private void inTransaction(Work w) {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try {
                w.run(c);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("database: " + e.getMessage(), e);
        }
    }

    private void query(Work w) {
        try (Connection c = pool.getConnection()) {
            w.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("database: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
