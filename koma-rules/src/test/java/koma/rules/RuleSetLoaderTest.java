package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import koma.rules.RuleSetLoader.DefinitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rule-set definition files: every kind of bad definition is refused with a message naming the file and the key,
 * and the six built-in definitions load with the board sizes, piece types and setups their files declare.
 */
class RuleSetLoaderTest {
    static final String FILE = "mini.rules";

    /** A small valid definition that the error cases below break one line at a time. */
    static final String MINI = """
            # a 5x5 test game
            id = mini
            name = Mini
            board = 5x5
            start = k2r1/5/5/5/1R2K w - - 0 1
            promotion-zone = 1

            [piece rook]
            letter = R
            betza = R

            [piece pawn]
            letter = P
            betza = fW
            promotes = R
            forced = 1

            [piece king]
            letter = K
            betza = K
            royal = true
            """;

    static DefinitionException refused(String text, String key) {
        DefinitionException e = assertThrows(DefinitionException.class, () -> RuleSetLoader.load(FILE, text));
        assertTrue(e.getMessage().startsWith(FILE), () -> "message names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains("key '" + key + "'"), () -> "message names key '" + key + "': " + e.getMessage());
        return e;
    }

    static String replace(String from, String to) {
        assertTrue(MINI.contains(from), from);
        return MINI.replace(from, to);
    }

    @Test
    void theMiniDefinitionIsValid() {
        RuleSet rs = RuleSetLoader.load(FILE, MINI);
        assertEquals("mini", rs.id);
        assertEquals(5, rs.geometry.files);
        assertEquals(3, rs.pieceCount());
        assertEquals(rs.typeOf("K"), rs.royalType);
        assertEquals(List.of(rs.typeOf("R")), java.util.Arrays.stream(rs.piece(rs.typeOf("P")).promotions()).boxed().toList());
        assertTrue(Position.start(rs).legalMoves().length > 0);
    }

    /**
     * Wa shogi's one-kanji set (kanji-single, for small screens): one character per piece, unique among the
     * unpromoted pieces and among the promoted ones (drawn red, so a promoted piece may share its character with the
     * unpromoted piece of the same name); a longer value is refused.
     */
    @Test
    void theOneKanjiSetHasOneUniqueCharacterPerPiece() {
        for (String id : List.of("washogi", "washogi-drops")) {
            RuleSet rs = RuleSet.of(id);
            java.util.Set<String> base = new java.util.HashSet<>();
            java.util.Set<String> promoted = new java.util.HashSet<>();
            for (int t = 0; t < rs.pieceCount(); t++) {
                String letter = rs.piece(t).letter();
                Conventions.Kanji k = rs.conventions.kanjiOf(letter);
                assertTrue(k != null && k.single() != null, id + " " + letter + " has no kanji-single");
                assertEquals(1, k.single().codePointCount(0, k.single().length()), id + " " + letter);
                assertTrue((letter.startsWith("+") ? promoted : base).add(k.single()),
                        id + " " + letter + ": '" + k.single() + "' used twice");
            }
            assertEquals(17, base.size(), id + ": the 17 unpromoted pieces");
        }
        DefinitionException e = refused(replace("letter = P", "letter = P\nkanji = 歩\nkanji-single = 萑歩"), "kanji-single");
        assertTrue(e.getMessage().contains("expected one character"), e.getMessage());
    }

    // each broken line is refused naming the file and key, and, for one-line errors, the line number
    @ParameterizedTest(name = "{2}: {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            name = Mini          | colour = red        | colour    | 3  | unknown key
            betza = fW           | betza = fW\\nspeed = 2 | speed   | 15 | unknown key
            betza = fW           | betza = fX          | betza     | 14 | unknown atom 'X'
            betza = fW           | betza = qW          | betza     | 14 | unknown modifier 'q'
            betza = fW           | betza = f           | betza     | 14 | not followed by an atom
            betza = fW           | betza = WW          | betza     | 14 | riders
            betza = fW           | betza = N2          | betza     | 14 | range on the leaper
            betza = fW           | betza = mcW         | betza     | 14 | both 'm' and 'c'
            promotes = R         | promotes = Q        | promotes  | 15 | no piece has the letter 'Q'
            promotes = R         | promotes = P        | promotes  | 15 | cannot promote to itself
            letter = P           | letter = R          | letter    | 13 | used twice
            letter = P           | letter = p          | letter    | 13 | upper-case
            letter = P           | letter = +Q         | letter    | 13 | no unpromoted piece 'Q'
            forced = 1           | forced = 9          | forced    | 16 | from 0 to 5
            board = 5x5          | board = 20x20       | board     | 4  | up to 16x16
            board = 5x5          | board = five        | board     | 4  | FILESxRANKS
            start = k2r1/5/5/5/1R2K w - - 0 1 | start = k2r1/5/5/5/1R2Q w - - 0 1 | start | 5 | unknown piece letter 'Q'
            start = k2r1/5/5/5/1R2K w - - 0 1 | start = k2r1/5/5/1R2K w - - 0 1  | start | 5 | expected 5 ranks
            start = k2r1/5/5/5/1R2K w - - 0 1 | start = k2P1/5/5/5/1R2K w - - 0 1 | start | 5 | a square it could never leave
            royal = true         | royal = yes         | royal     | 21 | expected true or false
            promotion-zone = 1   | promotion-zone = 6  | promotion-zone | 6 | from 1 to 5
            name = Mini          | name = Mini\\nname = Maxi | name | 4 | given twice
            name = Mini          | name = Mini\\nstalemate = win | stalemate | 4 | expected draw or loss
            name = Mini          | name = Mini\\nrepetition = often | repetition | 4 | '3 claim'
            name = Mini          | name = Mini\\nnotation = pgn | notation | 4 | expected fen or sfen
            name = Mini          | name = Mini\\nimpasse = 30-point | impasse | 4 | 24-point
            """)
    void badLineIsRefusedNamingFileAndKey(String from, String to, String key, int line, String reason) {
        DefinitionException e = refused(replace(from, to.replace("\\n", "\n")), key);
        assertTrue(e.getMessage().contains(FILE + ":" + line + " "), () -> "line " + line + " in " + e.getMessage());
        assertTrue(e.getMessage().contains(reason), () -> "reason '" + reason + "' in " + e.getMessage());
    }

    @Test
    void missingTopLevelKeysAreNamed() {
        refused(replace("id = mini\n", ""), "id");
        refused(replace("board = 5x5\n", ""), "board");
        refused(replace("start = k2r1/5/5/5/1R2K w - - 0 1\n", ""), "start");
        refused(replace("betza = R\n", ""), "betza");
        refused(replace("letter = R\n", ""), "letter");
    }

    @Test
    void royalPieceRulesAreEnforced() {
        // two royal types
        String twoRoyals = replace("letter = R\nbetza = R\n", "letter = R\nbetza = R\nroyal = true\n");
        assertTrue(refused(twoRoyals, "royal").getMessage().contains("more than one royal"));
        // no royal piece and no extinction rule
        String noRoyal = replace("letter = K\nbetza = K\nroyal = true\n", "letter = K\nbetza = K\n");
        assertTrue(refused(noRoyal, "royal").getMessage().contains("extinction"));
        // ... which is fine with extinction
        RuleSet ext = RuleSetLoader.load(FILE, noRoyal.replace("name = Mini\n", "name = Mini\nextinction = true\n"));
        assertEquals(-1, ext.royalType);
    }

    @Test
    void sectionsAndLinesMustBeWellFormed() {
        DefinitionException e = assertThrows(DefinitionException.class,
                () -> RuleSetLoader.load(FILE, replace("[piece pawn]", "[pawn]")));
        assertTrue(e.getMessage().startsWith(FILE + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("[piece NAME]"), e.getMessage());
        e = assertThrows(DefinitionException.class, () -> RuleSetLoader.load(FILE, replace("[piece pawn]", "[piece rook]")));
        assertTrue(e.getMessage().contains("defined twice"), e.getMessage());
        e = assertThrows(DefinitionException.class, () -> RuleSetLoader.load(FILE, replace("name = Mini", "name Mini")));
        assertTrue(e.getMessage().contains("key = value"), e.getMessage());
        // a top-level key inside a piece section is unknown there
        refused(replace("betza = fW", "betza = fW\ncastling = standard"), "castling");
    }

    @Test
    void standardCastlingNeedsKingAndRook() {
        String noRook = replace("letter = R\n", "letter = Q\n").replace("k2r1/5/5/5/1R2K", "k2q1/5/5/5/1Q2K")
                .replace("promotes = R", "promotes = Q").replace("name = Mini\n", "name = Mini\ncastling = standard\n");
        refused(noRook, "castling");
    }

    // the built-in files: board size, number of [piece] sections (counted in the files), pieces in the start
    // position (RULES.md 1.2, 2.2, 3.2, 5.2, 6.2) and the capability flags
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            chess            | 8  | 8  | 6  | 32 | false | true  | true
            shogi            | 9  | 9  | 14 | 40 | true  | false | true
            washogi          | 11 | 11 | 31 | 54 | false | false | true
            washogi-drops    | 11 | 11 | 31 | 54 | true  | false | true
            shodo            | 8  | 8  | 3  | 32 | false | false | true
            shodo-deathmatch | 8  | 8  | 1  | 28 | false | false | false
            """)
    void builtInDefinitionsLoad(String id, int files, int ranks, int types, int startPieces, boolean drops,
                                boolean castling, boolean royal) {
        RuleSet rs = RuleSet.of(id);
        assertEquals(id, rs.id);
        assertEquals(files, rs.geometry.files);
        assertEquals(ranks, rs.geometry.ranks);
        assertEquals(types, rs.pieceCount());
        assertEquals(drops, rs.drops);
        assertEquals(castling, rs.castling);
        assertEquals(royal, rs.royalType >= 0);
        Position p = Position.start(rs);
        assertEquals(startPieces, p.pieceCount(0) + p.pieceCount(1));
        assertEquals(startPieces / 2, p.pieceCount(0), "both sides start with the same number of pieces");
        assertEquals(0, p.sideToMove(), "the first player moves first");
        // every promoted '+X' type demotes to its base X, every other type to itself
        for (PieceType t : rs.pieces) {
            int expect = t.promoted() ? rs.typeOf(t.letter().substring(1)) : t.index();
            assertEquals(expect, t.demotesTo(), t.name());
            assertFalse(t.promoted() && t.canPromote(), t.name() + ": promoted pieces never promote again");
        }
        assertSameInstance(rs, RuleSet.of(id));
    }

    static void assertSameInstance(RuleSet a, RuleSet b) {
        assertTrue(a == b, "RuleSet.of caches its rule sets");
    }

    @Test
    void unknownRuleSetIsRefusedListingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RuleSet.of("xiangqi"));
        for (String id : RuleSet.IDS) {
            assertTrue(e.getMessage().contains(id), e.getMessage());
        }
    }
}
