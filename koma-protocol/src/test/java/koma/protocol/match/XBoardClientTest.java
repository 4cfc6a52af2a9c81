package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.AssertionFailedError;

/**
 * The XBoard client in real matches: Koma's own XBoard dialect against Koma over UCI/USI in every rule set (both
 * protocols must agree on every move), and Sjaak II and HaChu from Debian in Wa shogi when they are installed.
 */
class XBoardClientTest {
    /** HaChu's hash size, and its permission to repeat positions, which Wa shogi allows and HaChu otherwise refuses. */
    static final List<Map.Entry<String, String>> HACHU_OPTIONS = List.of(Map.entry("memory", "32"),
            Map.entry("Allow repeats", "1"));
    /**
     * HACHU_OPTIONS and "Promote on entry" off, as koma match's HaChu command in the README: HaChu by default refuses a
     * promotion Wa shogi allows and Chu shogi does not (stop 53; hachuTakesWaPromotionsWithPromoteOnEntryOff).
     */
    static final List<Map.Entry<String, String>> HACHU_WA_OPTIONS = Stream.concat(HACHU_OPTIONS.stream(),
            Stream.of(Map.entry("Promote on entry", "0"))).toList();

    static EngineConfig xboard(String name) {
        return new EngineConfig(TestEngineMain.command("xboard"), EngineConfig.Protocol.XBOARD, name, List.of());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void komaOverXBoardAgainstKoma(String variant, @TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of(variant);
        Path pgn = dir.resolve("games.pgn");
        Match.Config config = new Match.Config(rs, xboard("Koma-XB"), MatchTest.koma(rs, "Koma"), 2,
                TimeControl.depth(2), 50, 120, 1, Opening.random(rs, 4, 2, 1), pgn, null, null, "test");
        Match.Summary s = MatchTest.run(config).summary();
        assertEquals(2, s.games().size());
        for (RefereedGame g : s.games()) {
            assertFalse(Set.of(GameResult.ILLEGAL_MOVE, GameResult.TIME_FORFEIT, GameResult.ENGINE_CRASH)
                    .contains(g.result().termination()), g.result().toString());
            assertTrue(g.moves().size() > 4, "no move was played: " + g.result());
        }
        assertTrue(Files.readString(pgn).contains("[Variant \"" + variant + "\"]") || variant.equals("chess"));
    }

    @Test
    void sjaakAndHachuPlayWaShogiThroughXBoard() throws Exception {
        RuleSet rs = RuleSet.of("washogi");
        for (String engine : List.of("/usr/games/sjaakii", "/usr/games/hachu")) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of(engine)), engine + " is not installed");
            // a real time per move: at a fixed depth of 2, HaChu (a king-capture engine) can leave its king in check;
            // HaChu also refuses repetitions unless told to allow them, and by default a promotion that Wa shogi
            // allows (the CI of stop 69 met one after net wa-r6l)
            List<Map.Entry<String, String>> options = engine.endsWith("hachu") ? HACHU_WA_OPTIONS
                    : List.of(Map.entry("memory", "32"));
            EngineConfig other = new EngineConfig(engine, EngineConfig.Protocol.XBOARD, null, options);
            Match.Config config = new Match.Config(rs, MatchTest.koma(rs, "Koma"), other, 1, TimeControl.moveTime(300),
                    1500, 40, 1, Opening.random(rs, 2, 1, 7), null, null, null, "test");
            Match.Summary s = MatchTest.run(config).summary();
            RefereedGame g = s.games().get(0);
            assertFalse(g.result().termination().equals(GameResult.ENGINE_CRASH), engine + ": " + g.result());
            if (g.result().termination().equals(GameResult.ILLEGAL_MOVE)) {
                // HaChu 0.21 searches by capturing kings and does not hold its crane king royal while it has a flying
                // falcon or a treacherous fox, so it may ignore a check or move a pinned piece (README, koma match);
                // the referee must then be right: the move is one of HaChu's own pieces to a square that piece
                // reaches in the referee's position, so the boards agree (the client did not desynchronise)
                assertTrue(engine.endsWith("hachu"), engine + ": " + g.result());
                assertOwnPieceMove(rs, g.finalPosition(), g.result().reason());
            }
            assertTrue(g.moves().size() > 10, engine + " played too few moves: " + g.result());
            assertTrue(g.moveTimesMs().stream().allMatch(t -> t < 1800), engine + " overran: " + g.moveTimesMs());
        }
    }

    /**
     * The check above on HaChu's refused moves of record: a pinned violent wolf moved off the falcon's diagonal (CI of
     * stop 59) and a pawn move that ignores a check (stop 60) pass; a move of the opponent's piece, of an empty square
     * and a move out of the piece's reach fail.
     */
    @Test
    void ownPieceMoveCheckTellsKingSafetyFromDesync() {
        RuleSet rs = RuleSet.of("washogi");
        Position pinned = Fen.parseFen(rs, "hmlcvk1gu2/1e3sw3o/ppp1ppp3p/3p4Epf/10x/11/6P4/3P3P2P/PPP1PP2PP1/"
                + "1FDG1SK1M2/O1U1W1VCL1H b - - 0 18");
        assertFalse(pinned.inCheck());
        assertOwnPieceMove(rs, pinned, "move 'g10g11': not a legal move");
        Position check = Fen.parseFen(rs, "hmlcvkw1udo/1es3g2f1/pppE1pp2pp/7pp2/3p5x1/11/7R3/3P3P3/PPP1PPP1PPP/"
                + "1F3S2M2/ODUGWKVCL1H b - - 2 11");
        assertTrue(check.inCheck());
        assertOwnPieceMove(rs, check, "move 'h8h7': not a legal move");
        for (String move : List.of("c3c4", "g7g6", "g10g8")) { // the opponent's sparrow, an empty square, out of reach
            assertThrows(AssertionFailedError.class, () -> assertOwnPieceMove(rs, pinned, "move '" + move + "'"),
                    move);
        }
    }

    /**
     * Asserts that the move an illegal-move result names ({@code move 'g10g11'}) takes a piece of the side to move in
     * {@code pos} to a square that piece attacks there: a move that breaks only the king's safety. A move of an empty
     * square, of the opponent's piece or to a square out of the piece's reach means the engine's board and the
     * referee's differ.
     */
    static void assertOwnPieceMove(RuleSet rs, Position pos, String reason) {
        Matcher m = Pattern.compile("move '([a-z]\\d+)([a-z]\\d+)\\+?'").matcher(reason);
        assertTrue(m.find(), "no board move named in: " + reason);
        int from = Fen.parseSquare(rs.geometry, m.group(1), "from");
        int to = Fen.parseSquare(rs.geometry, m.group(2), "to");
        assertTrue(pos.attackers(to, pos.sideToMove()).contains(from), "the illegal move is not a move of the side to "
                + "move's own piece in the referee's position, so the boards differ: " + reason + " in "
                + Fen.formatFen(pos));
    }

    /**
     * HaChu plays Wa shogi with Chu shogi's "promote on entry" rule unless told otherwise: a non-capture may promote
     * only when it enters the zone. RULES.md 3.4 lets any move that starts in, ends in or stays within the zone
     * promote, so HaChu refused two of Koma's legal promotions in stop 52 (hachu-wa-promotions.txt) and the match
     * scored them as HaChu's crashes. With {@code Promote on entry=0} HaChu takes both and answers with a move; with
     * its default it refuses them, which shows the option is what makes the difference.
     */
    @Test
    void hachuTakesWaPromotionsWithPromoteOnEntryOff() throws Exception {
        String hachu = "/usr/games/hachu";
        Assumptions.assumeTrue(Files.isExecutable(Path.of(hachu)), hachu + " is not installed");
        RuleSet rs = RuleSet.of("washogi");
        Path file = Path.of(XBoardClientTest.class.getResource("/hachu-wa-promotions.txt").toURI());
        // readFile plays every move through Koma's rules, so both refused promotions are legal there
        List<Opening> games = Opening.readFile(rs, file);
        assertEquals(2, games.size());
        for (Opening game : games) {
            Position pos = game.root().copy();
            List<String> moves = new ArrayList<>();
            for (int m : game.moves()) {
                moves.add(MoveNotation.format(pos, m, MoveNotation.Style.UCI));
                pos.doMove(m);
            }
            assertTrue(moves.get(moves.size() - 1).endsWith("+"), "each game ends with Koma's promotion");
            for (boolean off : new boolean[] {true, false}) {
                List<Map.Entry<String, String>> options = off ? HACHU_WA_OPTIONS : HACHU_OPTIONS;
                EngineConfig config = new EngineConfig(hachu, EngineConfig.Protocol.XBOARD, null, options);
                try (EngineClient c = EngineClient.start(config, rs)) {
                    c.newGame();
                    Reply r = c.think(new ThinkRequest(game.root(), game.fromStart(), moves, moves, pos.sideToMove(),
                            TimeControl.moveTime(200), new long[] {200, 200}), 5000);
                    String last = moves.get(moves.size() - 1);
                    if (off) {
                        assertEquals(Reply.Kind.MOVE, r.kind(), last + " with Promote on entry=0: " + r);
                    } else {
                        assertEquals(Reply.Kind.CRASH, r.kind(), last + " with HaChu's default: " + r);
                        assertTrue(r.detail().contains("Illegal move"), r.detail());
                    }
                }
            }
        }
    }
}
