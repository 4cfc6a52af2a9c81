package koma.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.flywaydb.core.Flyway;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * The games in a SQL database (SQLite or PostgreSQL) through a HikariCP pool; the schema is migrated with Flyway
 * at start. Writes come only from the {@link GameWriter}, many changes in one transaction ({@link #write});
 * SQLite runs in WAL mode with {@code synchronous=FULL} (a committed move survives a power cut), PostgreSQL with
 * {@code synchronous_commit} on. Reads (loading a game, the sweeps) use the other connections.
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
            // the writer's connection and readers: WAL lets readers run beside the one writer
            cfg.setMaximumPoolSize(4);
            cfg.addDataSourceProperty("journal_mode", "WAL");
            cfg.addDataSourceProperty("synchronous", "FULL");
            cfg.addDataSourceProperty("busy_timeout", "10000");
            cfg.addDataSourceProperty("foreign_keys", "true");
        } else {
            cfg.setMaximumPoolSize(8);
            cfg.setConnectionInitSql("SET synchronous_commit = on");
        }
        pool = new HikariDataSource(cfg);
        Flyway.configure().dataSource(pool).locations("classpath:db/migration").load().migrate();
        if (sqlite) {
            checkpointer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "koma-checkpoint");
                t.setDaemon(true);
                return t;
            });
            checkpointer.scheduleWithFixedDelay(this::checkpoint, CHECKPOINT_MS, CHECKPOINT_MS,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
        } else {
            checkpointer = null;
        }
    }

    /** How often the SQLite write-ahead log is copied into the database file, ms. */
    private static final long CHECKPOINT_MS = 1_000;
    private final java.util.concurrent.ScheduledExecutorService checkpointer;

    /**
     * Copies the SQLite write-ahead log into the database file on this thread, not the writer's: left to SQLite, the
     * commit that fills the log runs the checkpoint and its fsyncs, and every request waiting for that commit waits
     * too (stalls of 100-250 ms at 1,000 moves/s). PASSIVE never blocks the writer.
     */
    private void checkpoint() {
        try (Connection c = pool.getConnection(); java.sql.Statement st = c.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(PASSIVE)");
        } catch (SQLException | RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(Database.class).warn("checkpoint failed: {}", e.getMessage());
        }
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

    /** One write of the writer: a change, and whether it created the game (insert instead of update). */
    record Write(LiveGame.Change change, boolean created) {
    }

    /**
     * Commits writes in one transaction, in order: new games with their moves, moves, then each game's row once
     * with its latest state, and the heartbeat when {@code aliveAt > 0}. Only the writer thread calls this: it
     * keeps one connection with its statements prepared once; after a failure they are made anew.
     */
    void write(List<Write> writes, long aliveAt) {
        try {
            WriterSession w = writer();
            try {
                w.write(writes, aliveAt);
            } catch (SQLException | RuntimeException e) {
                closeWriter();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("database: " + e.getMessage(), e);
        }
    }

    private WriterSession writerSession;

    private WriterSession writer() throws SQLException {
        if (writerSession == null) {
            writerSession = new WriterSession(pool.getConnection(), sqlite);
        }
        return writerSession;
    }

    private void closeWriter() {
        if (writerSession != null) {
            writerSession.close();
            writerSession = null;
        }
    }

    /** The writer's connection and its prepared statements. */
    private static final class WriterSession implements AutoCloseable {
        final Connection c;
        final PreparedStatement insertGame, insertMove, updateGame, beat, deleteMoves, insertChat, updateActions;

        WriterSession(Connection c, boolean sqlite) throws SQLException {
            this.c = c;
            if (sqlite) {
                try (java.sql.Statement st = c.createStatement()) {
                    st.execute("PRAGMA wal_autocheckpoint = 0"); // the checkpointer thread does it
                }
            }
            c.setAutoCommit(false);
            insertGame = c.prepareStatement(INSERT_GAME);
            insertMove = c.prepareStatement("INSERT INTO moves (game_id, ply, move, played_at) VALUES (?,?,?,?)");
            updateGame = c.prepareStatement(UPDATE_GAME);
            beat = c.prepareStatement("UPDATE server_state SET alive_at = ? WHERE id = 1");
            deleteMoves = c.prepareStatement("DELETE FROM moves WHERE game_id = ? AND ply > ?");
            insertChat = c.prepareStatement("INSERT INTO chat (game_id, version, room, sender, text, sent_at)"
                    + " VALUES (?,?,?,?,?,?)");
            updateActions = c.prepareStatement(UPDATE_ACTIONS);
        }

        /** Runs the batched game and move inserts now (before a takeback deletes moves, in order). */
        private int[] flush(int inserts, int moves) throws SQLException {
            if (inserts > 0) {
                insertGame.executeBatch();
            }
            if (moves > 0) {
                insertMove.executeBatch();
            }
            return new int[]{0, 0};
        }

        void write(List<Write> writes, long aliveAt) throws SQLException {
            try {
                Map<String, GameSnapshot> latest = new LinkedHashMap<>();
                java.util.Set<String> actions = new java.util.LinkedHashSet<>();
                int inserts = 0, moves = 0, chats = 0;
                for (Write w : writes) {
                    GameSnapshot s = w.change().snapshot();
                    latest.put(s.id(), s);
                    if (w.created() || touchesActions(w.change())) {
                        actions.add(s.id());
                    }
                    LiveGame.ChatLine line = w.change().chat();
                    if (line != null) {
                        bindChat(insertChat, s.id(), line);
                        insertChat.addBatch();
                        chats++;
                    }
                    if (w.change().truncateTo() >= 0) {
                        // a takeback: the moves stored so far in this batch first, then the taken back ones go
                        int[] none = flush(inserts, moves);
                        inserts = none[0];
                        moves = none[1];
                        deleteMoves.setString(1, s.id());
                        deleteMoves.setInt(2, w.change().truncateTo());
                        deleteMoves.executeUpdate();
                    }
                    if (w.created()) {
                        bindGame(insertGame, s);
                        insertGame.addBatch();
                        inserts++;
                        List<String> ms = s.moves();
                        for (int i = 0; i < ms.size(); i++) {
                            bindMove(insertMove, s.id(), i + 1, ms.get(i), s.createdAt());
                            insertMove.addBatch();
                            moves++;
                        }
                    } else {
                        if (w.change().move() != null) {
                            bindMove(insertMove, s.id(), w.change().ply(), w.change().move(), w.change().at());
                            insertMove.addBatch();
                            moves++;
                        }
                    }
                }
                flush(inserts, moves);
                if (chats > 0) {
                    insertChat.executeBatch();
                }
                Map<String, GameSnapshot> updates = new LinkedHashMap<>();
                for (Write w : writes) {
                    if (!w.created()) {
                        updates.put(w.change().snapshot().id(), latest.get(w.change().snapshot().id()));
                    }
                }
                for (String id : actions) {
                    bindActions(updateActions, latest.get(id));
                    updateActions.addBatch();
                }
                if (!actions.isEmpty()) {
                    updateActions.executeBatch();
                }
                latest = updates;
                for (GameSnapshot s : latest.values()) {
                    bindUpdate(updateGame, s);
                    updateGame.addBatch();
                }
                if (!latest.isEmpty()) {
                    int[] counts = updateGame.executeBatch();
                    int i = 0;
                    for (GameSnapshot s : latest.values()) {
                        if (counts[i++] == 0) {
                            throw new SQLException("game " + s.id() + " is not in the database");
                        }
                    }
                }
                for (Write w : writes) {
                    if (endsRated(w.change())) {
                        rate(c, w.change());
                    }
                }
                if (aliveAt > 0) {
                    beat.setLong(1, aliveAt);
                    if (beat.executeUpdate() == 0) {
                        try (PreparedStatement ins = c.prepareStatement("INSERT INTO server_state (id, alive_at) VALUES (1, ?)")) {
                            ins.setLong(1, aliveAt);
                            ins.executeUpdate();
                        }
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is closed next anyway
                }
                throw e;
            }
        }

        /** True for the change that ended a rated game with a result (an aborted game is not rated). */
        private static boolean endsRated(LiveGame.Change ch) {
            GameSnapshot s = ch.snapshot();
            if (!s.rated() || !s.finished() || s.winner() == LiveGame.NO_RESULT) {
                return false;
            }
            for (GameEvent e : ch.events()) {
                if (e.type.equals("status")) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Both players' new Glicko-2 ratings in the game's rule set, in the transaction that stores the result: the
         * writer is the only thread that changes ratings, so two games ending at once cannot lose an update.
         */
        private void rate(Connection c, LiveGame.Change ch) throws SQLException {
            GameSnapshot s = ch.snapshot();
            String variant = s.rules().id;
            String[] users = {s.accounts().get(0).userId(), s.accounts().get(1).userId()};
            Glicko2.Rating[] before = {Accounts.rating(c, users[0], variant), Accounts.rating(c, users[1], variant)};
            double score = s.winner() == 0 ? 1 : s.winner() == 1 ? 0 : 0.5;
            Glicko2.Rating[] after = Glicko2.game(before[0], before[1], score);
            int[] diffs = new int[2];
            for (int side = 0; side < 2; side++) {
                try (PreparedStatement st = c.prepareStatement("INSERT INTO ratings (user_id, variant, rating, deviation,"
                        + " volatility, games, updated_at) VALUES (?,?,?,?,?,1,?) ON CONFLICT (user_id, variant) DO UPDATE"
                        + " SET rating = excluded.rating, deviation = excluded.deviation,"
                        + " volatility = excluded.volatility, games = ratings.games + 1, updated_at = excluded.updated_at")) {
                    st.setString(1, users[side]);
                    st.setString(2, variant);
                    st.setDouble(3, after[side].rating());
                    st.setDouble(4, after[side].deviation());
                    st.setDouble(5, after[side].volatility());
                    st.setLong(6, ch.at());
                    st.executeUpdate();
                }
                try (PreparedStatement st = c.prepareStatement("INSERT INTO rating_history (game_id, user_id, variant,"
                        + " rating_before, rating_after, deviation_after, at) VALUES (?,?,?,?,?,?,?)")) {
                    st.setString(1, s.id());
                    st.setString(2, users[side]);
                    st.setString(3, variant);
                    st.setDouble(4, before[side].rating());
                    st.setDouble(5, after[side].rating());
                    st.setDouble(6, after[side].deviation());
                    st.setLong(7, ch.at());
                    st.executeUpdate();
                }
                diffs[side] = (int) (Math.round(after[side].rating()) - Math.round(before[side].rating()));
            }
            ch.game().ratingDiffs = diffs;
        }

        @Override
        public void close() {
            for (AutoCloseable a : new AutoCloseable[]{insertGame, insertMove, updateGame, beat, deleteMoves, insertChat,
                    updateActions, c}) {
                try {
                    a.close();
                } catch (Exception ignored) {
                    // closing after a failure: nothing more to do
                }
            }
        }
    }

    private static final String INSERT_GAME = "INSERT INTO games (id, variant, mode, status, initial_fen,"
            + " first_player, second_player, first_token, second_token, clock_type, clock_initial_ms,"
            + " clock_increment_ms, clock_byoyomi_ms, clock_periods, first_ms, second_ms, first_periods,"
            + " second_periods, turn_started_at, ply, draw_offer, result_winner, result_termination,"
            + " created_at, updated_at, version, first_user, second_user, rated)"
            + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private static final String UPDATE_GAME = "UPDATE games SET status = ?, first_token = ?, second_token = ?,"
            + " first_ms = ?, second_ms = ?, first_periods = ?, second_periods = ?, turn_started_at = ?, ply = ?,"
            + " draw_offer = ?, result_winner = ?, result_termination = ?, updated_at = ?, version = ?,"
            + " first_user = ?, second_user = ? WHERE id = ?";

    /**
     * The in-game actions' columns (V4) and the start position's side to move, written when a game is created and
     * by the changes that may alter them ({@link #touchesActions}), not by every move.
     */
    private static final String UPDATE_ACTIONS = "UPDATE games SET takeback_offer = ?, takebacks_refused_first = ?,"
            + " takebacks_refused_second = ?, rematch_offer = ?, rematch_id = ?, start_side = ? WHERE id = ?";

    /** Event types after which the actions' columns may differ from the stored ones (a game's end clears offers). */
    private static final java.util.Set<String> ACTION_EVENTS = java.util.Set.of("takebackOffer", "takeback",
            "rematchOffer", "rematch", "status");

    private static boolean touchesActions(LiveGame.Change c) {
        for (GameEvent e : c.events()) {
            if (ACTION_EVENTS.contains(e.type)) {
                return true;
            }
        }
        return false;
    }

    private static void bindActions(PreparedStatement st, GameSnapshot s) throws SQLException {
        GameSnapshot.Actions a = s.actions();
        st.setString(1, LiveGame.side(a.takebackOffer()));
        st.setInt(2, a.refusedFirst());
        st.setInt(3, a.refusedSecond());
        st.setString(4, a.rematchOffer() == GameSnapshot.Actions.REMATCH_DECLINED ? "declined" : LiveGame.side(a.rematchOffer()));
        st.setString(5, a.rematchId());
        st.setString(6, LiveGame.side(s.start().sideToMove()));
        st.setString(7, s.id());
    }

    private static void bindChat(PreparedStatement st, String id, LiveGame.ChatLine m) throws SQLException {
        st.setString(1, id);
        st.setInt(2, m.version());
        st.setString(3, m.room());
        st.setString(4, m.sender());
        st.setString(5, m.text());
        st.setLong(6, m.at());
    }

    private static void bindGame(PreparedStatement st, GameSnapshot s) throws SQLException {
        Clock k = s.clock();
        st.setString(1, s.id());
        st.setString(2, s.rules().id);
        st.setString(3, s.mode().name().toLowerCase());
        st.setString(4, s.status());
        st.setString(5, s.initialFen());
        st.setString(6, s.players().get(0));
        st.setString(7, s.players().get(1));
        st.setString(8, s.tokens().get(0));
        st.setString(9, s.tokens().get(1));
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
        st.setInt(20, s.ply());
        st.setString(21, LiveGame.side(s.drawOffer()));
        st.setString(22, winner(s));
        st.setString(23, s.termination());
        st.setLong(24, s.createdAt());
        st.setLong(25, s.updatedAt());
        st.setInt(26, s.version());
        st.setString(27, userId(s, 0));
        st.setString(28, userId(s, 1));
        st.setInt(29, s.rated() ? 1 : 0);
    }

    private static String userId(GameSnapshot s, int side) {
        PlayerAccount a = s.accounts().get(side);
        return a == null ? null : a.userId();
    }

    private static void bindUpdate(PreparedStatement st, GameSnapshot s) throws SQLException {
        Clock k = s.clock();
        st.setString(1, s.status());
        st.setString(2, s.tokens().get(0));
        st.setString(3, s.tokens().get(1));
        st.setLong(4, k.ms[0]);
        st.setLong(5, k.ms[1]);
        st.setInt(6, k.periodsLeft[0]);
        st.setInt(7, k.periodsLeft[1]);
        setNullableLong(st, 8, k.turnStartedAt);
        st.setInt(9, s.ply());
        st.setString(10, LiveGame.side(s.drawOffer()));
        st.setString(11, winner(s));
        st.setString(12, s.termination());
        st.setLong(13, s.updatedAt());
        st.setInt(14, s.version());
        st.setString(15, userId(s, 0));
        st.setString(16, userId(s, 1));
        st.setString(17, s.id());
    }

    private static void bindMove(PreparedStatement st, String id, int ply, String move, long at) throws SQLException {
        st.setString(1, id);
        st.setInt(2, ply);
        st.setString(3, move);
        st.setLong(4, at);
    }

    /** The stored winner: first, second, draw, or none (aborted); null while playing. */
    private static String winner(GameSnapshot s) {
        if (s.termination() == null) {
            return null;
        }
        return s.winner() == LiveGame.NO_RESULT ? "none" : s.winner() < 0 ? "draw" : LiveGame.side(s.winner());
    }

    private static void setNullableLong(PreparedStatement st, int i, long v) throws SQLException {
        if (v == 0) {
            st.setNull(i, Types.BIGINT);
        } else {
            st.setLong(i, v);
        }
    }

    /** The connection pool, for the few parts that keep their own tables (the nodes of a cluster). */
    javax.sql.DataSource dataSource() {
        return pool;
    }

    /** The last time a server on this database was known to run (its heartbeat), or 0. */
    long aliveAt() {
        long[] out = {0};
        query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT alive_at FROM server_state WHERE id = 1");
                 ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    out[0] = rs.getLong(1);
                }
            }
        });
        return out[0];
    }

    /** The ids of the games whose clock runs (the only ones a starting server loads). */
    List<String> running() {
        return ids("SELECT id FROM games WHERE status = 'active' AND turn_started_at IS NOT NULL"
                + " AND clock_type <> 'correspondence'", List.of(), 1_000_000);
    }

    /**
     * Up to {@code limit} ids of correspondence games whose side to move's time for the move ran out before
     * {@code now} (each move has the clock's whole time, {@code clock_initial_ms}): the sweep ends them on time.
     */
    List<String> overdue(long now, int limit) {
        return ids("SELECT id FROM games WHERE clock_type = 'correspondence' AND status = 'active'"
                + " AND turn_started_at IS NOT NULL AND turn_started_at + clock_initial_ms < ?", List.of(now), limit);
    }

    /** A game where it is a seat's turn: its id, rule set, the seat's side, and when its time for the move ends. */
    record Turn(String id, String variant, String side, String clockType, Long deadline) {
    }

    /**
     * The active games, most recently changed first (at most {@code limit}), where it is the turn of a seat held by
     * one of {@code tokenHashes} (SHA-256 hex of seat tokens, at most 1000): for "games where it is my turn".
     */
    List<Turn> myTurn(java.util.Collection<String> tokenHashes, int limit) {
        List<Turn> out = new ArrayList<>();
        if (tokenHashes.isEmpty()) {
            return out;
        }
        if (tokenHashes.size() > 1000) {
            throw new IllegalArgumentException("tokenHashes: at most 1000, got " + tokenHashes.size());
        }
        String marks = String.join(",", java.util.Collections.nCopies(tokenHashes.size(), "?"));
        // the side to move: the start's after an even number of moves, the other after an odd one
        String firstToMove = "((ply + CASE WHEN start_side = 'first' THEN 0 ELSE 1 END) % 2 = 0)";
        String sql = "SELECT id, variant, " + firstToMove + ", clock_type, turn_started_at, clock_initial_ms FROM games"
                + " WHERE status = 'active' AND start_side IS NOT NULL AND ((" + firstToMove + " AND first_token IN ("
                + marks + ")) OR (NOT " + firstToMove + " AND second_token IN (" + marks + "))) ORDER BY updated_at DESC";
        query(c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                int i = 1;
                for (int pass = 0; pass < 2; pass++) {
                    for (String h : tokenHashes) {
                        st.setString(i++, h);
                    }
                }
                st.setMaxRows(limit);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next() && out.size() < limit) {
                        long started = rs.getLong(5);
                        boolean timed = !rs.wasNull() && !"none".equals(rs.getString(4));
                        Long deadline = null;
                        if (timed && "correspondence".equals(rs.getString(4))) {
                            deadline = started + rs.getLong(6);
                        }
                        out.add(new Turn(rs.getString(1), rs.getString(2), rs.getBoolean(3) ? "first" : "second",
                                rs.getString(4), deadline));
                    }
                }
            }
        });
        return out;
    }

    /** The active games an account is seated in, most recently changed first (at most {@code limit}). */
    List<String> playing(String userId, int limit) {
        List<String> out = new ArrayList<>();
        query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT id FROM games WHERE status = 'active'"
                    + " AND (first_user = ? OR second_user = ?) ORDER BY updated_at DESC")) {
                st.setString(1, userId);
                st.setString(2, userId);
                st.setMaxRows(limit);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next() && out.size() < limit) {
                        out.add(rs.getString(1));
                    }
                }
            }
        });
        return out;
    }

    /**
     * Up to {@code limit} ids of games nobody plays: friend games waiting since before {@code waitingBefore}, and
     * active games without a running clock unchanged since before {@code idleBefore}.
     */
    List<String> stale(long waitingBefore, long idleBefore, int limit) {
        return ids("SELECT id FROM games WHERE (status = 'waiting' AND updated_at < ?)"
                + " OR (status = 'active' AND turn_started_at IS NULL AND updated_at < ?)", List.of(waitingBefore, idleBefore), limit);
    }

    /**
     * Runs {@code w} in one transaction on a pooled connection (rolled back when it throws). On SQLite the
     * transaction begins IMMEDIATE, taking the write lock at once: a deferred one that reads and then writes (as
     * {@link Accounts} does) fails at once with SQLITE_BUSY_SNAPSHOT, without the busy wait, when another connection
     * or process (the {@link GameWriter}, {@code koma accounts add}) committed in between. Only here: the pool-wide
     * sqlite-jdbc setting would also make the writer's connection, which stays in manual commit, hold the lock
     * between its commits.
     */
    void transaction(Work w) {
        query(c -> {
            try (java.sql.Statement st = c.createStatement()) {
                if (sqlite) {
                    st.execute("BEGIN IMMEDIATE");
                } else {
                    c.setAutoCommit(false);
                }
                try {
                    w.run(c);
                    if (sqlite) {
                        st.execute("COMMIT");
                    } else {
                        c.commit();
                    }
                } catch (SQLException | RuntimeException | Error e) {
                    // an Error too: on SQLite the connection would go back to the pool with the transaction, and its
                    // write lock, open; on PostgreSQL the return to auto-commit below would commit the half-done work
                    try {
                        if (sqlite) {
                            st.execute("ROLLBACK");
                        } else {
                            c.rollback();
                        }
                    } catch (SQLException r) {
                        e.addSuppressed(r);
                    }
                    throw e;
                } finally {
                    if (!sqlite) {
                        c.setAutoCommit(true);
                    }
                }
            }
        });
    }

    private List<String> ids(String sql, List<Long> args, int limit) {
        List<String> ids = new ArrayList<>();
        query(c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                for (int i = 0; i < args.size(); i++) {
                    st.setLong(i + 1, args.get(i));
                }
                st.setMaxRows(limit);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next() && ids.size() < limit) {
                        ids.add(rs.getString(1));
                    }
                }
            }
        });
        return ids;
    }

    /** A game's stored status, or null when there is no such game. */
    String status(String id) {
        String[] out = {null};
        query(c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT status FROM games WHERE id = ?")) {
                st.setString(1, id);
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        out[0] = rs.getString(1);
                    }
                }
            }
        });
        return out[0];
    }

    /** Reads a game and its moves; null when there is no such game. */
    LiveGame.Stored load(String id) {
        LiveGame.Stored[] out = new LiveGame.Stored[1];
        query(c -> {
            List<String> moves = new ArrayList<>();
            List<Long> playedAt = new ArrayList<>();
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT move, played_at FROM moves WHERE game_id = ? ORDER BY ply")) {
                st.setString(1, id);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        moves.add(rs.getString(1));
                        playedAt.add(rs.getLong(2));
                    }
                }
            }
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
                    String offer = rs.getString("draw_offer");
                    String winner = rs.getString("result_winner");
                    String termination = rs.getString("result_termination");
                    Integer w = termination == null ? null : switch (winner) {
                        case "draw" -> -1;
                        case "first" -> 0;
                        case "second" -> 1;
                        default -> LiveGame.NO_RESULT;
                    };
                    String rematch = rs.getString("rematch_offer");
                    String takeback = rs.getString("takeback_offer");
                    GameSnapshot.Actions actions = new GameSnapshot.Actions(
                            takeback == null ? -1 : takeback.equals("first") ? 0 : 1,
                            rs.getInt("takebacks_refused_first"), rs.getInt("takebacks_refused_second"),
                            rematch == null ? -1 : rematch.equals("declined") ? GameSnapshot.Actions.REMATCH_DECLINED
                                    : rematch.equals("first") ? 0 : 1,
                            rs.getString("rematch_id"), chat(c, id, "players"), chat(c, id, "spectators"));
                    if (moves.size() != rs.getInt("ply")) {
                        throw new SQLException("game " + id + " has " + moves.size() + " moves stored but ply "
                                + rs.getInt("ply"));
                    }
                    out[0] = new LiveGame.Stored(id, rules, LiveGame.Mode.valueOf(rs.getString("mode").toUpperCase()),
                            start, k, rs.getLong("created_at"), rs.getString("status"),
                            new String[]{rs.getString("first_player"), rs.getString("second_player")},
                            new String[]{rs.getString("first_token"), rs.getString("second_token")},
                            offer == null ? -1 : offer.equals("first") ? 0 : 1, w, termination, rs.getInt("version"),
                            rs.getLong("updated_at"), moves, playedAt, actions,
                            new PlayerAccount[]{seated(c, id, rules.id, rs.getString("first_user")),
                                    seated(c, id, rules.id, rs.getString("second_user"))},
                            rs.getInt("rated") == 1, null);
                }
            }
            if (out[0] != null && out[0].rated() && out[0].termination() != null) {
                int[] diffs = ratingDiffs(c, id, out[0].accounts());
                if (diffs != null) {
                    LiveGame.Stored s = out[0];
                    out[0] = new LiveGame.Stored(s.id(), s.rules(), s.mode(), s.start(), s.clock(), s.createdAt(),
                            s.status(), s.players(), s.tokens(), s.drawOffer(), s.winner(), s.termination(), s.version(),
                            s.updatedAt(), s.moves(), s.playedAt(), s.actions(), s.accounts(), s.rated(), diffs);
                }
            }
        });
        return out[0];
    }

    /**
     * The account seated in a stored game, with its rating before the game when the game was rated and ended (from
     * its rating history), else its rating now; null for no account.
     */
    private static PlayerAccount seated(Connection c, String gameId, String variant, String userId) throws SQLException {
        if (userId == null) {
            return null;
        }
        String name = null;
        boolean bot = false;
        try (PreparedStatement st = c.prepareStatement("SELECT name, bot FROM users WHERE id = ?")) {
            st.setString(1, userId);
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    name = rs.getString(1);
                    bot = rs.getInt(2) == 1;
                }
            }
        }
        try (PreparedStatement st = c.prepareStatement(
                "SELECT rating_before FROM rating_history WHERE game_id = ? AND user_id = ?")) {
            st.setString(1, gameId);
            st.setString(2, userId);
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    return new PlayerAccount(userId, name, (int) Math.round(rs.getDouble(1)), false, bot);
                }
            }
        }
        Glicko2.Rating r = Accounts.rating(c, userId, variant);
        return new PlayerAccount(userId, name, (int) Math.round(r.rating()), r.provisional(), bot);
    }

    /** Each side's rating change in a rated game that ended, from the rating history; null when not rated yet. */
    private static int[] ratingDiffs(Connection c, String gameId, PlayerAccount[] accounts) throws SQLException {
        int[] diffs = new int[2];
        for (int side = 0; side < 2; side++) {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT rating_before, rating_after FROM rating_history WHERE game_id = ? AND user_id = ?")) {
                st.setString(1, gameId);
                st.setString(2, accounts[side].userId());
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return null;
                    }
                    diffs[side] = (int) (Math.round(rs.getDouble(2)) - Math.round(rs.getDouble(1)));
                }
            }
        }
        return diffs;
    }

    /** The last {@link LiveGame#CHAT_HISTORY} messages of a game's chat room, oldest first. */
    private static List<Map<String, Object>> chat(Connection c, String id, String room) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT sender, text, sent_at FROM chat WHERE game_id = ?"
                + " AND room = ? ORDER BY version DESC LIMIT " + LiveGame.CHAT_HISTORY)) {
            st.setString(1, id);
            st.setString(2, room);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("room", room);
                    m.put("from", rs.getString(1));
                    m.put("text", rs.getString(2));
                    m.put("at", rs.getLong(3));
                    out.add(java.util.Collections.unmodifiableMap(m));
                }
            }
        }
        java.util.Collections.reverse(out);
        return out;
    }

    /** Work on a connection that may throw SQLException. */
    interface Work {
        void run(Connection c) throws SQLException;
    }

    /** Runs {@code w} on a pooled connection in auto-commit mode; SQL errors become IllegalStateException. */
    void query(Work w) {
        try (Connection c = pool.getConnection()) {
            w.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("database: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (checkpointer != null) {
            checkpointer.shutdownNow();
        }
        closeWriter();
        pool.close();
    }
}
