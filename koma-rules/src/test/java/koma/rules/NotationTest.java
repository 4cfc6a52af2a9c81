package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;

import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.MoveNotation.Style;
import koma.rules.notation.NotationException;
import koma.rules.notation.San;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FEN, SFEN, UCI/USI and SAN (RULES.md 9.2-9.3): every kind of bad input is refused with a
 * {@link NotationException} naming the field, every legal move round-trips through its notation, squares are
 * named as the rule book says, and seeded random mutations of valid strings never escape as anything but
 * IllegalArgumentException.
 */
class NotationTest {
    static final String START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    static final String SHOGI = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    static final String KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    static RuleSet rs(String id) {
        return RuleSet.of(id);
    }

    /** Asserts a NotationException whose message contains every fragment (the field and the reason). */
    static NotationException fails(Executable e, String... fragments) {
        NotationException ex = assertThrows(NotationException.class, e);
        for (String f : fragments) {
            assertTrue(ex.getMessage().contains(f), () -> "message '" + ex.getMessage() + "' should name '" + f + "'");
        }
        return ex;
    }

    // ------------------------------------------------------------------ FEN errors

    // each bad FEN is refused with a message naming the field
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            chess | rnbqkbnr/pppppppp/8/8                                                      | field 'board'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1                     | field 'board'
            chess | rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                         | field 'board'
            chess | rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                      | rank 1 from the top
            chess | rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                        | rank 1 from the top
            chess | rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                       | rank 3 from the top
            chess | rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                      | rank 3 from the top
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1                       | unknown piece letter 'X'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBGKBNR w - - 0 1                       | unknown piece letter 'G'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP+P/RNBQKBNR w - - 0 1                      | unknown piece letter '+P'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 x                     | extra field 'x'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR                                | field 'side to move'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1                    | field 'side to move'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1                    | field 'side to move'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1                    | field 'castling'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1                     | field 'castling'
            chess | 4k3/8/8/8/8/8/8/4K3 w K - 0 1                                              | castling right 'K'
            chess | r3k3/8/8/8/8/8/8/4K2R w Qq - 0 1                                           | castling right 'Q'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1                   | field 'en passant'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq zz 0 1                   | field 'en passant'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1                   | en-passant square e4
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1                   | en-passant square e6
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1                   | field 'halfmove clock'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1                    | field 'halfmove clock'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0                    | field 'fullmove number'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -2                   | field 'fullmove number'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1x                   | field 'fullmove number'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1          | field 'halfmove clock'
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1                       | 2 kings
            chess | rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1                       | 0 kings
            chess | 4k3/8/8/8/8/8/8/4R2K w - - 0 1                                             | side not to move is in check
            chess | P3k3/8/8/8/8/8/8/4K3 w - - 0 1                                             | pawn on a8
            chess | 4k3/8/8/8/8/8/8/p3K3 w - - 0 1                                             | pawn on a1
            chess | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w - - 0 1                    | field 'holdings'
            washogi | 5k5/11/11/11/11/11/11/11/11/11/5K5[P] w - - 0 1                          | field 'holdings'
            washogi-drops | 5k5/11/11/11/11/11/11/11/11/11/5K5[K] w - - 0 1                    | cannot be in hand
            washogi-drops | 5k5/11/11/11/11/11/11/11/11/11/5K5[+P] w - - 0 1                   | field 'holdings'
            washogi-drops | 5k5/11/11/11/11/11/11/11/11/11/5K5[P w - - 0 1                     | field 'holdings'
            washogi-drops | P4k5/11/11/11/11/11/11/11/11/11/5K5[] w - - 0 1                    | sparrow pawn on a11
            washogi-drops | O4k5/11/11/11/11/11/11/11/11/11/5K5[] w - - 0 1                    | oxcart on a11
            washogi-drops | 5k5/11/11/11/11/11/11/11/11/11/5K5/11[] w - - 0 1                  | field 'board'
            washogi-drops | 5k6/11/11/11/11/11/11/11/11/11/5K5[] w - - 0 1                     | rank 1 from the top
            shodo | nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w KQkq - 0 1                   | castling
            shodo | nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNPKNNN w - - 0 1                      | unknown piece letter 'P'
            shodo-deathmatch | nnnqknnn/nnnnnnnn/8/8/8/8/NNNNNNNN/NNNQKNNN w - - 0 1           | unknown piece letter 'q'
            """)
    void badFenIsRefusedNamingTheField(String id, String fen, String fragment) {
        fails(() -> Fen.parseFen(rs(id), fen), fragment);
        fails(() -> Fen.parse(rs(id), fen), fragment);
    }

    // BUG reproducer: a piece letter after a rank is already full is silently dropped instead of refused
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            chess   | rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
            chess   | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRQ w KQkq - 0 1
            chess   | 4k3/8/8/8/8/8/8/4K2RQQQ w - - 0 1
            shogi   | lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+P b - 1
            washogi | hmlcvkwgudoP/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - - 0 1
            """)
    void rankWithAPieceBeyondTheLastFileIsRefused(String id, String fen) {
        fails(() -> Fen.parse(rs(id), fen), "field 'board'", "rank");
    }

    @Test
    void nullBlankAndOversizedFenAreRefused() {
        fails(() -> Fen.parse(rs("chess"), null), "empty");
        fails(() -> Fen.parse(rs("chess"), "   "), "empty");
        fails(() -> Fen.parseSfen(rs("shogi"), ""), "empty");
        fails(() -> Fen.parse(rs("chess"), START + "/8".repeat(5000) + " w - - 0 1"), "longer than");
        fails(() -> Fen.parse(rs("chess"), "8".repeat(10_000)), "longer than");
    }

    @Test
    void validPositionsAreAccepted() {
        // the counterparts of the refusals above: a liberated horse may stand on the last rank (RULES.md 3.4),
        // an e.p. square after a real double step is kept, and the Sjaak II short form is read
        String horse = "5kH4/11/11/11/11/11/11/11/11/11/5K5[] w - - 0 1";
        assertEquals(horse, Fen.format(Fen.parse(rs("washogi-drops"), horse)));
        Position ep = Fen.parse(rs("chess"), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assertEquals("f6", Fen.squareName(ep.geometry(), ep.enPassantSquare()));
        Position shortForm = Fen.parse(rs("washogi"), RuleSet.of("washogi").startFen.split(" ")[0] + " w 0 1");
        assertEquals(Position.start(rs("washogi")).key(), shortForm.key());
    }

    // ------------------------------------------------------------------ SFEN errors

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            b 0P 1       | field 'hand'
            b 1P 1       | field 'hand'
            b 2 1        | count without a piece letter
            b P2 1       | count without a piece letter
            b K 1        | king cannot be in hand
            b +P 1       | field 'hand'
            b X 1        | unknown piece letter 'X'
            b 64P 1      | impossible count
            b 100P 1     | impossible count
            x - 1        | field 'side to move'
            B - 1        | field 'side to move'
            b - 0        | field 'move number'
            b - x        | field 'move number'
            b - 1 1      | extra field
            """)
    void badSfenIsRefusedNamingTheField(String tail, String fragment) {
        fails(() -> Fen.parseSfen(rs("shogi"), SHOGI + " " + tail), fragment);
    }

    @Test
    void badSfenBoardIsRefused() {
        fails(() -> Fen.parseSfen(rs("shogi"), "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1"), "two unpromoted pawns", "file e");
        fails(() -> Fen.parseSfen(rs("shogi"), "4k4/9/9/9/9/9/9/9/4K4 w - 1".replace("4k4/", "4k3+/")), "'+' not followed");
        fails(() -> Fen.parseSfen(rs("shogi"), "4k3P/9/9/9/9/9/9/9/4K4 w - 1"), "pawn on i9");
        fails(() -> Fen.parseSfen(rs("shogi"), "4k2N1/9/9/9/9/9/9/9/4K4 w - 1"), "knight on h9");
        fails(() -> Fen.parseSfen(rs("shogi"), "4k4/7N1/9/9/9/9/9/9/4K4 w - 1"), "knight on h8");
        fails(() -> Fen.parseSfen(rs("shogi"), "sfen " + SHOGI + " b - 1"), "without the word 'sfen'");
        fails(() -> Fen.parseSfen(rs("shogi"), SHOGI), "field 'side to move'");
        fails(() -> Fen.parseSfen(rs("washogi"), RuleSet.of("washogi").startFen.split(" ")[0] + " b P 1"), "no drops");
        // a tokin does not count for nifu
        assertEquals("4k4/9/9/9/9/4+P4/4P4/9/4K4 b - 1",
                Fen.format(Fen.parseSfen(rs("shogi"), "4k4/9/9/9/9/4+P4/4P4/9/4K4 b - 1")));
    }

    @Test
    void sfenHandIsReadAndWrittenInShogiOrder() {
        Position p = Fen.parse(rs("shogi"), "4k4/9/9/9/9/9/9/9/4K4 b P2GRbl3p 1");
        RuleSet s = rs("shogi");
        assertEquals(2, p.handCount(0, s.typeOf("G")));
        assertEquals(3, p.handCount(1, s.typeOf("P")));
        assertEquals("4k4/9/9/9/9/9/9/9/4K4 b R2GPbl3p 1", Fen.format(p));
        assertEquals("4k4/9/9/9/9/9/9/9/4K4[RGGPblppp] w - - 0 1", Fen.formatFen(p));
    }

    // ------------------------------------------------------------------ move string errors

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(delimiter = '|', textBlock = """
            chess         | UCI | e2          | malformed
            chess         | UCI | e2-e4       | malformed
            chess         | UCI | E2E4        | malformed
            chess         | UCI | e2e4qq      | malformed
            chess         | UCI | e2e4Q       | malformed
            chess         | UCI | 1234567890123 | expected a move
            chess         | UCI | e2e9        | not a legal move
            chess         | UCI | e2e5        | not a legal move
            chess         | UCI | e2e4q       | not a legal move
            chess         | UCI | e1g1        | not a legal move
            chess         | UCI | P@e4        | not a legal move
            chess         | UCI | 7g7f        | malformed
            shogi         | USI | 7g7         | malformed
            shogi         | USI | 7g-7f       | malformed
            shogi         | USI | e2e4        | malformed
            shogi         | USI | 7g7f+       | not a legal move
            shogi         | USI | 7g7e        | not a legal move
            shogi         | USI | 0g0f        | not a legal move
            shogi         | USI | 7j7i        | not a legal move
            shogi         | USI | P*5e        | not a legal move
            shogi         | USI | p*5e        | malformed
            shogi         | USI | P@5e        | malformed
            shogi         | UCI | j1j2        | not a legal move
            shogi         | UCI | c3c4q       | not a legal move
            washogi       | UCI | a3a4+       | not a legal move
            washogi       | UCI | a3a12       | not a legal move
            washogi       | UCI | l3l4        | not a legal move
            washogi       | UCI | P@e5        | not a legal move
            washogi-drops | UCI | P@e5        | not a legal move
            washogi-drops | UCI | P*e5        | malformed
            shodo         | UCI | b2c4q       | not a legal move
            shodo         | UCI | b2b4        | not a legal move
            shodo-deathmatch | UCI | a2b4q    | not a legal move
            """)
    void badMoveStringIsRefusedNamingTheMove(String id, Style style, String move, String fragment) {
        Position p = Position.start(rs(id));
        String before = Fen.formatFen(p);
        fails(() -> MoveNotation.parse(p, move, style), "move '" + move.substring(0, Math.min(move.length(), 40)), fragment);
        assertEquals(before, Fen.formatFen(p), "a failed parse leaves the position alone");
    }

    @Test
    void nullAndEmptyMoveStringsAreRefused() {
        Position p = Position.start(rs("chess"));
        fails(() -> MoveNotation.parseUci(p, null), "expected a move");
        fails(() -> MoveNotation.parseUci(p, ""), "expected a move");
        fails(() -> San.parse(p, null), "SAN move");
        fails(() -> San.parse(p, " "), "SAN move");
    }

    @Test
    void dropOfPieceNotInHandIsRefused() {
        // sente holds only a gold: a silver or pawn drop is not a legal move
        Position p = Fen.parse(rs("shogi"), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
        fails(() -> MoveNotation.parseUsi(p, "S*5e"), "not a legal move");
        fails(() -> MoveNotation.parseUsi(p, "P*5e"), "not a legal move");
        assertEquals("G*5e", MoveNotation.formatUsi(p, MoveNotation.parseUsi(p, "G*5e")));
        // a drop names the piece in upper case whichever side drops (RULES.md 9.3)
        Position gote = Fen.parse(rs("shogi"), "4k4/9/9/9/9/9/9/9/4K4 w g 1");
        assertEquals("G*5e", MoveNotation.formatUsi(gote, MoveNotation.parseUsi(gote, "G*5e")));
        fails(() -> MoveNotation.parseUsi(gote, "g*5e"), "malformed");
    }

    // ------------------------------------------------------------------ SAN errors

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Nf        | malformed
            e         | malformed
            xe4       | not a legal move
            N@f3      | malformed
            Nf3=      | malformed
            e9        | off the 8x8 board
            Ke2       | not a legal move
            e5        | not a legal move
            Nf4       | not a legal move
            e4=Q      | not a legal move
            Zf3       | not a legal move
            O-O       | castling is not legal
            O-O-O-O   | malformed
            abcdefghijklmnopq | expected a move
            """)
    void badSanIsRefused(String san, String fragment) {
        Position p = Position.start(rs("chess"));
        fails(() -> San.parse(p, san), "SAN move '", fragment);
    }

    // BUG reproducer: a piece capture without disambiguation ("Nxg6") is read as coming from file 'x'
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Nxg6 | e5g6
            Qxf6 | f3f6
            Bxa6 | e2a6
            Nexg6 | e5g6
            N5xg6 | e5g6
            """)
    void sanReadsPieceCaptures(String san, String uci) {
        Position p = Fen.parse(rs("chess"), KIWIPETE);
        assertEquals(MoveNotation.parseUci(p, uci), San.parse(p, san), san);
    }

    @Test
    void ambiguousSanIsRefusedAndDisambiguatedSanIsRead() {
        // knights b1 and f1 both reach d2
        Position p = Fen.parse(rs("chess"), "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        fails(() -> San.parse(p, "Nd2"), "ambiguous", "2 legal moves");
        int fromB = San.parse(p, "Nbd2"), fromF = San.parse(p, "Nfd2");
        assertNotEquals(fromB, fromF);
        assertEquals("Nbd2", San.format(p, fromB));
        assertEquals("Nfd2", San.format(p, fromF));
        assertEquals(fromB, San.parse(p, "Nb1d2"), "over-disambiguated SAN is accepted");
        assertEquals(fromB, San.parse(p, "Nb1-d2".replace("-", "")));
        // three knights: b1, f1 and b3 all reach d2, so b1 needs the full square, b3 and f1 one coordinate
        Position q = Fen.parse(rs("chess"), "4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1");
        fails(() -> San.parse(q, "Nbd2"), "ambiguous");
        assertEquals("Nb1d2", San.format(q, San.parse(q, "Nb1d2")));
        assertEquals("N3d2", San.format(q, San.parse(q, "N3d2")));
        assertEquals("Nfd2", San.format(q, San.parse(q, "Nfd2")));
    }

    // ------------------------------------------------------------------ round trips

    static Stream<String> sanPositions() {
        return Stream.of(
                "chess|" + rs("chess").startFen,
                "chess|" + KIWIPETE,
                "chess|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "chess|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                "chess|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                "chess|n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                "chess|rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                "chess|4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1",
                "chess|3Q4/8/8/8/8/8/3Q1Q2/k3K3 w - - 0 1",
                "shodo|" + rs("shodo").startFen,
                "shodo|1n1nk3/8/2N5/8/8/8/8/4K3 w - - 0 1",
                "shodo|7k/8/1N1N4/8/8/8/8/4K3 w - - 0 1",
                "shodo|4k3/8/8/8/4q3/5n2/8/4K3 w - - 0 1");
    }

    // SAN format -> parse gives back every legal move, and no two legal moves share a SAN string
    @ParameterizedTest
    @MethodSource("sanPositions")
    void sanRoundTripsEveryLegalMove(String spec) {
        String[] s = spec.split("\\|");
        Position p = Fen.parse(rs(s[0]), s[1]);
        assertSanRoundTrip(p);
    }

    @Test
    void sanRoundTripsAlongRandomWalks() {
        for (String id : List.of("chess", "shodo", "shodo-deathmatch")) {
            List<Position> ps = RandomWalks.positions(id);
            for (int i = 0; i < ps.size(); i += 2) {
                assertSanRoundTrip(ps.get(i).copy());
            }
        }
    }

    static void assertSanRoundTrip(Position p) {
        String fen = Fen.formatFen(p);
        Map<String, Integer> seen = new HashMap<>();
        for (int m : p.legalMoves()) {
            String san = San.format(p, m);
            Integer old = seen.put(san, m);
            assertEquals(null, old, () -> "two moves write as " + san + " in " + fen);
            assertEquals(m, San.parse(p, san), () -> san + " in " + fen);
            assertEquals(m, San.parse(p, san.replaceAll("[+#]$", "")), () -> san + " without check mark in " + fen);
            assertEquals(fen, Fen.formatFen(p));
        }
    }

    @Test
    void sanWritesChecksMatesCastlingPromotionAndEnPassant() {
        Position p = Fen.parse(rs("chess"), KIWIPETE);
        assertEquals("O-O", San.format(p, San.parse(p, "0-0")));
        assertEquals("O-O-O", San.format(p, San.parse(p, "O-O-O")));
        Position pr = Fen.parse(rs("chess"), "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
        assertEquals("gxh1=Q", San.format(pr, San.parse(pr, "gxh1Q")));
        Position ep = Fen.parse(rs("chess"), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        int exf6 = San.parse(ep, "exf6");
        assertEquals(Move.EN_PASSANT, Move.kind(exf6));
        Position mate = Position.start(rs("chess"));
        for (String m : List.of("f3", "e5", "g4")) {
            mate.doMove(San.parse(mate, m));
        }
        assertEquals("Qh4#", San.format(mate, San.parse(mate, "Qh4")));
        Position shodo = Fen.parse(rs("shodo"), "k7/1N6/8/8/8/8/8/7K w - - 0 1");
        assertEquals(Move.PROMOTION, Move.kind(San.parse(shodo, "Nd8=Q")));
        assertEquals(Move.NORMAL, Move.kind(San.parse(shodo, "Nd8")));
        assertEquals("Nd8=Q+", San.format(shodo, San.parse(shodo, "Nd8Q")));
    }

    // UCI and USI format -> parse give back every legal move along random walks of every rule set
    @ParameterizedTest
    @MethodSource("koma.rules.InvariantTest#ids")
    void uciAndUsiRoundTripAlongRandomWalks(String id) {
        for (Position p : RandomWalks.positions(id)) {
            for (Style style : Style.values()) {
                Map<String, Integer> seen = new HashMap<>();
                for (int m : p.legalMoves()) {
                    String s = MoveNotation.format(p, m, style);
                    assertEquals(null, seen.put(s, m), () -> style + " string " + s + " used twice in " + Fen.format(p));
                    assertEquals(m, MoveNotation.parse(p, s, style), () -> style + " " + s + " in " + Fen.format(p));
                }
            }
        }
    }

    @Test
    void movesAreWrittenAsTheRuleBookSays() {
        Position chess = Position.start(rs("chess"));
        assertEquals("e2e4", MoveNotation.formatUci(chess, MoveNotation.parseUci(chess, "e2e4")));
        Position shogi = Position.start(rs("shogi"));
        int m = MoveNotation.parseUsi(shogi, "7g7f");
        assertEquals("c3c4", MoveNotation.formatUci(shogi, m), "USI 7g7f is UCI c3c4");
        Position wa = Position.start(rs("washogi"));
        int h = MoveNotation.parseUci(wa, "k3k4");
        assertEquals("1i1h", MoveNotation.formatUsi(wa, h), "Wa k3 = 1i, k4 = 1h");
        // Wa promotion suffix '+' (sparrow a9 entering a10), Shodo 'q'
        Position wp = Fen.parse(rs("washogi"), "5k5/11/P10/11/11/11/11/11/11/11/5K5 w - - 0 1");
        assertEquals(Move.PROMOTION, Move.kind(MoveNotation.parseUci(wp, "a9a10+")));
        assertEquals(Move.NORMAL, Move.kind(MoveNotation.parseUci(wp, "a9a10")));
        assertEquals("11c11b+", MoveNotation.formatUsi(wp, MoveNotation.parseUci(wp, "a9a10+")));
        Position sp = Fen.parse(rs("shodo"), "k7/1N6/8/8/8/8/8/7K w - - 0 1");
        assertEquals("b7d8q", MoveNotation.formatUci(sp, MoveNotation.parseUci(sp, "b7d8q")));
    }

    // ------------------------------------------------------------------ squares

    @Test
    void squaresAreNamedAsTheRuleBookSays() {
        Geometry chess = rs("chess").geometry, shogi = rs("shogi").geometry, wa = rs("washogi").geometry;
        assertEquals("a1", Fen.squareName(chess, 0));
        assertEquals("h8", Fen.squareName(chess, 63));
        assertEquals("e4", Fen.squareName(chess, chess.square(4, 3)));
        assertEquals("k11", Fen.squareName(wa, wa.square(10, 10)));
        assertEquals("a10", Fen.squareName(wa, wa.square(0, 9)));
        assertEquals(wa.square(10, 10), Fen.parseSquare(wa, "k11", "test"));
        assertEquals(wa.square(0, 9), Fen.parseSquare(wa, "a10", "test"));
        // USI: a1 = 9i, i9 = 1a, e5 = 5e on 9x9; Wa a1 = 11k, f1 = 6k, k11 = 1a (RULES.md 2.1, 3.1)
        assertEquals("9i", MoveNotation.square(shogi, 0, Style.USI));
        assertEquals("1a", MoveNotation.square(shogi, shogi.square(8, 8), Style.USI));
        assertEquals("5e", MoveNotation.square(shogi, shogi.square(4, 4), Style.USI));
        assertEquals("7g", MoveNotation.square(shogi, shogi.square(2, 2), Style.USI));
        assertEquals("11k", MoveNotation.square(wa, 0, Style.USI));
        assertEquals("6k", MoveNotation.square(wa, wa.square(5, 0), Style.USI));
        assertEquals("1a", MoveNotation.square(wa, wa.square(10, 10), Style.USI));
        assertEquals("k11", MoveNotation.square(wa, wa.square(10, 10), Style.UCI));
        for (String bad : List.of("i10", "j1", "a0", "A1", "a", "a123", "", "1a", "a-1")) {
            fails(() -> Fen.parseSquare(shogi, bad, "test field"), "test field");
        }
    }

    // ------------------------------------------------------------------ fuzzing

    static final int FUZZ = 2000;
    static final String NOISE = "pnbrqkPNBRQKlsgLSGhmcuvwdoeXx+0123456789/[]-* @=#wb10\u00e9\u0663";

    /** A random mutation (1 to 3 edits) of a valid string. */
    static String mutate(String s, Random r) {
        StringBuilder sb = new StringBuilder(s);
        for (int e = 1 + r.nextInt(3); e > 0; e--) {
            int n = sb.length();
            int i = n == 0 ? 0 : r.nextInt(n);
            char c = NOISE.charAt(r.nextInt(NOISE.length()));
            switch (r.nextInt(7)) {
                case 0 -> { if (n > 0) sb.deleteCharAt(i); }
                case 1 -> sb.insert(i, c);
                case 2 -> { if (n > 0) sb.setCharAt(i, c); }
                case 3 -> { if (n > 1 && i + 1 < n) { char a = sb.charAt(i); sb.setCharAt(i, sb.charAt(i + 1)); sb.setCharAt(i + 1, a); } }
                case 4 -> sb.setLength(i);
                case 5 -> { int j = Math.min(n, i + 1 + r.nextInt(6)); sb.insert(i, sb.substring(i, j)); }
                default -> { int j = Math.min(n, i + r.nextInt(4)); sb.replace(i, j, String.valueOf(r.nextInt(200) - 50)); }
            }
        }
        return sb.toString();
    }

    /** Runs the parser on FUZZ mutations; only IllegalArgumentException may escape, and accepted input must work. */
    static <T> int fuzz(List<String> valid, long seed, Function<String, T> parse, BiConsumer<String, T> check) {
        Random r = new Random(seed);
        int accepted = 0;
        for (int i = 0; i < FUZZ; i++) {
            String s = mutate(valid.get(r.nextInt(valid.size())), r);
            T out;
            try {
                out = parse.apply(s);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage() != null && !expected.getMessage().isBlank(), "message for '" + s + "'");
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("parsing '" + s + "' threw " + e, e);
            }
            accepted++;
            try {
                check.accept(s, out);
            } catch (RuntimeException e) {
                throw new AssertionError("accepted '" + s + "' but the result fails: " + e, e);
            }
        }
        return accepted;
    }

    /** An accepted position must be whole: it round-trips, its key is exact, and its moves can be played. */
    static void usable(String input, Position p) {
        assertEquals(p.computeKey(), p.key());
        String board = input.strip().split("\\s+")[0].replaceAll("\\[.*", "");
        assertEquals(board.chars().filter(Character::isLetter).count(), p.pieceCount(0) + p.pieceCount(1),
                () -> "every piece letter of '" + input + "' is on the board of " + Fen.format(p));
        String fen = Fen.format(p);
        assertEquals(fen, Fen.format(Fen.parse(p.ruleSet(), fen)), () -> "accepted '" + input + "' round-trips");
        for (int m : p.legalMoves()) {
            p.doMove(m);
            p.legalMoves();
            p.undoMove();
        }
        assertEquals(fen, Fen.format(p));
    }

    @Test
    void fuzzedFenOnlyThrowsIllegalArgument() {
        for (String id : RuleSet.IDS) {
            List<String> valid = new ArrayList<>();
            valid.add(rs(id).startFen);
            for (Position p : RandomWalks.positions(id).subList(0, 40)) {
                valid.add(Fen.format(p));
                valid.add(Fen.formatFen(p));
            }
            if (id.equals("chess")) {
                valid.add(KIWIPETE);
                valid.add("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
            }
            fuzz(valid, id.hashCode(), s -> Fen.parse(rs(id), s), NotationTest::usable);
        }
    }

    @Test
    void fuzzedSfenOnlyThrowsIllegalArgument() {
        List<String> valid = new ArrayList<>(List.of(SHOGI + " b - 1", "4k4/9/9/9/9/9/9/9/4K4 b P2GRbl3p 1",
                "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"));
        for (Position p : RandomWalks.positions("shogi")) {
            valid.add(Fen.formatSfen(p));
        }
        int accepted = fuzz(valid, 7, s -> Fen.parseSfen(rs("shogi"), s), NotationTest::usable);
        assertTrue(accepted > 0 && accepted < FUZZ, "the mutations should be partly accepted, got " + accepted);
    }

    @Test
    void fuzzedMoveStringsOnlyThrowIllegalArgumentAndLeaveThePositionAlone() {
        for (String id : RuleSet.IDS) {
            List<Position> ps = RandomWalks.positions(id);
            Position p = ps.get(ps.size() / 2).copy();
            String fen = Fen.formatFen(p);
            long key = p.key();
            for (Style style : Style.values()) {
                List<String> valid = new ArrayList<>();
                for (int m : p.legalMoves()) {
                    valid.add(MoveNotation.format(p, m, style));
                }
                // an accepted string is exactly the move's own notation (the notation is canonical)
                fuzz(valid, id.hashCode() + style.ordinal(), s -> MoveNotation.parse(p, s, style),
                        (s, m) -> assertEquals(s, MoveNotation.format(p, m, style)));
                assertEquals(fen, Fen.formatFen(p), id + " " + style + ": parsing changed the position");
                assertEquals(key, p.key());
            }
        }
    }

    @Test
    void fuzzedSanOnlyThrowsIllegalArgument() {
        for (String spec : List.of("chess|" + KIWIPETE, "chess|n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                "shodo|" + rs("shodo").startFen)) {
            String[] s = spec.split("\\|");
            Position p = Fen.parse(rs(s[0]), s[1]);
            String fen = Fen.formatFen(p);
            List<String> valid = new ArrayList<>();
            for (int m : p.legalMoves()) {
                valid.add(San.format(p, m));
            }
            valid.add("O-O");
            valid.add("0-0-0");
            fuzz(valid, spec.hashCode(), text -> San.parse(p, text), (text, m) -> assertTrue(p.isLegal(m), text));
            assertEquals(fen, Fen.formatFen(p), "parsing SAN changed the position");
        }
    }

    @Test
    void mutationAlwaysChangesSomething() {
        // guards the fuzzer itself: most mutations differ from their source
        Random r = new Random(1);
        int same = 0;
        for (int i = 0; i < 500; i++) {
            if (mutate(KIWIPETE, r).equals(KIWIPETE)) {
                same++;
            }
        }
        assertTrue(same < 50, "too many no-op mutations: " + same);
    }
}
