package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.server.GameView.Seat;

/**
 * Group commit on a real SQLite file: changes from many threads are committed in batches, each change is
 * published only once it is in the database, and a change that cannot be stored fails alone and breaks only its
 * own game.
 */
class GameWriterTest {
    @TempDir
    Path dir;

    private static LiveGame game(String id) {
        RuleSet chess = RuleSet.of("chess");
        return LiveGame.create(id, chess, LiveGame.Mode.HOTSEAT, Position.start(chess), Clock.none(), List.of(), 0, 0,
                "h", "c", System.currentTimeMillis());
    }

    private static LiveGame.Change created(LiveGame g) {
        return new LiveGame.Change(g, List.of(), g.snapshot(), null, 0, System.currentTimeMillis());
    }

    @Test
    void concurrentChangesAreCommittedInBatchesAndPublishedAfterTheCommit() throws Exception {
        try (Database db = new Database("jdbc:sqlite:" + dir.resolve("w.db"))) {
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            GameWriter[] w = new GameWriter[1];
            w[0] = new GameWriter(db, 100_000, c -> {
                // published: the move must already be stored
                if (c.move() != null && db.load(c.game().id).moves().size() < c.ply()) {
                    problems.add(c.game().id + " ply " + c.ply() + " published before its commit");
                }
            }, (g, e) -> problems.add("failed: " + e));
            int games = 40, plies = 20;
            List<LiveGame> all = new ArrayList<>();
            for (int i = 0; i < games; i++) {
                LiveGame g = game("g" + i);
                all.add(g);
                w[0].submit(created(g), true).get(10, TimeUnit.SECONDS);
            }
            List<CompletableFuture<LiveGame.Change>> acks = new ArrayList<>();
            try (ExecutorService players = Executors.newFixedThreadPool(8)) {
                List<java.util.concurrent.Future<List<CompletableFuture<LiveGame.Change>>>> fs = new ArrayList<>();
                for (LiveGame g : all) {
                    fs.add(players.submit(() -> {
                        Random r = new Random(g.id.hashCode());
                        List<CompletableFuture<LiveGame.Change>> mine = new ArrayList<>();
                        for (int p = 0; p < plies; p++) {
                            synchronized (g) {
                                GameSnapshot s = g.snapshot();
                                if (s.finished()) {
                                    break;
                                }
                                String m = s.legalMoves().get(r.nextInt(s.legalMoves().size()));
                                mine.add(w[0].submit(g.move(Seat.BOTH, m, s.ply(), System.currentTimeMillis()), false));
                            }
                        }
                        return mine;
                    }));
                }
                for (var f : fs) {
                    acks.addAll(f.get(60, TimeUnit.SECONDS));
                }
            }
            for (CompletableFuture<LiveGame.Change> a : acks) {
                a.get(30, TimeUnit.SECONDS);
            }
            w[0].close();
            assertEquals(List.of(), List.copyOf(problems));
            int stored = 0;
            for (LiveGame g : all) {
                List<String> moves = db.load(g.id).moves();
                assertEquals(g.snapshot().moves(), moves, "every acknowledged move of " + g.id + ", in order, once");
                stored += moves.size();
            }
            assertEquals(acks.size(), stored);
            assertTrue(w[0].batches.get() < w[0].committed.get(),
                    "grouped: " + w[0].committed.get() + " changes in " + w[0].batches.get() + " transactions");
            assertTrue(db.aliveAt() > 0, "the heartbeat was written");
        }
    }

    @Test
    void aChangeThatCannotBeStoredFailsAloneAndBreaksItsGame() throws Exception {
        try (Database db = new Database("jdbc:sqlite:" + dir.resolve("f.db"))) {
            List<String> dropped = new ArrayList<>();
            try (GameWriter w = new GameWriter(db, 1000, c -> { }, (g, e) -> dropped.add(g.id))) {
                LiveGame stored = game("stored"), missing = game("missing");
                w.submit(created(stored), true).get(10, TimeUnit.SECONDS);
                // "missing" was never inserted: its update finds no row
                CompletableFuture<LiveGame.Change> bad = w.submit(missing.move(Seat.BOTH, "e2e4", 0, 1), false);
                CompletableFuture<LiveGame.Change> good = w.submit(stored.move(Seat.BOTH, "e2e4", 0, 1), false);
                CompletableFuture<LiveGame.Change> after = w.submit(missing.move(Seat.BOTH, "e7e5", 1, 2), false);
                good.get(10, TimeUnit.SECONDS);
                CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, bad::join);
                GameError ge = assertInstanceOf(GameError.class, e.getCause());
                assertEquals(GameError.Kind.UNAVAILABLE, ge.kind());
                org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, after::join);
                assertEquals(List.of("missing"), dropped);
                assertTrue(missing.broken);
                assertEquals(List.of("e2e4"), db.load("stored").moves());
            }
        }
    }
}
