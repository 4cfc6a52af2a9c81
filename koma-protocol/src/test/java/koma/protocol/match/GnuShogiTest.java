package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * Debian's GNU Shogi 1.4.2 ({@code /usr/games/gnushogi}, skipped when not installed) through the XBoard client's
 * {@code gnushogi} dialect: recognised by its banner, USI-style moves both ways, timed by the client, and a real game
 * against Koma refereed by the rules core.
 */
class GnuShogiTest {
    private static final String GNUSHOGI = "/usr/games/gnushogi";
    private static final RuleSet SHOGI = RuleSet.of("shogi");

    private static EngineConfig gnushogi(List<Map.Entry<String, String>> options) {
        assumeTrue(Files.isExecutable(Path.of(GNUSHOGI)), GNUSHOGI + " is not installed");
        return new EngineConfig(GNUSHOGI, EngineConfig.Protocol.XBOARD, null, options);
    }

    /** A request from the start position after {@code usi} moves, with a fixed move time. */
    private static ThinkRequest request(List<String> usi, long moveTimeMs) {
        Position p = Position.start(SHOGI);
        List<String> uci = new ArrayList<>();
        for (String m : usi) {
            int move = MoveNotation.parse(p, m, MoveNotation.Style.USI);
            uci.add(MoveNotation.format(p, move, MoveNotation.Style.UCI));
            p.doMove(move);
        }
        return new ThinkRequest(Position.start(SHOGI), true, uci, usi, p.sideToMove(),
                TimeControl.moveTime(moveTimeMs), new long[]{0, 0});
    }

    @Test
    void recognisedByItsBannerAndAnswersALegalMoveInTime() throws Exception {
        try (XBoardClient c = XBoardClient.start(gnushogi(List.of()), SHOGI)) {
            assertEquals("gnushogi", c.dialect());
            assertTrue(c.name().startsWith("GNU Shogi"), c.name());
            assertEquals(MoveNotation.Style.USI, c.style());
            c.newGame();
            // out of its opening book after these moves; a drop is among them so both directions see USI drops
            List<String> moves = List.of("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8b3b");
            ThinkRequest r = request(moves, 300);
            Reply reply = c.think(r, 300 + 500);
            assertEquals(Reply.Kind.MOVE, reply.kind(), reply.toString());
            Position p = Position.start(SHOGI);
            for (String m : moves) {
                p.doMove(MoveNotation.parse(p, m, MoveNotation.Style.USI));
            }
            MoveNotation.parse(p, reply.move(), MoveNotation.Style.USI); // throws when illegal
            // the client interrupts it shortly before the move time (left alone, its one-second 'level' would let it
            // think a second or more); generous bounds, the machine is shared
            assertTrue(reply.elapsedMs() >= 200 && reply.elapsedMs() < 900, reply.toString());
        }
    }

    @Test
    void setsUpAPositionWithHandsAndTheSecondPlayerToMove() throws Exception {
        // gote to move with a rook in hand, sente with two pawns: a board or side set up wrongly shows as a move
        // that is illegal here (sente's, or a drop of a piece gote does not hold)
        for (String sfen : List.of("4ks3/9/9/9/9/9/9/9/4KG3 w 2Pr 1",
                "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
                "4k4/9/4+P4/9/9/9/9/9/4K4 w 3p 1")) {
            try (XBoardClient c = XBoardClient.start(gnushogi(List.of()), SHOGI)) {
                c.newGame();
                Position root = Fen.parseSfen(SHOGI, sfen);
                ThinkRequest r = new ThinkRequest(root, false, List.of(), List.of(), root.sideToMove(),
                        TimeControl.moveTime(200), new long[]{0, 0});
                Reply reply = c.think(r, 200 + 800);
                assertEquals(Reply.Kind.MOVE, reply.kind(), sfen + ": " + reply);
                MoveNotation.parse(root.copy(), reply.move(), MoveNotation.Style.USI); // throws when illegal
            }
        }
    }

    @Test
    void aFixedDepthIsSentWithItsPrompt() throws Exception {
        try (XBoardClient c = XBoardClient.start(gnushogi(List.of()), SHOGI)) {
            c.newGame();
            List<String> moves = List.of("7g7f", "3c3d", "8h2b+", "3a2b");
            ThinkRequest r = request(moves, 300);
            r = new ThinkRequest(r.root(), true, r.uciMoves(), r.usiMoves(), r.side(), TimeControl.depth(2),
                    r.timeLeftMs());
            // 'depth' prints a prompt without a newline, which then prefixes the next line (the first move's echo)
            Reply reply = c.think(r, 5_000);
            assertEquals(Reply.Kind.MOVE, reply.kind(), reply.toString());
            Position p = Position.start(SHOGI);
            for (String m : moves) {
                p.doMove(MoveNotation.parse(p, m, MoveNotation.Style.USI));
            }
            MoveNotation.parse(p, reply.move(), MoveNotation.Style.USI);
        }
    }

    @Test
    void aThirdRepetitionIsReportedAtOnceNotAsASilentHang() throws Exception {
        try (XBoardClient c = XBoardClient.start(gnushogi(List.of()), SHOGI)) {
            c.newGame();
            List<String> moves = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                moves.addAll(List.of("5i5h", "5a5b", "5h5i", "5b5a"));
            }
            long t0 = System.nanoTime();
            Reply reply = c.think(request(moves, 300), 5_000);
            // GNU Shogi stops a game at the third occurrence of a position (found by hand: it no longer echoes moves)
            assertEquals(Reply.Kind.CRASH, reply.kind(), reply.toString());
            assertTrue(reply.detail().contains("third time"), reply.detail());
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 3_000, "the client waited for the timeout");
        }
    }

    @Test
    void refusesOtherRuleSetsAndOptionsWithAClearError() {
        EngineConfig plain = gnushogi(List.of());
        EngineException e = assertThrows(EngineException.class, () -> XBoardClient.start(plain, RuleSet.of("chess")));
        assertTrue(e.getMessage().contains("plays only shogi"), e.getMessage());
        EngineConfig withOption = gnushogi(List.of(Map.entry("memory", "64")));
        IllegalArgumentException o = assertThrows(IllegalArgumentException.class,
                () -> XBoardClient.start(withOption, SHOGI));
        assertTrue(o.getMessage().contains("takes no options"), o.getMessage());
    }

    @Test
    void playsAGameAgainstKomaThroughTheReferee() throws Exception {
        EngineConfig other = gnushogi(List.of());
        Match.Config config = new Match.Config(SHOGI, MatchTest.koma(SHOGI, "Koma"), other, 1,
                TimeControl.moveTime(200), 500, 40, 1, Opening.random(SHOGI, 2, 5, 1), null, null, null, "test");
        Match.Summary s = MatchTest.run(config).summary();
        assertTrue(s.name2().startsWith("GNU Shogi"), s.name2());
        RefereedGame g = s.games().get(0);
        assertFalse(Set.of(GameResult.ILLEGAL_MOVE, GameResult.TIME_FORFEIT, GameResult.ENGINE_CRASH)
                .contains(g.result().termination()), g.result().toString());
        assertTrue(g.moves().size() > 10, "too few moves: " + g.result());
        assertTrue(g.moveTimesMs().stream().allMatch(t -> t < 200 + 500), "overran: " + g.moveTimesMs());
    }
}
