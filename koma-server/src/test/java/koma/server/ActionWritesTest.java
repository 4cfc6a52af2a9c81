package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.server.GameView.Seat;

/**
 * The writer's order within one transaction on a real SQLite file: a takeback between moves of the same batch
 * deletes exactly the moves before it, so the moves after it are stored (the game reloads with its moves and ply
 * agreeing), and the actions' state and chat are read back as written.
 */
class ActionWritesTest {
    @TempDir
    Path dir;

    @Test
    void aTakebackAmongMovesOfOneBatchKeepsTheStoredMovesInOrder() {
        RuleSet chess = RuleSet.of("chess");
        try (Database db = new Database("jdbc:sqlite:" + dir.resolve("a.db"))) {
            LiveGame g = LiveGame.create("tb1", chess, LiveGame.Mode.HOTSEAT, Position.start(chess), Clock.none(),
                    List.of(), 0, 0, "h", "c", 1_000);
            LiveGame.Change created = new LiveGame.Change(g, List.of(), g.snapshot(), null, 0, 1_000);
            LiveGame.Change m1 = g.move(Seat.BOTH, "e2e4", 0, 1_001);
            LiveGame.Change m2 = g.move(Seat.BOTH, "e7e5", 1, 1_002);
            LiveGame.Change back = g.takeback(Seat.BOTH, "offer", 1_003); // hot-seat: the last move, at once
            LiveGame.Change m3 = g.move(Seat.BOTH, "d7d5", 1, 1_004);
            LiveGame.Change said = g.chat(Seat.NONE, "client", "hello", 1_005);
            db.write(List.of(new Database.Write(created, true), new Database.Write(m1, false),
                    new Database.Write(m2, false), new Database.Write(back, false), new Database.Write(m3, false),
                    new Database.Write(said, false)), 0);
            LiveGame.Stored s = db.load("tb1");
            assertEquals(List.of("e2e4", "d7d5"), s.moves(), "e7e5 was taken back, d7d5 played after it");
            assertEquals(List.of(1_001L, 1_004L), s.playedAt());
            assertEquals(g.snapshot().version(), s.version());
            assertEquals(1, s.actions().spectatorsChat().size());
            assertEquals("hello", s.actions().spectatorsChat().get(0).get("text"));
            assertEquals(List.of(), s.actions().playersChat());
            // reloaded, the game plays on from the same position
            LiveGame r = LiveGame.restore(s, 2_000);
            assertEquals(g.snapshot().current().toString(), r.snapshot().current().toString());
            r.move(Seat.BOTH, "e4d5", 2, 2_001);
        }
    }
}
