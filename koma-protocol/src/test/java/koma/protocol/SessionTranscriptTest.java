package koma.protocol;

import static koma.protocol.Transcript.field;
import static koma.protocol.Transcript.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Exact transcripts of the well-formed UCI/USI commands of EngineSession: handshakes, options, position and d. */
class SessionTranscriptTest {
    /**
     * RULES.md 9.1 and minishogi, written out here rather than taken from RuleSet.IDS so that the test checks the
     * contract.
     */
    private static final List<String> RULE_SETS =
            List.of("chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi");

    @Test
    void uciHandshake() {
        assertEquals("""
                id name Koma 0.1.0
                id author the Koma developers
                option name Hash type spin default 16 min 1 max 4096
                option name Ponder type check default false
                option name Threads type spin default 1 min 1 max 64
                option name MultiPV type spin default 1 min 1 max 256
                option name Contempt type spin default 0 min -500 max 500
                option name Skill Level type spin default 20 min 0 max 20
                option name UCI_LimitStrength type check default false
                option name Use NNUE type check default true
                option name EvalFile type string default <built-in>
                option name UCI_Elo type spin default 2045 min 735 max 2045
                option name UCI_Variant type combo default chess var chess var shogi var washogi var washogi-drops \
                var shodo var shodo-deathmatch var minishogi
                uciok
                """, Transcript.uci("uci"));
    }

    // The combo lists each of the seven identifiers exactly once, and nothing else.
    @Test
    void uciVariantComboListsExactlyTheSevenRuleSets() {
        String option = Transcript.uci("uci").lines().filter(l -> l.startsWith("option name UCI_Variant ")).findFirst().orElseThrow();
        String[] w = option.split(" ");
        List<String> vars = new java.util.ArrayList<>();
        for (int i = 0; i < w.length - 1; i++) {
            if (w[i].equals("var")) {
                vars.add(w[i + 1]);
            }
        }
        assertEquals(RULE_SETS.stream().sorted().toList(), vars.stream().sorted().toList());
        assertTrue(option.contains(" type combo default chess "), option);
    }

    @Test
    void usiHandshake() {
        assertEquals("""
                id name Koma 0.1.0
                id author the Koma developers
                option name USI_Hash type spin default 16 min 1 max 4096
                option name USI_Ponder type check default false
                option name Threads type spin default 1 min 1 max 64
                option name MultiPV type spin default 1 min 1 max 256
                option name Contempt type spin default 0 min -500 max 500
                option name Skill Level type spin default 20 min 0 max 20
                option name UCI_LimitStrength type check default false
                option name Use NNUE type check default true
                option name EvalFile type string default <built-in>
                option name UCI_Elo type spin default 2045 min 735 max 2045
                usiok
                """, Transcript.usi("usi"));
    }

    @Test
    void isreadyAnswersEveryTime() {
        assertEquals("readyok\nreadyok\n", Transcript.uci("isready", "", "   ", "isready"));
        assertEquals("readyok\n", Transcript.usi("isready"));
    }

    @Test
    void uciSessionFlowPrintsOnlyWhatIsAsked() {
        // setoption, ucinewgame and position print nothing when they succeed
        assertEquals("readyok\n", Transcript.uci("ucinewgame",
                "setoption name UCI_Variant value shogi", "position startpos moves c3c4", "stop", "isready"));
    }

    // Each rule set is chosen with setoption and starts from its RULES.md start position (FEN of 9.2).
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "chess            | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "shogi            | lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
        "washogi          | hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - - 0 1",
        "washogi-drops    | hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH[] w - - 0 1",
        "shodo            | nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w - - 0 1",
        "shodo-deathmatch | nnn2nnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNN2NNN w - - 0 1",
    })
    void setoptionChoosesEachRuleSet(String variant, String startFen) {
        String out = Transcript.uci("setoption name UCI_Variant value " + variant, "d", "position startpos", "d", "isready");
        assertEquals(List.of(startFen, startFen), fields(out, "Fen: "));
        assertFalse(out.contains("info string error"), out);
        assertTrue(out.endsWith("readyok\n"));
    }

    // Switching rule sets discards the old position: the new start position is current at once.
    @Test
    void setoptionResetsToTheNewStartPosition() {
        String out = Transcript.uci("position startpos moves e2e4", "setoption name UCI_Variant value shodo", "d");
        assertEquals("nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w - - 0 1", field(out, "Fen: "));
    }

    @Test
    void usiAcceptsShogiAsItsOnlyVariant() {
        assertEquals("readyok\n", Transcript.usi("setoption name UCI_Variant value shogi", "isready"));
    }

    @Test
    void newGameReturnsToTheStartPosition() {
        assertEquals("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                field(Transcript.uci("position startpos moves e2e4 e7e5", "ucinewgame", "d"), "Fen: "));
        assertEquals("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                field(Transcript.usi("position startpos moves 7g7f", "usinewgame", "d"), "Sfen: "));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "chess | position startpos moves e2e4 e7e5 g1f3 | rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        // castling is the king's move (RULES.md 9.3)
        "chess | position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 | r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1",
        "chess | position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q | Q7/7k/8/8/8/8/8/K7 b - - 0 1",
        "shogi | position startpos moves c3c4 g7g6 b2h8+ | lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b - - 0 2",
        "shogi | position startpos moves c3c4 g7g6 b2h8+ g9h8 B@e5 | lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL[b] b - - 1 3",
        "washogi | position startpos moves d4d5 d8d7 | hmlcvkwgudo/1e3s3f1/ppprpppxppp/7p3/3p7/11/3P7/7P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - - 0 2",
        "shodo-deathmatch | position startpos moves b2c4 b7c5 | nnn2nnn/n1nnnnnn/8/2n5/2N5/8/N1NNNNNN/NNN2NNN w - - 2 2",
        // Shodo: a knight reaching the last rank may become a queen (suffix q) or stay a knight (no suffix)
        "shodo | position fen 3qk3/1N6/8/8/8/8/8/3QK3 w - - 0 1 moves b7d8q | 3Qk3/8/8/8/8/8/8/3QK3 b - - 0 1",
        "shodo | position fen 3qk3/1N6/8/8/8/8/8/3QK3 w - - 0 1 moves b7d8 | 3Nk3/8/8/8/8/8/8/3QK3 b - - 0 1",
    })
    void uciPositionWithMoves(String variant, String command, String fen) {
        String out = Transcript.uci("setoption name UCI_Variant value " + variant, command, "d");
        assertFalse(out.contains("info string error"), out);
        assertEquals(fen, field(out, "Fen: "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "position startpos moves 7g7f 3c3d | lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d"
                + " | lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e | lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6",
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P 1 moves P*5e | 4k4/9/9/9/4P4/9/9/9/4K4 w P 2",
    })
    void usiPositionWithMoves(String command, String sfen) {
        String out = Transcript.usi(command, "d");
        assertFalse(out.contains("info string error"), out);
        assertEquals(sfen, field(out, "Sfen: "));
    }

    // The whole d transcript for chess: board from the first player's side, then Fen:, Key: and Checkers:.
    @Test
    void displayChessStartExactly() {
        String out = Transcript.uci("d");
        String key = field(out, "Key: ");
        assertTrue(key.matches("[0-9A-F]{16}"), key);
        assertEquals("""
                 +----+----+----+----+----+----+----+----+
                 |  r |  n |  b |  q |  k |  b |  n |  r | 8
                 +----+----+----+----+----+----+----+----+
                 |  p |  p |  p |  p |  p |  p |  p |  p | 7
                 +----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |    | 6
                 +----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |    | 5
                 +----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |    | 4
                 +----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |    | 3
                 +----+----+----+----+----+----+----+----+
                 |  P |  P |  P |  P |  P |  P |  P |  P | 2
                 +----+----+----+----+----+----+----+----+
                 |  R |  N |  B |  Q |  K |  B |  N |  R | 1
                 +----+----+----+----+----+----+----+----+
                    a    b    c    d    e    f    g    h\s

                Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
                Key: %s
                Checkers:\s
                """.formatted(key), out);
    }

    // USI d: shogi coordinates (files 9..1, ranks a..i), both hands, and Sfen: instead of Fen:.
    @Test
    void displayShogiUsiExactly() {
        String out = Transcript.usi("position startpos moves 7g7f 3c3d 8h2b+", "d");
        String key = field(out, "Key: ");
        assertEquals("""
                 Second player's hand: -
                 +----+----+----+----+----+----+----+----+----+
                 |  l |  n |  s |  g |  k |  g |  s |  n |  l | a
                 +----+----+----+----+----+----+----+----+----+
                 |    |  r |    |    |    |    |    | +B |    | b
                 +----+----+----+----+----+----+----+----+----+
                 |  p |  p |  p |  p |  p |  p |    |  p |  p | c
                 +----+----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |  p |    |    | d
                 +----+----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |    |    | e
                 +----+----+----+----+----+----+----+----+----+
                 |    |    |  P |    |    |    |    |    |    | f
                 +----+----+----+----+----+----+----+----+----+
                 |  P |  P |    |  P |  P |  P |  P |  P |  P | g
                 +----+----+----+----+----+----+----+----+----+
                 |    |    |    |    |    |    |    |  R |    | h
                 +----+----+----+----+----+----+----+----+----+
                 |  L |  N |  S |  G |  K |  G |  S |  N |  L | i
                 +----+----+----+----+----+----+----+----+----+
                    9    8    7    6    5    4    3    2    1\s
                 First player's hand: B

                Sfen: lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4
                Key: %s
                Checkers:\s
                """.formatted(key), out);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "chess | 4k3/8/8/8/8/8/8/4R2K b - - 0 1 | e1",
        // double check: sorted square names
        "chess | 4k3/8/8/8/B7/8/8/4R2K b - - 0 1 | a4 e1",
        "shodo | 4k3/8/3N4/8/8/8/8/4K3 b - - 0 1 | d6",
        "chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | ''",
    })
    void displayCheckers(String variant, String fen, String checkers) {
        String out = Transcript.uci("setoption name UCI_Variant value " + variant, "position fen " + fen, "d");
        assertEquals(checkers, field(out, "Checkers: "));
    }

    @Test
    void displayCheckersInUsiCoordinates() {
        assertEquals("5i", field(Transcript.usi("position sfen 4k4/9/9/9/9/9/9/9/4R3K w - 1", "d"), "Checkers: "));
    }

    // The Zobrist key depends on the position only: a knight tour back to the start gives the start key again.
    @Test
    void keyFollowsThePosition() {
        String out = Transcript.uci("d", "position startpos moves g1f3 g8f6 f3g1 f6g8", "d", "position startpos moves e2e4", "d");
        List<String> keys = fields(out, "Key: ");
        assertEquals(3, keys.size());
        assertEquals(keys.get(0), keys.get(1), "same placement, side and rights: same key");
        assertNotEquals(keys.get(0), keys.get(2), "a pawn move changes the key");
    }

    // UCI and USI name the same shogi position with the same key.
    @Test
    void keyIsTheSameInUciAndUsi() {
        String uci = Transcript.uci("setoption name UCI_Variant value shogi", "position startpos moves c3c4 g7g6", "d");
        String usi = Transcript.usi("position startpos moves 7g7f 3c3d", "d");
        assertEquals(field(uci, "Key: "), field(usi, "Key: "));
    }

    @Test
    void handleReturnsFalseOnlyForQuit() {
        EngineSession s = new EngineSession(EngineSession.Dialect.UCI,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(s.handle("isready"));
        assertTrue(s.handle("no-such-command"));
        assertTrue(s.handle(""));
        assertFalse(s.handle("quit"));
        assertFalse(s.handle("  quit  "));
    }
}
