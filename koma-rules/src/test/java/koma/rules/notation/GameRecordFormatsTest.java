package koma.rules.notation;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The record formats (PGN, KIF, CSA) and the shogi notations: round trips over seeded random legal games of every
 * rule set each format serves, published games read, malformed records refused with the line or field named, and
 * the notation of known moves.
 */
class GameRecordFormatsTest {
    private static final long SEED = 20261121L;
    /** Extra starts for the round trips: hands, promoted pieces, gote to move, a handicap. */
    private static final Map<String, List<String>> STARTS = Map.of(
            "shogi", List.of("4k4/9/9/9/9/9/9/9/4K4 b 2LNS3Pln2p 1",
                    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                    "ln1g3+Rl/1ks1s4/1p1pg3p/p1p1pp3/1N1P2pn1/PP1B1P3/3SPSP1P/2KG5/L2G3NL w Prb2p 52"),
            "chess", List.of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"),
            "washogi-drops", List.of("5k5/11/11/11/11/11/11/11/11/11/5K5[PPOHpplx] w - - 0 1"));

    // ------------------------------------------------------------------ random games

    /** A seeded random legal game; half of the moves are picked among captures, promotions and drops. */
    static GameRecord randomGame(String variant, String startFen, Random rnd, int plies) {
        RuleSet rs = RuleSet.of(variant);
        Position p = startFen == null ? Position.start(rs) : Fen.parse(rs, startFen);
        List<String> moves = new ArrayList<>();
        List<String> comments = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < plies; i++) {
            int[] legal = p.legalMoves();
            if (legal.length == 0) {
                break;
            }
            List<Integer> sharp = new ArrayList<>();
            for (int m : legal) {
                if (Move.isDrop(m) || Move.isPromotion(m) || !p.isEmpty(Move.to(m)) || Move.kind(m) != Move.NORMAL) {
                    sharp.add(m);
                }
            }
            int m = !sharp.isEmpty() && rnd.nextBoolean() ? sharp.get(rnd.nextInt(sharp.size())) : legal[rnd.nextInt(legal.length)];
            moves.add(MoveNotation.formatUci(p, m));
            comments.add(rnd.nextInt(4) == 0 ? "note " + i : null);
            times.add(1000L * rnd.nextInt(90));
            p.doMove(m);
        }
        comments.add("closing words");
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", "random " + variant);
        tags.put("White", "First");
        tags.put("Black", "Second");
        return new GameRecord(variant, startFen, moves, tags, "*", comments, times);
    }

    private static void assertSameGame(GameRecord want, GameRecord got, String text) {
        assertEquals(want.variant(), got.variant(), text);
        assertEquals(GameRecord.startKey(want.startPosition()), GameRecord.startKey(got.startPosition()), text);
        assertEquals(want.moves(), got.moves(), text);
    }

    private static void roundTrips(String variant, Function<GameRecord, String> format, Function<String, GameRecord> parse,
                                   boolean keepsTimes) {
        Random rnd = new Random(SEED ^ variant.hashCode());
        List<String> starts = new ArrayList<>();
        starts.add(null);
        starts.addAll(STARTS.getOrDefault(variant, List.of()));
        int games = 0;
        for (String start : starts) {
            for (int k = 0; k < 3; k++) {
                GameRecord g = randomGame(variant, start, rnd, 60 + 40 * k);
                String text = format.apply(g);
                GameRecord back = parse.apply(text);
                assertSameGame(g, back, text);
                assertEquals(g.comments(), back.comments(), text);
                if (keepsTimes) {
                    assertEquals(g.moveTimesMs(), back.moveTimesMs(), text);
                }
                assertEquals("random " + variant, back.tags().get("Event"), text);
                assertEquals("Second", back.tags().get("Black"), text);
                assertEquals(text, format.apply(back), "format(parse(format(g))) == format(g)");
                games++;
            }
        }
        assertTrue(games >= 3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void pgnRoundTripsRandomGames(String variant) {
        roundTrips(variant, Pgn::format, Pgn::parse, false);
    }

    @Test
    void kifRoundTripsRandomShogiGames() {
        roundTrips("shogi", Kif::format, Kif::parse, true);
    }

    /** Several KIF records one after another (as koma match --kif appends them) read back game by game. */
    @Test
    void kifParseAllReadsConcatenatedRecordsAndNamesTheBrokenGame() {
        Random rnd = new Random(SEED ^ 0x4b4946);
        List<GameRecord> games = List.of(randomGame("shogi", null, rnd, 60), randomGame("shogi", null, rnd, 80),
                randomGame("shogi", null, rnd, 40));
        StringBuilder text = new StringBuilder();
        games.forEach(g -> text.append(Kif.format(g)));
        List<GameRecord> back = Kif.parseAll(text.toString());
        assertEquals(3, back.size());
        for (int i = 0; i < 3; i++) {
            assertSameGame(games.get(i), back.get(i), "game " + (i + 1));
        }
        assertEquals(1, Kif.parseAll(Kif.format(games.get(0))).size(), "one record alone");
        String second = Kif.format(games.get(1));
        String broken = Kif.format(games.get(0)) + second.replaceFirst("(?m)^(\\s+1 )\\S+", "$1５五玉(11)");
        NotationException e = assertThrows(NotationException.class, () -> Kif.parseAll(broken));
        assertTrue(e.getMessage().startsWith("KIF game 2: "), e.getMessage());
        assertThrows(NotationException.class, () -> Kif.parseAll("  \n"));
    }

    @Test
    void csaRoundTripsRandomShogiGames() {
        roundTrips("shogi", Csa::format, Csa::parse, true);
    }

    @Test
    void resultsAndTerminationsRoundTripThroughKifAndCsa() {
        Random rnd = new Random(SEED);
        GameRecord g = randomGame("shogi", null, rnd, 31);
        // 31 plies: gote is to move. {termination, result} pairs that each format can say.
        String[][] cases = {{"resignation", "1-0"}, {"checkmate", "1-0"}, {"time forfeit", "1-0"}, {"repetition", "1/2-1/2"},
                {"impasse", "1/2-1/2"}, {"illegal move", "1-0"}, {"illegal move", "0-1"}};
        for (String[] c : cases) {
            Map<String, String> tags = new LinkedHashMap<>(g.tags());
            tags.put("Termination", c[0]);
            GameRecord r = new GameRecord("shogi", null, g.moves(), tags, c[1], g.comments(), g.moveTimesMs());
            for (Function<GameRecord, String> f : List.<Function<GameRecord, String>>of(Kif::format, Csa::format)) {
                String text = f.apply(r);
                GameRecord back = text.startsWith("V2.2") ? Csa.parse(text) : Kif.parse(text);
                assertEquals(c[1], back.result(), text);
                assertEquals(c[0], back.tags().get("Termination"), text);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shogi", "washogi", "washogi-drops"})
    void westernNotationRoundTripsEveryLegalMove(String variant) {
        Random rnd = new Random(SEED ^ 7 ^ variant.hashCode());
        int checked = 0;
        for (int k = 0; k < 3; k++) {
            GameRecord g = randomGame(variant, k == 2 && STARTS.containsKey(variant) ? STARTS.get(variant).get(0) : null, rnd, 80);
            Position p = g.startPosition();
            for (int m : g.moveInts()) {
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (int x : p.legalMoves()) {
                    String w = ShogiNotation.western(p, x);
                    assertTrue(seen.add(w), "two moves written " + w + " in " + Fen.format(p));
                    assertEquals(x, ShogiNotation.parseWestern(p, w), w + " in " + Fen.format(p));
                    checked++;
                }
                p.doMove(m);
            }
        }
        assertTrue(checked > 1000, "checked " + checked);
    }

    @Test
    void japaneseNotationRoundTripsEveryLegalShogiMove() {
        Random rnd = new Random(SEED ^ 11);
        int checked = 0;
        List<String> starts = new ArrayList<>();
        starts.add(null);
        starts.addAll(STARTS.get("shogi"));
        for (String start : starts) {
            checked += checkJapaneseRoundTrip(randomGame("shogi", start, rnd, 100), true);
        }
        assertTrue(checked > 1000, "checked " + checked);
    }

    @ParameterizedTest
    @ValueSource(strings = {"washogi", "washogi-drops"})
    void japaneseNotationRoundTripsEveryLegalWaShogiMove(String variant) {
        Random rnd = new Random(SEED ^ 13 ^ variant.hashCode());
        int checked = 0;
        for (int k = 0; k < 3; k++) {
            GameRecord g = randomGame(variant, k == 2 && STARTS.containsKey(variant) ? STARTS.get(variant).get(0) : null, rnd, 120);
            checked += checkJapaneseRoundTrip(g, false);
        }
        assertTrue(checked > 5000, "checked " + checked);
    }

    /**
     * Along the game, every legal move's Japanese text is unique in its position and reads back to the move
     * (also with the ▲ mark when {@code withMark}); returns the number of moves checked.
     */
    private static int checkJapaneseRoundTrip(GameRecord g, boolean withMark) {
        Position p = g.startPosition();
        int previousTo = -1, checked = 0;
        for (int m : g.moveInts()) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int x : p.legalMoves()) {
                String j = ShogiNotation.japanese(p, x, previousTo);
                assertTrue(seen.add(j), "two moves written " + j + " in " + Fen.format(p));
                assertEquals(x, ShogiNotation.parseJapanese(p, j, previousTo), j + " in " + Fen.format(p));
                if (withMark) {
                    assertEquals(x, ShogiNotation.parseJapanese(p, "▲" + j, previousTo), j);
                }
                checked++;
            }
            previousTo = Move.to(m);
            p.doMove(m);
        }
        return checked;
    }

    // ------------------------------------------------------------------ published games

    static String resource(String name) throws IOException {
        try (InputStream in = GameRecordFormatsTest.class.getResourceAsStream("/records/" + name)) {
            return new String(in.readAllBytes(), UTF_8);
        }
    }

    /** Final position of 上田洋 - 里見香奈 (2013), from the same published record (its hand counts rewritten to SFEN's). */
    private static final String UEDA_SATOMI_FINAL = "l2g3p1/2k1s4/2npg3+R/pS2pp3/1SL3p2/P4P3/2K1P+n2P/2g6/L2+r4L b 2BS2NPg7p 101";
    /** The same record's position after move 50 (５二銀(43)). */
    private static final String UEDA_SATOMI_50 = "ln1g4l/1ks1s4/1p1pg3p/p1p1pp3/1N1P2pn1/PP1B1P3/3SPSP1P/2KG5/L2G3NL b RPrb2p 51";

    @Test
    void readsAPublishedKifAndItsCsa() throws IOException {
        GameRecord kif = Kif.parse(resource("ueda-satomi-2013.kif"));
        GameRecord csa = Csa.parse(resource("ueda-satomi-2013.csa"));
        for (GameRecord g : List.of(kif, csa)) {
            assertEquals(100, g.moves().size());
            assertEquals("0-1", g.result());
            assertEquals("resignation", g.tags().get("Termination"));
            assertEquals("上田洋", g.tags().get("White"));
            assertEquals("里見香奈", g.tags().get("Black"));
            assertEquals("奨励会", g.tags().get("Event"));
            assertEquals("2013.01.06", g.tags().get("Date"));
            assertNull(g.startFen());
            assertEquals(UEDA_SATOMI_FINAL, Fen.format(g.finalPosition()));
            Position p = g.startPosition();
            List<Integer> ms = g.moveInts();
            for (int i = 0; i < 50; i++) {
                p.doMove(ms.get(i));
            }
            assertEquals(UEDA_SATOMI_50, Fen.format(p));
        }
        assertEquals(kif.moves(), csa.moves());
        assertEquals("c3c4", kif.moves().get(0)); // ７六歩(77) = USI 7g7f
        assertEquals("b2h8+", kif.moves().get(14)); // ２二角成(88)
    }

    @Test
    void kifWriterMatchesThePublishedMoveTexts() throws IOException {
        String text = resource("ueda-satomi-2013.kif");
        GameRecord g = Kif.parse(text);
        String written = Kif.format(g);
        List<String> published = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.matches("\\s*\\d+ .*") && !line.contains("投了")) {
                published.add(line.strip().split("\\s+")[1].replace("王", "玉").replace("竜", "龍"));
            }
        }
        List<String> ours = new ArrayList<>();
        for (String line : written.split("\n")) {
            if (line.matches("\\s*\\d+ .*") && !line.contains("投了")) {
                ours.add(line.strip().split("\\s+")[1]);
            }
        }
        // The published text leaves out 不成 on move 98 (the silver 8八-7七 could have promoted); Koma writes 不成
        // whenever a possible promotion was declined, and reads both forms.
        assertEquals("同　銀不成(88)", ours.get(97));
        assertEquals(published, ours.stream().map(t -> t.replace("不成", "")).toList());
        assertTrue(written.contains(" 101 投了\n"), written);
        assertTrue(written.contains("まで100手で後手の勝ち"), written);
        String csa = Csa.format(g);
        assertEquals(resource("ueda-satomi-2013.csa").lines().filter(l -> l.matches("[+-]\\d{4}[A-Z]{2}|%.*")).toList(),
                csa.lines().filter(l -> l.matches("[+-]\\d{4}[A-Z]{2}|%.*")).toList());
    }

    /** The Opera Game, Morphy against the Duke of Brunswick and Count Isouard, Paris 1858 (moves as in every anthology). */
    @Test
    void readsAPublishedPgn() throws IOException {
        GameRecord g = Pgn.parse(resource("opera-game-1858.pgn"));
        assertEquals("chess", g.variant());
        assertEquals(33, g.moves().size());
        assertEquals("1-0", g.result());
        assertEquals("Paul Morphy", g.tags().get("White"));
        assertEquals("This is a weak move already.", g.comment(5));
        assertEquals("e1c1", g.moves().get(22)); // 12. O-O-O
        Position p = g.startPosition();
        List<Integer> ms = g.moveInts();
        for (int i = 0; i < ms.size() - 1; i++) {
            p.doMove(ms.get(i));
        }
        assertEquals("Rd8#", San.format(p, ms.get(ms.size() - 1)));
        assertTrue(Pgn.format(g).contains("17. Rd8# 1-0"), Pgn.format(g));
    }

    @Test
    void readsShogiPgnInUsiAndUciAndSeveralGames() {
        String text = "[Variant \"shogi\"]\n\n1. 7g7f 3c3d 2. 8h2b+ 3a2b 3. B*4e *\n\n"
                + "[Variant \"Shogi\"]\n\n1. c3c4 g7g6 2. b2h8+ *\n";
        List<GameRecord> games = Pgn.parseAll(text);
        assertEquals(2, games.size());
        assertEquals(List.of("c3c4", "g7g6", "b2h8+", "g9h8", "B@f5"), games.get(0).moves());
        assertEquals(games.get(0).moves().subList(0, 3), games.get(1).moves());
    }

    // ------------------------------------------------------------------ malformed records

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[Event \"x\"]\\n[White \"a\\n\\n1. e4 *|PGN line 2",
            "[Event \"x\"]\\n\\n1. e4 e5 2. Ke3 *|PGN line 3 (move 3)",
            "[Event \"x\"]\\n\\n1. e4 e5 2. Nf3|PGN line 3",
            "[Variant \"xiangqi\"]\\n\\n1. e4 *|PGN tag 'Variant' (line 1)",
            "[FEN \"8/8/8 w - - 0 1\"]\\n\\n1. e4 *|PGN tag 'FEN' (line 1)",
            "[Event \"x\"]\\n\\n1. e4 {open comment *|PGN line 3",
    })
    void malformedPgnNamesTheLine(String text, String field) {
        NotationException e = assertThrows(NotationException.class, () -> Pgn.parse(text.replace("\\n", "\n")));
        assertTrue(e.field().startsWith(field), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "KIF|手合割：平手\\n手数----指手---------消費時間--\\n   1 ７六歩(77)\\n   2 ７六歩(77)|KIF line 4 (move 2)",
            "KIF|手合割：平手\\n手数----指手---------消費時間--\\n   1 ７六歩(77)\\n   3 ３四歩(33)|KIF line 4",
            "KIF|手合割：平手\\n手数----指手---------消費時間--\\n   1 ７六兵(77)|KIF line 3 (move 1)",
            "KIF|手合割：平手\\n手数----指手---------消費時間--\\n   1 同　歩(77)|KIF line 3 (move 1)",
            "KIF|手合割：八枚半落ち\\n手数----指手---------消費時間--\\n   1 ７六歩(77)|KIF header '手合割'",
            "KIF|手合割：平手\\nこれは何|KIF line 2",
            "KIF|先手：A\\n後手：B|KIF",
            "CSA|V2.2\\nPI\\n+\\n+7776FU\\n+3334FU|CSA line 5 (move 2)",
            "CSA|V2.2\\nPI\\n+\\n+7776FU\\n-3335FU|CSA line 5 (move 2)",
            "CSA|V2.2\\nPI\\n+\\n+7776XX|CSA line 4 (move 1)",
            "CSA|V2.2\\nPI\\n+\\n+7776FU\\n%TORYO\\n-3334FU|CSA line 6",
            "CSA|V2.2\\nPI\\n+\\n+7776FU\\n%SURRENDER|CSA line 5",
            "CSA|V2.2\\nP1-KY-KE\\n+|CSA line P1",
            "CSA|V3.0\\nPI\\n+|CSA line 1",
            "CSA|V2.2\\nPI\\n+\\n+7776FU\\nTx|CSA line 5",
    })
    void malformedKifAndCsaNameTheLine(String format, String text, String field) {
        String t = text.replace("\\n", "\n");
        NotationException e = assertThrows(NotationException.class, () -> {
            GameRecord unused = format.equals("KIF") ? Kif.parse(t) : Csa.parse(t);
        });
        assertEquals(field, e.field(), e.getMessage());
    }

    @Test
    void kifAndCsaRefuseOtherRuleSets() {
        GameRecord wa = new GameRecord("washogi", null, List.of(), Map.of(), "*");
        assertThrows(NotationException.class, () -> Kif.format(wa));
        assertThrows(NotationException.class, () -> Csa.format(wa));
        NotationException e = assertThrows(NotationException.class, () -> new GameRecord("chess", null, List.of("e2e5"), Map.of(), "*").moveInts());
        assertEquals("move 1", e.field());
        assertThrows(NotationException.class, () -> new GameRecord("chess", null, List.of(), Map.of(), "2-0"));
        assertEquals("variant", assertThrows(NotationException.class,
                () -> new GameRecord("xiangqi", null, List.of(), Map.of(), "*")).field());
    }

    // ------------------------------------------------------------------ known moves

    private static final String SHOGI_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    private static Position shogi(String sfen) {
        return Fen.parse(RuleSet.of("shogi"), sfen);
    }

    private static int usi(Position p, String move) {
        return MoveNotation.parseUsi(p, move);
    }

    /** Expected strings: the JSA notation rules (shogi.or.jp "棋譜の表記方法") and lishogi's Western notation. */
    @ParameterizedTest
    @CsvSource({
            // sfen, usi move, previous destination (usi square or -), western, japanese
            "'" + SHOGI_START + "', 7g7f, -, P-7f, ７六歩",
            "'" + SHOGI_START + "', 4i5h, -, G4i-5h, ５八金右",
            "'" + SHOGI_START + "', 6i5h, -, G6i-5h, ５八金左",
            "'" + SHOGI_START + "', 6i7h, -, G-7h, ７八金",
            "'" + SHOGI_START + "', 3i3h, -, S-3h, ３八銀",
            "'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3', 8h2b+, -, Bx2b+, ２二角成",
            "'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4', 3a2b, 2b, Sx2b, 同　銀",
            "'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 4', 2a3c, -, N-3c, ３三桂",
            "'4k4/9/4P4/9/9/9/9/9/4K4 b B 1', B*5e, -, B*5e, ５五角",
            "'4k4/9/9/9/9/9/9/1B7/4K4 b B 1', B*5e, -, B*5e, ５五角打",
            "'4k4/9/9/9/9/9/9/1B7/4K4 b B 1', 8h5e, -, B-5e, ５五角",
            "'4k4/9/9/9/9/9/9/3GGG3/4K4 b - 1', 5h5g, -, G5h-5g, ５七金直",
            "'4k4/9/9/9/9/9/9/3GGG3/4K4 b - 1', 6h5g, -, G6h-5g, ５七金左",
            "'4k4/9/9/9/9/9/9/3GGG3/4K4 b - 1', 4h5g, -, G4h-5g, ５七金右",
            "'4k4/9/9/9/9/9/4G4/3G5/4K4 b - 1', 6h5h, -, G6h-5h, ５八金寄",
            "'4k4/9/9/9/9/9/4G4/3G5/4K4 b - 1', 5g5h, -, G5g-5h, ５八金引",
            "'4k4/9/9/9/9/9/9/9/4K3R b - 1', 1i1a+, -, R-1a+, １一飛成",
            "'4k4/9/9/9/9/9/9/9/4K3R b - 1', 1i1a, -, R-1a=, １一飛不成",
            "'4k4/9/9/9/9/5N3/9/9/4K4 b - 1', 4f3d, -, N-3d, ３四桂",
            "'4k4/9/9/9/9/2s6/9/9/4K4 w - 1', 7f6g+, -, S-6g+, ６七銀成",
            "'4k4/9/9/9/9/2s6/9/9/4K4 w - 1', 7f6g, -, S-6g=, ６七銀不成",
            "'3+R5/9/1+R7/9/4k4/9/9/9/4K4 b - 1', 8c8a, -, +R8c-8a, ８一龍上",
            "'3+R5/9/1+R7/9/4k4/9/9/9/4K4 b - 1', 6a8a, -, +R6a-8a, ８一龍寄",
            "'3+R5/9/1+R7/9/4k4/9/9/9/4K4 b - 1', 8c9b, -, +R-9b, ９二龍",
    })
    void knownMoves(String sfen, String usiMove, String previous, String western, String japanese) {
        Position p = shogi(sfen);
        int m = usi(p, usiMove);
        koma.rules.Geometry g = p.geometry();
        int prev = previous.equals("-") ? -1 : g.square(g.files - (previous.charAt(0) - '0'), g.ranks - 1 - (previous.charAt(1) - 'a'));
        assertEquals(western, ShogiNotation.western(p, m));
        assertEquals(japanese, ShogiNotation.japanese(p, m, prev));
        assertEquals(m, ShogiNotation.parseWestern(p, western));
        assertEquals(m, ShogiNotation.parseJapanese(p, japanese, prev));
    }

    @Test
    void waShogiWesternUsesTheRuleBookLetters() {
        Position p = Position.start(RuleSet.of("washogi"));
        // RULES.md 3.2: sparrow pawn P on e3 (shogi 7i) steps to e4 (7h); treacherous fox X on d3 (8i).
        assertEquals("P-7h", ShogiNotation.western(p, MoveNotation.parseUci(p, "e3e4")));
        assertEquals("X-8g", ShogiNotation.western(p, MoveNotation.parseUci(p, "d3d5")));
        assertEquals(MoveNotation.parseUci(p, "d3d5"), ShogiNotation.parseWestern(p, "X-8g"));
        assertEquals("７八萑歩", ShogiNotation.japanese(p, MoveNotation.parseUci(p, "e3e4"), -1));
        Position chess = Position.start(RuleSet.of("chess"));
        assertThrows(NotationException.class, () -> ShogiNotation.japanese(chess, MoveNotation.parseUci(chess, "e2e4"), -1));
    }

    /**
     * Wa shogi Japanese notation, checked by hand against the definition in the ShogiNotation class comment: file from
     * the first player's right in full-width digits, rank from the top in kanji (UCI f6 is ６六, e3 is ７九), the
     * RULES.md 3.3 names, 同, 打 only when a board piece of the same name reaches the square, 成/不成, and the origin
     * square in parentheses when another move would be written the same.
     */
    @ParameterizedTest
    @CsvSource({
            // rule set, fen, uci move, previous destination (uci square or -), japanese
            "washogi, 'hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - - 0 1', e3e4, -, ７八萑歩",
            "washogi, 'hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w - - 0 1', a1a2, -, １１十牛車",
            "washogi, '5k5/11/11/11/11/5p5/5P5/11/11/11/5K5 w - - 0 1', f5f6, -, ６六萑歩",
            "washogi, '5k5/11/11/11/11/5p5/5P5/11/11/11/5K5 w - - 0 1', f5f6, f6, 同萑歩",
            "washogi, '5k5/11/11/5P5/11/11/11/11/11/11/5K5 w - - 0 1', f8f9+, -, ６三萑歩成",
            "washogi, '5k5/11/11/5P5/11/11/11/11/11/11/5K5 w - - 0 1', f8f9, -, ６三萑歩不成",
            "washogi, '5k5/11/11/11/11/11/4W1W4/11/11/11/5K5 w - - 0 1', e5f6, -, ６六猛狼(７七)",
            "washogi, '5k5/11/11/11/11/11/4W1W4/11/11/11/5K5 w - - 0 1', g5f6, -, ６六猛狼(５七)",
            "washogi, '5k5/11/11/11/11/11/4W1W4/11/11/11/5K5 w - - 0 1', e5e6, -, ７六猛狼",
            "washogi, '5k5/11/11/11/11/11/4X1+R4/11/11/11/5K5 w - - 0 1', e5f6, -, ６六隠狐(７七)",
            "washogi, '5k5/11/11/11/11/11/4X1+R4/11/11/11/5K5 w - - 0 1', g5f6, -, ６六隠狐(５七)",
            "washogi, '5k5/11/11/11/11/11/4X1+R4/11/11/11/5K5 w - - 0 1', e5e6, -, ７六隠狐",
            "washogi-drops, '5k5/11/11/11/11/11/11/11/11/11/5K5[PO] w - - 0 1', P@f6, -, ６六萑歩",
            "washogi-drops, '5k5/11/11/11/11/11/11/11/11/11/5K5[PO] w - - 0 1', O@f6, -, ６六牛車",
            "washogi-drops, '5k5/11/11/11/11/11/11/11/11/4O6/5K5[O] w - - 0 1', O@e6, -, ７六牛車打",
            "washogi-drops, '5k5/11/11/11/11/11/11/11/11/4O6/5K5[O] w - - 0 1', e2e6, -, ７六牛車",
            "washogi-drops, '5k5/11/11/11/11/11/6+R4/11/11/11/5K5[X] w - - 0 1', X@f6, -, ６六隠狐打",
            "washogi-drops, '5k5/11/11/11/11/11/6+R4/11/11/11/5K5[X] w - - 0 1', g5f6, -, ６六隠狐",
            "washogi-drops, 'k10/11/11/11/11/11/11/11/11/11/K10[l] b - - 0 1', L@k1, -, １十一鴟行",
    })
    void waShogiJapaneseKnownMoves(String variant, String fen, String uci, String previous, String japanese) {
        Position p = Fen.parse(RuleSet.of(variant), fen);
        int m = MoveNotation.parseUci(p, uci);
        koma.rules.Geometry g = p.geometry();
        int prev = previous.equals("-") ? -1 : g.square(previous.charAt(0) - 'a', Integer.parseInt(previous.substring(1)) - 1);
        assertEquals(japanese, ShogiNotation.japanese(p, m, prev));
        assertEquals(m, ShogiNotation.parseJapanese(p, japanese, prev));
        assertEquals(m, ShogiNotation.parseJapanese(p, (p.sideToMove() == 0 ? "▲" : "△") + japanese, prev));
    }

    @Test
    void waShogiJapaneseReadsLenientFormsAndRefusesAmbiguity() {
        Position p = Fen.parse(RuleSet.of("washogi-drops"), "5k5/11/11/11/11/11/4W1W4/11/11/11/5K5[P] w - - 0 1");
        // half-width digits (the rank stays in kanji), a needless 打, the square for 同
        assertEquals(MoveNotation.parseUci(p, "e5f6"), ShogiNotation.parseJapanese(p, "６六猛狼(7七)", -1));
        assertEquals(MoveNotation.parseUci(p, "P@f6"), ShogiNotation.parseJapanese(p, "６六萑歩打", -1));
        int f6 = p.geometry().square(5, 5);
        assertEquals(MoveNotation.parseUci(p, "e5f6"), ShogiNotation.parseJapanese(p, "同猛狼(７七)", f6));
        NotationException e = assertThrows(NotationException.class, () -> ShogiNotation.parseJapanese(p, "６六猛狼", -1));
        assertTrue(e.getMessage().contains("origin"), e.getMessage());
        assertThrows(NotationException.class, () -> ShogiNotation.parseJapanese(p, "６六金鳥", -1));
        // shogi reads KIF-style half-width squares too
        Position s = shogi(SHOGI_START);
        assertEquals(usi(s, "7g7f"), ShogiNotation.parseJapanese(s, "76歩", -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "P-7", "Q-7f", "P-7e", "7g7f", "P-7f+", "G-5h"})
    void badWesternIsRefused(String text) {
        Position p = shogi(SHOGI_START);
        NotationException e = assertThrows(NotationException.class, () -> ShogiNotation.parseWestern(p, text));
        assertTrue(e.getMessage().contains(text.isEmpty() ? "malformed" : text), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "７六兵", "７五歩", "５八金", "同　歩"})
    void badJapaneseIsRefused(String text) {
        Position p = shogi(SHOGI_START);
        NotationException e = assertThrows(NotationException.class, () -> ShogiNotation.parseJapanese(p, text, -1));
        assertTrue(e.field().startsWith("move"), e.getMessage());
    }
}
