package koma.protocol.match;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.rules.Game;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Kif;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.Pgn;

/** The parts of a match without processes: commands sent, info parsing, time controls, openings, PGN and KIF. */
class MatchPartsTest {
    /**
     * The referee's clock arithmetic: a Fischer clock takes the time used off and adds the increment, into debt when
     * the move ran into the margin (cutechess-cli's rule); the engines are told 0 for a clock in debt; byoyomi's
     * main time stops at 0 (its period is fresh each move); fixed controls keep no clock.
     */
    @Test
    void clockAfterAMove() {
        TimeControl fischer = TimeControl.clock(10_000, 100);
        assertEquals(9_900, Referee.afterMove(fischer, 10_000, 200));
        assertEquals(-150, Referee.afterMove(fischer, 50, 300), "an overrun stays on the clock");
        assertEquals(-250, Referee.afterMove(fischer, -150, 200), "and a second one adds to it");
        assertEquals(-100, Referee.afterMove(fischer, -150, 50), "a quick move pays some back");
        assertEquals(List.of(0L, 300L), java.util.Arrays.stream(Referee.told(new long[] {-250, 300})).boxed().toList());
        TimeControl byoyomi = TimeControl.byoyomi(1_000, 500);
        assertEquals(0, Referee.afterMove(byoyomi, 100, 450));
        assertEquals(700, Referee.afterMove(byoyomi, 1_000, 300));
        assertEquals(0, Referee.afterMove(TimeControl.moveTime(100), 0, 120));
    }

    @Test
    void goCommands() {
        RuleSet rs = RuleSet.of("shogi");
        long[] left = {3000, 5000};
        ThinkRequest clock = new ThinkRequest(Position.start(rs), true, List.of(), List.of(), 0,
                TimeControl.clock(10_000, 100), left);
        // UCI: wtime is the first player's; USI: btime is (sente)
        assertEquals("go wtime 3000 btime 5000 winc 100 binc 100", UciClient.goCommand(clock, false));
        assertEquals("go btime 3000 wtime 5000 binc 100 winc 100", UciClient.goCommand(clock, true));
        ThinkRequest byo = new ThinkRequest(Position.start(rs), true, List.of(), List.of(), 0,
                TimeControl.byoyomi(0, 1000), new long[]{0, 0});
        assertEquals("go btime 0 wtime 0 byoyomi 1000", UciClient.goCommand(byo, true));
        assertEquals("go movetime 50", UciClient.goCommand(new ThinkRequest(Position.start(rs), true, List.of(),
                List.of(), 0, TimeControl.moveTime(50), left), false));
        assertEquals("go depth 7", UciClient.goCommand(new ThinkRequest(Position.start(rs), true, List.of(), List.of(),
                0, TimeControl.depth(7), left), true));
        assertEquals("go nodes 1000", UciClient.goCommand(new ThinkRequest(Position.start(rs), true, List.of(),
                List.of(), 0, TimeControl.nodes(1000), left), false));
    }

    @Test
    void positionCommands() {
        RuleSet rs = RuleSet.of("shogi");
        Position start = Position.start(rs);
        ThinkRequest fromStart = new ThinkRequest(start, true, List.of("g3g4"), List.of("7g7f"), 1,
                TimeControl.depth(1), new long[2]);
        assertEquals("position startpos moves 7g7f", UciClient.positionCommand(fromStart, true, false));
        assertEquals("position startpos moves g3g4", UciClient.positionCommand(fromStart, false, false));
        Position p = start.copy();
        p.doMove(MoveNotation.parseUsi(p, "7g7f"));
        ThinkRequest fromSfen = new ThinkRequest(p, false, List.of(), List.of(), 1, TimeControl.depth(1), new long[2]);
        assertEquals("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
                UciClient.positionCommand(fromSfen, true, false));
        assertTrue(UciClient.positionCommand(fromSfen, false, false).startsWith("position fen "));
    }

    /** Fairy-Stockfish's Shodo writes promotions with '+': sent translated, read back leniently. */
    @Test
    void plusPromotions() {
        RuleSet rs = RuleSet.of("shodo");
        Position p = Position.fromFen(rs, "4k3/1N6/8/8/8/8/8/4K3 w - - 0 1");
        int m = Referee.parseMove(p, "b7d8+", MoveNotation.Style.UCI);
        assertEquals("b7d8q", MoveNotation.formatUci(p, m));
        assertEquals("b7d8", MoveNotation.formatUci(p, Referee.parseMove(p, "b7d8", MoveNotation.Style.UCI)));
        assertThrows(IllegalArgumentException.class, () -> Referee.parseMove(p, "b7c5+", MoveNotation.Style.UCI));
        ThinkRequest r = new ThinkRequest(p, false, List.of("b7d8q"), List.of(), 1, TimeControl.depth(1), new long[2]);
        assertTrue(UciClient.positionCommand(r, false, true).endsWith(" moves b7d8+"));
        assertTrue(UciClient.positionCommand(r, false, false).endsWith(" moves b7d8q"));
    }

    @Test
    void infoLines() {
        Object[] cp = UciClient.parseInfo("info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv e2e4".split(" "), false);
        assertEquals(new Score(false, -35), cp[0]);
        assertEquals(12, cp[1]);
        // USI counts mate in plies: 5 plies is mate in 3 moves; UCI counts moves
        assertEquals(new Score(true, 3), UciClient.parseInfo("info depth 9 score mate 5 pv 7g7f".split(" "), true)[0]);
        assertEquals(new Score(true, -2), UciClient.parseInfo("info depth 9 score mate -4".split(" "), true)[0]);
        assertEquals(new Score(true, 5), UciClient.parseInfo("info depth 9 score mate 5".split(" "), false)[0]);
        Object[] str = UciClient.parseInfo("info string depth 3 score cp 1".split(" "), false);
        assertNull(str[0]);
        assertEquals(0, str[1]);
        assertEquals("+0.35", new Score(false, 35).format());
        assertEquals("-M2", new Score(true, -2).format());
    }

    @Test
    void timeControls() {
        assertEquals(TimeControl.clock(10_000, 100), TimeControl.parseClock("10+0.1"));
        assertEquals(TimeControl.clock(60_000, 0), TimeControl.parseClock("60"));
        assertEquals(TimeControl.byoyomi(5000, 1000), TimeControl.parseByoyomi("5+1"));
        assertEquals("10+0.1", TimeControl.parseClock("10+0.1").pgnTag());
        assertEquals("5+1 byoyomi", TimeControl.parseByoyomi("5+1").pgnTag());
        assertThrows(IllegalArgumentException.class, () -> TimeControl.parseClock("10m"));
        assertThrows(IllegalArgumentException.class, () -> TimeControl.parseClock("0+1"));
        assertThrows(IllegalArgumentException.class, () -> TimeControl.moveTime(0));
        assertThrows(IllegalArgumentException.class, () -> TimeControl.depth(0));
    }

    @Test
    void engineCommandLines() {
        assertEquals(List.of("/usr/games/stockfish"), new EngineConfig("/usr/games/stockfish", EngineConfig.Protocol.UCI,
                null, List.of()).argv());
        assertEquals(List.of("java", "-jar", "k.jar", "uci"), new EngineConfig(" java  -jar k.jar uci ",
                EngineConfig.Protocol.UCI, null, List.of()).argv());
        assertEquals(List.of("sh", "-c", "cd /tmp && ./engine 2>/dev/null"), new EngineConfig(
                "cd /tmp && ./engine 2>/dev/null", EngineConfig.Protocol.UCI, null, List.of()).argv());
        assertEquals(List.of(Map.entry("Hash", "64"), Map.entry("Skill Level", "3"), Map.entry("Clear", "")),
                EngineConfig.parseOptions("--option1", List.of("Hash=64", "Skill Level=3", "Clear=")));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.parseOptions("--option1", List.of("Hash")));
        assertEquals(EngineConfig.Protocol.XBOARD, EngineConfig.Protocol.parse("xboard"));
        assertThrows(IllegalArgumentException.class, () -> EngineConfig.Protocol.parse("ucci"));
    }

    @Test
    void openingsFile(@TempDir Path dir) throws Exception {
        RuleSet chess = RuleSet.of("chess");
        Path f = dir.resolve("o.txt");
        Files.writeString(f, """
                # comment
                startpos moves e2e4 e7e5
                rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
                fen rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 moves d7d5

                startpos
                """, UTF_8);
        List<Opening> o = Opening.readFile(chess, f);
        assertEquals(4, o.size());
        assertTrue(o.get(0).fromStart());
        assertEquals(2, o.get(0).moves().size());
        assertFalse(o.get(1).fromStart());
        assertEquals(1, o.get(2).moves().size());
        assertEquals(0, o.get(3).moves().size());
        // shogi lines take USI moves (UCI accepted too)
        RuleSet shogi = RuleSet.of("shogi");
        assertEquals(2, Opening.parse(shogi, "startpos moves 7g7f c7c6", "t").moves().size());
        // errors name the line
        Files.writeString(f, "startpos moves e2e5\n", UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Opening.readFile(chess, f));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
        // an opening that ends the game is refused (fool's mate)
        assertThrows(IllegalArgumentException.class,
                () -> Opening.parse(chess, "startpos moves f2f3 e7e5 g2g4 d8h4", "t"));
        // random openings: seeded, reproducible
        assertEquals(Opening.random(chess, 6, 42, 3).stream().map(Opening::moves).toList(),
                Opening.random(chess, 6, 42, 3).stream().map(Opening::moves).toList());
        assertEquals(6, Opening.random(chess, 6, 42, 1).get(0).moves().size());
    }

    /** A PGN written from a non-start position (SetUp/FEN, black to move first) reads back and replays. */
    @Test
    void pgnFromPosition() {
        RuleSet rs = RuleSet.of("chess");
        Opening o = Opening.parse(rs, "fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 40 moves e8d7", "t");
        Position p = o.root().copy();
        p.doMove(o.moves().get(0));
        int e4 = MoveNotation.parseUci(p, "e2e4");
        RefereedGame g = new RefereedGame(3, rs, List.of("A", "B \"quoted\""), o.root(), false,
                List.of(o.moves().get(0), e4), java.util.Arrays.asList("book", "+0.50/3 0.010s"), List.of(0L, 10L), 1,
                new GameResult(GameResult.DRAW, GameResult.ADJUDICATION, "draw: test"),
                List.of(TimeControl.depth(3), TimeControl.depth(3)), "t",
                ZonedDateTime.now());
        String text = Pgn.format(g.toRecord("ev"));
        assertTrue(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"), text);
        assertTrue(text.contains("40... Kd7 {book} 41. e4 {+0.50/3 0.010s} {draw: test} 1/2-1/2"), text);
        koma.rules.notation.GameRecord pg = Pgn.parse(text);
        assertEquals("B \"quoted\"", pg.tags().get("Black"));
        Game replayed = Match.replay(pg);
        assertEquals(g.moves(), replayed.moves());
    }

    @Test
    void pgnReaderSkipsCommentsAndVariations() {
        String text = """
                [Event "x"]
                [Variant "chess"]

                1. Nc3 {a comment} (1. Nf3 Nf6) Nc6 $1 ; rest of line
                2. Nb5 Nb4 1-0

                1. Nc3 *
                """;
        List<koma.rules.notation.GameRecord> games = Pgn.parseAll(text);
        assertEquals(2, games.size());
        assertEquals(List.of("b1c3", "b8c6", "c3b5", "c6b4"), games.get(0).moves());
        assertEquals("a comment", games.get(0).comment(0));
        assertEquals("1-0", games.get(0).result());
        assertEquals(4, Match.replay(games.get(0)).moves().size());
        assertEquals(Map.of(), games.get(1).tags());
    }

    @Test
    void kifFromPosition() {
        RuleSet rs = RuleSet.of("shogi");
        Opening o = Opening.parse(rs, "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d 8h2b+ 3a2b",
                "t");
        Position p = o.root().copy();
        for (int m : o.moves()) {
            p.doMove(m);
        }
        int drop = MoveNotation.parseUsi(p, "B*4e");
        List<Integer> moves = new java.util.ArrayList<>(o.moves());
        moves.add(drop);
        RefereedGame g = new RefereedGame(1, rs, List.of("Sente", "Gote"), o.root(), false, moves,
                List.of("book", "book", "book", "+0.10/5 1.500s"), List.of(0L, 0L, 0L, 1500L), 3,
                new GameResult(1, GameResult.RESIGNATION, "Sente resigns"),
                List.of(TimeControl.byoyomi(0, 2000), TimeControl.byoyomi(0, 2000)), "t",
                ZonedDateTime.now());
        String k = Kif.format(g.toRecord("ev"));
        assertTrue(k.contains("後手番"), k);
        assertTrue(k.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"), k);
        assertTrue(k.contains("   1 ３四歩(33)"), k);
        assertTrue(k.contains("   2 ２二角成(88)"), k);
        assertTrue(k.contains("   3 同　銀(31)"), k);
        assertTrue(k.contains("   4 ４五角打"), k);
        assertTrue(k.contains("( 0:01/00:00:01)"), k);
        assertTrue(k.contains("   5 投了"), k);
        assertTrue(k.contains("まで4手で後手の勝ち"), k);
        assertEquals(g.toRecord("ev").moves(), Kif.parse(k).moves());
    }

    /**
     * The lines that count as an engine's error while options are set: Koma's and Stockfish's info strings (their
     * texts as the engines print them) and Stockfish's unknown option; ordinary info strings do not.
     */
    @Test
    void errorLinesBeforeReadyok() {
        assertTrue(UciClient.reportsError("info string error: EvalFile: no readable file /x.nnue"));
        assertTrue(UciClient.reportsError("info string ERROR: Network evaluation parameters compatible with the engine "
                + "must be available."));
        assertTrue(UciClient.reportsError("No such option: Foo"));
        assertFalse(UciClient.reportsError("info string NNUE evaluation using nn-ad9b42354671.nnue enabled"));
        assertFalse(UciClient.reportsError("info string variant washogi files 11 ranks 11 pocket 0"));
        assertFalse(UciClient.reportsError("info depth 1 score cp 0 pv e2e4 string error"));
    }
}
