package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Csa;
import koma.rules.notation.GameRecord;
import koma.rules.notation.Kif;
import koma.rules.notation.Pgn;
import koma.server.GameView.Seat;

/**
 * The exported records of games made in-process: readable player names, the time control in each format's words,
 * the move times of a clocked game (KIF's time column, CSA's T lines, PGN's [%clk] comments) from the moves'
 * played-at times, and each record read back by the rules core's parsers.
 */
class ExportTest {
    private static final RuleSet SHOGI = RuleSet.of("shogi");
    private static final RuleSet CHESS = RuleSet.of("chess");
    /** 2026-01-02 03:04:05 UTC. */
    private static final long T0 = Instant.parse("2026-01-02T03:04:05Z").toEpochMilli();

    @TempDir
    Path dir;

    /**
     * Shogi against the computer (level 3, gote), Fischer 5 min + 3 s: the human's moves take 12 s and 83 s, the
     * computer's 1.5 s and 3.5 s.
     */
    private static LiveGame fischerGame() {
        LiveGame g = LiveGame.create("g1", SHOGI, LiveGame.Mode.COMPUTER, Position.start(SHOGI),
                new Clock(Clock.Type.FISCHER, 300_000, 3_000, 0, 0), List.of(), 0, 3, "h", "c", T0);
        g.move(Seat.FIRST, "c3c4", 0, T0 + 12_000); // ７六歩
        g.computerMove(1, "g7g6", T0 + 13_500); // ３四歩
        g.move(Seat.FIRST, "h3h4", 2, T0 + 96_500); // ２六歩
        g.computerMove(3, "b7b6", T0 + 100_000); // ８四歩
        return g;
    }

    private static List<String> lines(String text) {
        return Arrays.asList(text.split("\n"));
    }

    @Test
    void kifNamesTimeControlAndMoveTimes() {
        GameSnapshot s = fischerGame().snapshot();
        String kif = Export.export(s, "kif", null);
        List<String> l = lines(kif);
        assertTrue(l.contains("開始日時：2026/01/02 03:04:05"), kif);
        assertTrue(l.contains("持ち時間：5分+3秒"), kif);
        assertTrue(l.contains("先手：Player"), kif);
        assertTrue(l.contains("後手：Koma (level 3)"), kif);
        assertFalse(kif.contains("human") || kif.contains("computer") || kif.contains("秒読み"), kif);
        // time used by the move / that side's total (whole seconds: 1.5 s is 1, 3.5 s is 3)
        assertTrue(l.contains("   1 ７六歩(77)   ( 0:12/00:00:12)"), kif);
        assertTrue(l.contains("   2 ３四歩(33)   ( 0:01/00:00:01)"), kif);
        assertTrue(l.contains("   3 ２六歩(27)   ( 1:23/00:01:35)"), kif);
        assertTrue(l.contains("   4 ８四歩(83)   ( 0:03/00:00:04)"), kif);

        GameRecord back = Kif.parse(kif);
        assertEquals(s.moves(), back.moves());
        assertEquals(List.of(12_000L, 1_000L, 83_000L, 3_000L), back.moveTimesMs());
        assertEquals("Player", back.tag("White", null));
        assertEquals("Koma (level 3)", back.tag("Black", null));
        assertEquals("5分+3秒", back.tag("TimeControl", null));
        assertEquals(Kif.format(back), kif, "KIF written, read and written again is the same text");
    }

    @Test
    void csaNamesTimeLimitAndTLines() {
        GameSnapshot s = fischerGame().snapshot();
        String csa = Export.export(s, "csa", null);
        List<String> l = lines(csa);
        assertEquals(List.of("V2.2", "N+Player", "N-Koma (level 3)"), l.subList(0, 3), csa);
        assertTrue(l.contains("$START_TIME:2026/01/02 03:04:05"), csa);
        assertTrue(l.contains("$TIME_LIMIT:00:05+00"), csa);
        assertTrue(l.contains("'Increment: 3"), csa);
        int first = l.indexOf("+7776FU");
        assertEquals(List.of("+7776FU", "T12", "-3334FU", "T1", "+2726FU", "T83", "-8384FU", "T3"),
                l.subList(first, first + 8), csa);

        GameRecord back = Csa.parse(csa);
        assertEquals(s.moves(), back.moves());
        assertEquals(List.of(12_000L, 1_000L, 83_000L, 3_000L), back.moveTimesMs());
        assertEquals("Player", back.tag("White", null));
        assertEquals("Koma (level 3)", back.tag("Black", null));
        assertEquals(Csa.format(back), csa, "CSA written, read and written again is the same text");
    }

    @Test
    void pgnNamesAndClockComments() {
        GameSnapshot s = fischerGame().snapshot();
        String pgn = Export.export(s, "pgn", null);
        List<String> l = lines(pgn);
        assertTrue(l.contains("[White \"Player\"]"), pgn);
        assertTrue(l.contains("[Black \"Koma (level 3)\"]"), pgn);
        assertTrue(l.contains("[TimeControl \"300+3\"]"), pgn);
        // lichess style: the mover's clock after the move, increment included (300 - 12 + 3 = 291 s ...)
        assertTrue(pgn.replace('\n', ' ').contains("1. 7g7f {[%clk 0:04:51]} 3c3d {[%clk 0:05:01]} "
                + "2. 2g2f {[%clk 0:03:31]} 8c8d {[%clk 0:05:01]} *"), pgn);

        GameRecord back = Pgn.parse(pgn);
        assertEquals(s.moves(), back.moves());
        assertEquals(List.of("[%clk 0:04:51]", "[%clk 0:05:01]", "[%clk 0:03:31]", "[%clk 0:05:01]"),
                back.comments());
        assertEquals("Player", back.tag("White", null));
        assertEquals("Koma (level 3)", back.tag("Black", null));
        assertEquals(Pgn.format(back), pgn, "PGN written, read and written again is the same text");
    }

    @Test
    void everyRecordStartsANewGameWithTheSameMoves() {
        GameSnapshot s = fischerGame().snapshot();
        for (String format : List.of("pgn", "kif", "csa")) {
            List<String> moves = new ArrayList<>();
            Export.fromRecord(SHOGI, Export.export(s, format, null), moves);
            assertEquals(s.moves(), moves, format);
        }
    }

    @Test
    void aGameReloadedFromItsStoredMovesExportsTheSameTimes() {
        GameSnapshot s = fischerGame().snapshot();
        LiveGame.Stored stored = new LiveGame.Stored(s.id(), s.rules(), s.mode(), s.start(), s.clock().copy(),
                s.createdAt(), s.status(), s.players().toArray(new String[0]), s.tokens().toArray(new String[0]),
                s.drawOffer(), s.winner(), s.termination(), s.version(), s.updatedAt(), s.moves(),
                List.copyOf(s.playedAt()), GameSnapshot.Actions.NONE, new PlayerAccount[2], false, null);
        GameSnapshot r = LiveGame.restore(stored, T0 + 200_000).snapshot();
        assertEquals(List.of(T0 + 12_000, T0 + 13_500, T0 + 96_500, T0 + 100_000), r.playedAt());
        for (String format : List.of("pgn", "kif", "csa")) {
            assertEquals(Export.export(s, format, null), Export.export(r, format, null), format);
        }
    }

    @Test
    void aGameWrittenToTheDatabaseAndLoadedBackExportsTheSameRecords() {
        LiveGame g = LiveGame.create("g1", SHOGI, LiveGame.Mode.COMPUTER, Position.start(SHOGI),
                new Clock(Clock.Type.FISCHER, 300_000, 3_000, 0, 0), List.of(), 0, 3, "h", "c", T0);
        List<Database.Write> writes = new ArrayList<>();
        writes.add(new Database.Write(new LiveGame.Change(g, List.of(), g.snapshot(), null, 0, T0), true));
        writes.add(new Database.Write(g.move(Seat.FIRST, "c3c4", 0, T0 + 12_000), false));
        writes.add(new Database.Write(g.computerMove(1, "g7g6", T0 + 13_500), false));
        writes.add(new Database.Write(g.move(Seat.FIRST, "h3h4", 2, T0 + 96_500), false));
        writes.add(new Database.Write(g.computerMove(3, "b7b6", T0 + 100_000), false));
        try (Database db = new Database("jdbc:sqlite:" + dir.resolve("e.db"))) {
            db.write(writes, 0);
            LiveGame.Stored stored = db.load("g1");
            assertEquals(List.of(T0 + 12_000, T0 + 13_500, T0 + 96_500, T0 + 100_000), stored.playedAt());
            GameSnapshot r = LiveGame.restore(stored, T0 + 200_000).snapshot();
            for (String format : List.of("pgn", "kif", "csa")) {
                assertEquals(Export.export(fischerGame().snapshot(), format, null), Export.export(r, format, null),
                        format);
            }
        }
    }

    @Test
    void byoyomiInKakinokisHeaderAndHotSeatNames() {
        LiveGame g = LiveGame.create("g2", SHOGI, LiveGame.Mode.HOTSEAT, Position.start(SHOGI),
                new Clock(Clock.Type.BYOYOMI, 600_000, 0, 30_000, 1), List.of(), 0, 0, "h", "c", T0);
        g.move(Seat.BOTH, "c3c4", 0, T0 + 590_000); // 9:50 of the 10 minutes
        g.move(Seat.BOTH, "g7g6", 1, T0 + 595_000);
        g.move(Seat.BOTH, "h3h4", 2, T0 + 620_000); // 25 s: the last 10 s of main time, then 15 s of byoyomi
        GameSnapshot s = g.snapshot();
        String kif = Export.export(s, "kif", null);
        List<String> l = lines(kif);
        assertTrue(l.contains("持ち時間：10分"), kif);
        assertTrue(l.contains("秒読み：30秒"), kif);
        assertTrue(l.contains("先手：Hot-seat"), kif);
        assertTrue(l.contains("後手：Hot-seat"), kif);
        assertTrue(l.contains("   1 ７六歩(77)   ( 9:50/00:09:50)"), kif);
        assertTrue(l.contains("   2 ３四歩(33)   ( 0:05/00:00:05)"), kif);
        assertTrue(l.contains("   3 ２六歩(27)   ( 0:25/00:10:15)"), kif);
        GameRecord back = Kif.parse(kif);
        assertEquals("10分", back.tag("TimeControl", null));
        assertEquals("30秒", back.tag("Byoyomi", null));
        assertEquals(List.of(590_000L, 5_000L, 25_000L), back.moveTimesMs());

        String csa = Export.export(s, "csa", null);
        assertTrue(lines(csa).contains("$TIME_LIMIT:00:10+30"), csa);
        assertTrue(lines(csa).containsAll(List.of("N+Hot-seat", "N-Hot-seat", "T590", "T5", "T25")), csa);
        assertEquals(s.moves(), Csa.parse(csa).moves());

        // in byoyomi the clock after a move shows a full period
        String pgn = Export.export(s, "pgn", null);
        assertTrue(pgn.replace('\n', ' ').contains("1. 7g7f {[%clk 0:00:10]} 3c3d {[%clk 0:09:55]} "
                + "2. 2g2f {[%clk 0:00:30]} *"), pgn);
        assertTrue(lines(pgn).contains("[TimeControl \"600+30 byoyomi\"]"), pgn);
        assertEquals(s.moves(), Pgn.parse(pgn).moves());
    }

    @Test
    void untimedGamesHaveNoTimeControlAndNoClockComments() {
        LiveGame g = LiveGame.create("g3", CHESS, LiveGame.Mode.COMPUTER, Position.start(CHESS), Clock.none(),
                List.of(), 1, 0, "h", "c", T0);
        g.computerMove(0, "e2e4", T0 + 1_000);
        g.move(Seat.SECOND, "c7c5", 1, T0 + 60_000);
        String pgn = Export.export(g.snapshot(), "pgn", null);
        List<String> l = lines(pgn);
        assertTrue(l.contains("[White \"Koma (level 0)\"]"), pgn);
        assertTrue(l.contains("[Black \"Player\"]"), pgn);
        assertTrue(l.contains("[TimeControl \"-\"]"), pgn);
        assertTrue(l.contains("1. e4 c5 *"), pgn);

        LiveGame sh = LiveGame.create("g4", SHOGI, LiveGame.Mode.FRIEND, Position.start(SHOGI), Clock.none(),
                List.of(), 0, 0, "h", "c", T0);
        sh.join(Seat.NONE, "j", T0 + 5_000);
        sh.move(Seat.FIRST, "c3c4", 0, T0 + 9_000);
        String kif = Export.export(sh.snapshot(), "kif", null);
        assertFalse(kif.contains("持ち時間"), kif);
        assertTrue(lines(kif).containsAll(List.of("先手：Player", "後手：Player", "   1 ７六歩(77)   ( 0:00/00:00:00)")),
                kif);
        assertFalse(Export.export(sh.snapshot(), "csa", null).contains("$TIME_LIMIT"));
    }

    @Test
    void aFriendGamesFirstMoveTimeIsUnknownTheRestAreKept() {
        // the clock starts at the join, whose time is not stored: the first move's time is written as 0, the
        // next ones are the times between the moves
        LiveGame g = LiveGame.create("g5", SHOGI, LiveGame.Mode.FRIEND, Position.start(SHOGI),
                new Clock(Clock.Type.FISCHER, 300_000, 0, 0, 0), List.of(), 0, 0, "h", "c", T0);
        g.join(Seat.NONE, "j", T0 + 3_600_000);
        g.move(Seat.FIRST, "c3c4", 0, T0 + 3_604_000);
        g.move(Seat.SECOND, "g7g6", 1, T0 + 3_611_000);
        String kif = Export.export(g.snapshot(), "kif", null);
        assertTrue(lines(kif).contains("   1 ７六歩(77)   ( 0:00/00:00:00)"), kif);
        assertTrue(lines(kif).contains("   2 ３四歩(33)   ( 0:07/00:00:07)"), kif);
        assertTrue(Export.export(g.snapshot(), "pgn", null).contains("1. 7g7f {[%clk 0:05:00]} 3c3d {[%clk 0:04:53]}"));
    }

    @Test
    void displayNames() {
        assertEquals("Player", Export.playerName("human", LiveGame.Mode.COMPUTER));
        assertEquals("Player", Export.playerName("human", LiveGame.Mode.FRIEND));
        assertEquals("Hot-seat", Export.playerName("human", LiveGame.Mode.HOTSEAT));
        assertEquals("Koma (level 7)", Export.playerName("computer:7", LiveGame.Mode.COMPUTER));
        assertEquals("5分", Export.kifTime(300_000));
        assertEquals("90秒", Export.kifTime(90_000));
        assertEquals("0:04:51", Export.clk(291_400));
        assertEquals("1:00:00", Export.clk(3_600_000));
    }
}
