package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.server.GameView.Seat;

/** The registry of live games on a real SQLite file: what a restart loads, and unloading what nobody uses. */
class GameServiceTest {
    @TempDir
    Path dir;

    private static final RuleSet CHESS = RuleSet.of("chess");

    private static GameService.NewGame hotseat(Clock clock) {
        return new GameService.NewGame(CHESS, LiveGame.Mode.HOTSEAT, "first", 0, clock, Position.start(CHESS), List.of());
    }

    private GameService service(Database db, ServerConfig.Limits limits) {
        return new GameService(db, 1, limits, new Feed(new ObjectMapper(), limits));
    }

    @Test
    void aRestartLoadsOnlyTheGamesWhoseClockRuns() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("r.db");
        String timed;
        try (Database db = new Database(url); GameService gs = service(db, ServerConfig.Limits.DEFAULTS)) {
            for (int i = 0; i < 30; i++) {
                GameService.Seated s = gs.create(hotseat(Clock.none()), "client" + i);
                s.committed().join();
                gs.move(s.game(), Seat.BOTH, "e2e4", 0).join();
            }
            GameService.Seated t = gs.create(hotseat(new Clock(Clock.Type.FISCHER, 600_000, 0, 0, 0)), "x");
            t.committed().join();
            timed = t.game().id;
            assertEquals(31, gs.inMemory());
        }
        try (Database db = new Database(url); GameService gs = service(db, ServerConfig.Limits.DEFAULTS)) {
            gs.resume();
            assertEquals(1, gs.inMemory(), "only the game with a running clock is loaded at start");
            assertNotNull(gs.find(timed));
            assertEquals(1, gs.inMemory());
        }
    }

    /**
     * A slow start (more than the writer's heartbeat interval between making the service and {@code resume}) still
     * gives the running clock back all the time the server was not up: resume reads the previous run's heartbeat,
     * not the first one of this run (which a RestartTest run under load once saw: the downtime charged).
     */
    @Test
    void aSlowStartDoesNotChargeTheDowntime() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("s.db");
        String id;
        long beforeMove, closed;
        try (Database db = new Database(url); GameService gs = service(db, ServerConfig.Limits.DEFAULTS)) {
            gs.resume();
            GameService.Seated s = gs.create(hotseat(new Clock(Clock.Type.FISCHER, 600_000, 0, 0, 0)), "a");
            s.committed().join();
            id = s.game().id;
            beforeMove = System.currentTimeMillis();
            gs.move(s.game(), Seat.BOTH, "e2e4", 0).join(); // the second player's clock runs from here
        } // a clean stop: the last heartbeat
        closed = System.currentTimeMillis();
        Thread.sleep(1000); // down
        try (Database db = new Database(url); GameService gs = service(db, ServerConfig.Limits.DEFAULTS)) {
            Thread.sleep(3 * GameWriter.HEARTBEAT_MS); // a slow start: this run's writer beats meanwhile
            long beforeResume = System.currentTimeMillis();
            gs.resume();
            LiveGame g = gs.find(id);
            long now = System.currentTimeMillis();
            long charged = 600_000 - g.clock().remaining(1, now);
            long up = (closed - beforeMove) + (now - beforeResume);
            assertTrue(charged <= up + 250, "charged " + charged + " ms, the server was up at most " + up
                    + " ms; the 1 s down and the 3 s start were charged");
        }
    }

    @Test
    void idleAndFinishedGamesLeaveMemoryAndReloadOnDemand() throws Exception {
        ServerConfig.Limits limits = ServerConfig.Limits.DEFAULTS.withTimeouts(Duration.ofHours(1), Duration.ofDays(1),
                Duration.ofMillis(400), Duration.ofMillis(400));
        try (Database db = new Database("jdbc:sqlite:" + dir.resolve("u.db")); GameService gs = service(db, limits)) {
            gs.resume();
            GameService.Seated idle = gs.create(hotseat(Clock.none()), "a");
            GameService.Seated done = gs.create(hotseat(Clock.none()), "a");
            GameService.Seated running = gs.create(hotseat(new Clock(Clock.Type.FISCHER, 600_000, 0, 0, 0)), "a");
            idle.committed().join();
            running.committed().join();
            gs.move(idle.game(), Seat.BOTH, "e2e4", 0).join();
            gs.resign(done.game(), Seat.BOTH).join();
            long end = System.currentTimeMillis() + 10_000;
            while (gs.inMemory() > 1 && System.currentTimeMillis() < end) {
                Thread.sleep(100);
            }
            assertEquals(1, gs.inMemory(), "the idle and the finished game left memory; the running clock stayed");
            LiveGame back = gs.find(idle.game().id);
            assertTrue(back != idle.game(), "a new owner, loaded from the database");
            assertEquals(List.of("e2e4"), back.snapshot().moves());
            assertEquals(1, back.snapshot().version());
            assertEquals("resignation", gs.find(done.game().id).snapshot().termination());
        }
    }
}
