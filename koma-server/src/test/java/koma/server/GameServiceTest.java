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
