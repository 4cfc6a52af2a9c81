package koma.rules;

import java.util.List;
import java.util.Map;

/**
 * How a rule set is shown, written and named, as its definition file declares it: everything outside the rules
 * themselves that differs between rule sets, so that no code has to ask for a rule set by its id.
 *
 * @param family        the board's look and the clocks that fit: {@link Family}
 * @param moveStyle     the move strings on the command line and in test data: {@code uci} ({@code e2e4}) or
 *                      {@code usi} ({@code 7g7f})
 * @param protocols     the engine protocols that speak it ({@code uci}, {@code usi}, {@code xboard})
 * @param notations     the readable notations: {@code san}, {@code western}, {@code japanese-jsa} (shogi's JSA
 *                      words), {@code japanese-names} (two-kanji names with an origin square when ambiguous)
 * @param records       the game-record formats ({@code pgn}, {@code kif}, {@code csa})
 * @param pieceSets     the piece sets the page offers ({@code figures}, {@code kanji}, {@code international})
 * @param pieceNames    the translation family of the piece names: keys {@code piece.<pieceNames>.<name>} are
 *                      looked up before {@code piece.<name>} (null: only the latter)
 * @param xboard        the variant name XBoard uses
 * @param xboardAliases further names accepted in XBoard's {@code variant} command
 * @param xboardNative  true when XBoard knows the variant itself; otherwise an engine sends {@code setup} and
 *                      {@code piece} commands
 * @param xboardPieces  the first player's half of XBoard's piece-to-character table for {@code setup}: one
 *                      character per XBoard piece type in XBoard's order, '.' for unused types, {@code ^X} for the
 *                      promoted partner of X, '/' to jump to XBoard's promoted types, the king last (as HaChu and
 *                      Sjaak II send it); null for native variants
 * @param xboardParent  the XBoard variant whose rules a {@code setup} board inherits ({@code chu}, {@code shogi},
 *                      {@code fairy})
 * @param uciVariant    the {@code UCI_Variant} value other engines (Fairy-Stockfish) use, or null
 * @param fairyStockfish the Fairy-Stockfish variant name, or null
 * @param lishogi       the lishogi variant name, or null
 * @param kanji         per piece letter: its Japanese names ({@code null} when the rule set has none)
 */
public record Conventions(Family family, String moveStyle, List<String> protocols, List<String> notations,
                          List<String> records, List<String> pieceSets, String pieceNames, String xboard,
                          List<String> xboardAliases, boolean xboardNative, String xboardPieces,
                          String xboardParent, String uciVariant, String fairyStockfish,
                          String lishogi, Map<String, Kanji> kanji) {

    /**
     * The two families of boards: {@code chess} (figures, chequered squares, Fischer clocks) and {@code shogi}
     * (kanji pentagons, the second player's pieces turned, hands, byoyomi). The lower-case name is the file's value
     * and the page's.
     */
    public enum Family {
        CHESS, SHOGI;

        /** The name in definition files and in GET /api/variants. */
        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The Japanese names of one piece.
     *
     * @param name   the name in move texts ({@code 歩}, {@code 成銀}, {@code 萑歩})
     * @param board  the name drawn on the piece ({@code 全} for a promoted silver; else the same as name)
     * @param second the second player's name when it differs ({@code 王} for the king), else null
     * @param csa    the two-letter CSA code, or null
     * @param single one character for the one-kanji piece set of small screens ({@code 燕} for 燕羽), or null
     */
    public record Kanji(String name, String board, String second, String csa, String single) {
    }

    /** True when the rule set declares this readable notation, record format, protocol or piece set. */
    public boolean has(String what) {
        return notations.contains(what) || records.contains(what) || protocols.contains(what)
                || pieceSets.contains(what);
    }

    /** True when Japanese notation is defined (either style). */
    public boolean japanese() {
        return notations.contains("japanese-jsa") || notations.contains("japanese-names");
    }

    /** The Japanese names of the piece with this letter, or null. */
    public Kanji kanjiOf(String letter) {
        return kanji.get(letter);
    }
}
