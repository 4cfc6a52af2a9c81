package koma.rules;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads rule-set definition files: {@code key = value} lines, {@code [piece NAME]} sections, '#' comments.
 * Every mistake is reported as a {@link DefinitionException} naming the file, line, key and reason.
 */
public final class RuleSetLoader {
    private static final Set<String> TOP_KEYS = Set.of("id", "name", "board", "start", "notation", "castling",
            "promotion-zone", "promotion-trigger", "drops", "stalemate", "repetition", "move-rule", "material",
            "extinction", "impasse", "family", "move-style", "protocols", "notations", "records", "piece-sets",
            "piece-names", "xboard", "xboard-aliases", "xboard-native", "xboard-pieces", "xboard-parent", "uci-variant", "fairy-stockfish", "lishogi");
    private static final Set<String> PIECE_KEYS = Set.of("letter", "betza", "promotes", "forced", "royal", "pawn",
            "drop", "points", "kanji", "kanji-board", "kanji-second", "kanji-single", "csa");
    /** The values each list-valued convention key accepts. */
    private static final Map<String, Set<String>> CONVENTION_VALUES = Map.of(
            "protocols", Set.of("uci", "usi", "xboard"),
            "notations", Set.of("san", "western", "japanese-jsa", "japanese-names"),
            "records", Set.of("pgn", "kif", "csa"),
            "piece-sets", Set.of("figures", "kanji", "kanji-single", "international"));

    /** A definition file that cannot be used, with the place and reason. */
    public static final class DefinitionException extends RuntimeException {
        public DefinitionException(String file, int line, String key, String reason) {
            super(file + (line > 0 ? ":" + line : "") + (key != null ? " key '" + key + "'" : "") + ": " + reason);
        }
    }

    private record Entry(String value, int line) {
    }

    private RuleSetLoader() {
    }

    /** The ids listed in {@code /koma/rules/index} ('#' comments, one id a line). */
    static List<String> builtinIds() {
        try (InputStream in = RuleSetLoader.class.getResourceAsStream("/koma/rules/index")) {
            if (in == null) {
                throw new DefinitionException("index", 0, null, "resource /koma/rules/index not found");
            }
            List<String> ids = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\r?\n")) {
                String l = line.replaceAll("#.*", "").strip();
                if (!l.isEmpty()) {
                    ids.add(l);
                }
            }
            return List.copyOf(ids);
        } catch (IOException e) {
            throw new DefinitionException("index", 0, null, "cannot read: " + e.getMessage());
        }
    }

    static RuleSet loadBuiltin(String id) {
        String file = id + ".rules";
        try (InputStream in = RuleSetLoader.class.getResourceAsStream("/koma/rules/" + file)) {
            if (in == null) {
                throw new DefinitionException(file, 0, null, "resource /koma/rules/" + file + " not found");
            }
            return load(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DefinitionException(file, 0, null, "cannot read: " + e.getMessage());
        }
    }

    /** Parses and validates a definition; {@code file} is only used in messages. */
    public static RuleSet load(String file, String text) {
        Map<String, Entry> top = new LinkedHashMap<>();
        List<String> pieceNames = new ArrayList<>();
        List<Integer> pieceLines = new ArrayList<>();
        List<Map<String, Entry>> pieceMaps = new ArrayList<>();
        Map<String, Entry> current = top;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int ln = i + 1;
            String line = lines[i].strip();
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash).strip();
            }
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("[")) {
                if (!line.endsWith("]") || !line.startsWith("[piece ")) {
                    throw new DefinitionException(file, ln, null, "expected a section header '[piece NAME]', got '"
                            + line + "'");
                }
                String name = line.substring(7, line.length() - 1).strip();
                if (name.isEmpty()) {
                    throw new DefinitionException(file, ln, null, "piece section without a name");
                }
                if (pieceNames.contains(name)) {
                    throw new DefinitionException(file, ln, null, "piece '" + name + "' defined twice");
                }
                current = new LinkedHashMap<>();
                pieceNames.add(name);
                pieceLines.add(ln);
                pieceMaps.add(current);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new DefinitionException(file, ln, null, "expected 'key = value', got '" + line + "'");
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            Set<String> allowed = current == top ? TOP_KEYS : PIECE_KEYS;
            if (!allowed.contains(key)) {
                throw new DefinitionException(file, ln, key, "unknown key; expected one of " + new java.util.TreeSet<>(allowed));
            }
            if (current.containsKey(key)) {
                throw new DefinitionException(file, ln, key, "given twice");
            }
            if (value.isEmpty()) {
                throw new DefinitionException(file, ln, key, "empty value");
            }
            current.put(key, new Entry(value, ln));
        }
        return build(file, top, pieceNames, pieceLines, pieceMaps);
    }

    private static RuleSet build(String file, Map<String, Entry> top, List<String> names, List<Integer> pieceLines,
                                 List<Map<String, Entry>> maps) {
        for (String k : List.of("id", "board", "start")) {
            if (!top.containsKey(k)) {
                throw new DefinitionException(file, 0, k, "missing");
            }
        }
        String id = top.get("id").value();
        String name = get(top, "name", id);
        Entry boardE = top.get("board");
        String[] dims = boardE.value().split("x");
        Geometry geometry;
        try {
            geometry = new Geometry(Integer.parseInt(dims[0].strip()), Integer.parseInt(dims[1].strip()));
        } catch (RuntimeException e) {
            throw new DefinitionException(file, boardE.line(), "board", "expected FILESxRANKS such as 9x9, up to 16x16, got '"
                    + boardE.value() + "'");
        }
        if (names.isEmpty()) {
            throw new DefinitionException(file, 0, null, "no [piece ...] sections");
        }
        Map<String, Integer> byLetter = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Entry letter = maps.get(i).get("letter");
            if (letter == null) {
                throw new DefinitionException(file, pieceLines.get(i), "letter", "piece '" + names.get(i) + "' has no letter");
            }
            if (!letter.value().matches("\\+?[A-Z]")) {
                throw new DefinitionException(file, letter.line(), "letter", "expected one upper-case letter, optionally after '+', got '"
                        + letter.value() + "'");
            }
            if (byLetter.put(letter.value(), i) != null) {
                throw new DefinitionException(file, letter.line(), "letter", "letter '" + letter.value() + "' used twice");
            }
        }
        List<PieceType> pieces = new ArrayList<>();
        int royals = 0;
        for (int i = 0; i < names.size(); i++) {
            Map<String, Entry> m = maps.get(i);
            String letter = m.get("letter").value();
            Entry betzaE = m.get("betza");
            if (betzaE == null) {
                throw new DefinitionException(file, pieceLines.get(i), "betza", "piece '" + names.get(i) + "' has no betza");
            }
            List<Betza.Move> moves;
            try {
                moves = Betza.parse(betzaE.value());
            } catch (IllegalArgumentException e) {
                throw new DefinitionException(file, betzaE.line(), "betza", e.getMessage());
            }
            int[] promotions = new int[0];
            Entry promE = m.get("promotes");
            if (promE != null) {
                String[] ls = promE.value().split("\\s+");
                promotions = new int[ls.length];
                for (int j = 0; j < ls.length; j++) {
                    Integer t = byLetter.get(ls[j]);
                    if (t == null) {
                        throw new DefinitionException(file, promE.line(), "promotes", "no piece has the letter '" + ls[j] + "'");
                    }
                    if (t == i) {
                        throw new DefinitionException(file, promE.line(), "promotes", "a piece cannot promote to itself");
                    }
                    promotions[j] = t;
                }
            }
            int forced = intValue(file, m, "forced", 0, 0, geometry.ranks);
            if (forced > 0 && promotions.length == 0) {
                throw new DefinitionException(file, m.get("forced").line(), "forced", "piece '" + names.get(i)
                        + "' is forced to promote but has no 'promotes'");
            }
            int demotes = i;
            if (letter.startsWith("+")) {
                Integer base = byLetter.get(letter.substring(1));
                if (base == null) {
                    throw new DefinitionException(file, m.get("letter").line(), "letter", "promoted piece '" + letter
                            + "' has no unpromoted piece '" + letter.substring(1) + "'");
                }
                demotes = base;
            }
            boolean royal = bool(file, m, "royal");
            if (royal) {
                royals++;
            }
            boolean oneFile = false, noMate = false;
            Entry dropE = m.get("drop");
            if (dropE != null) {
                for (String flag : dropE.value().split("[,\\s]+")) {
                    switch (flag) {
                        case "one-file" -> oneFile = true;
                        case "no-mate" -> noMate = true;
                        default -> throw new DefinitionException(file, dropE.line(), "drop", "unknown drop restriction '"
                                + flag + "'; expected one-file, no-mate");
                    }
                }
            }
            int points = intValue(file, m, "points", royal ? 0 : 1, 0, 1000);
            pieces.add(new PieceType(i, names.get(i), letter, betzaE.value(), List.copyOf(moves), promotions, forced,
                    demotes, royal, bool(file, m, "pawn"), oneFile, noMate, points));
        }
        if (royals > 1) {
            throw new DefinitionException(file, 0, "royal", "more than one royal piece type");
        }
        // promoted pieces count at their base value (RULES.md C9)
        for (int i = 0; i < pieces.size(); i++) {
            PieceType p = pieces.get(i);
            if (p.demotesTo() != i) {
                pieces.set(i, new PieceType(p.index(), p.name(), p.letter(), p.betza(), p.moves(), p.promotions(),
                        p.forcedRanks(), p.demotesTo(), p.royal(), p.pawn(), p.dropOneFile(), p.dropNoMate(),
                        pieces.get(p.demotesTo()).points()));
            }
        }
        String notation = get(top, "notation", "fen");
        if (!notation.equals("fen") && !notation.equals("sfen")) {
            throw new DefinitionException(file, top.get("notation").line(), "notation", "expected fen or sfen");
        }
        String castlingV = get(top, "castling", "none");
        if (!castlingV.equals("none") && !castlingV.equals("standard")) {
            throw new DefinitionException(file, top.get("castling").line(), "castling", "expected none or standard");
        }
        boolean castling = castlingV.equals("standard");
        if (castling && (royals != 1 || byLetter.get("R") == null)) {
            throw new DefinitionException(file, top.get("castling").line(), "castling", "standard castling needs a royal piece and a rook 'R'");
        }
        int zone = intTop(file, top, "promotion-zone", 1, 1, geometry.ranks);
        String triggerV = get(top, "promotion-trigger", "arrival");
        RuleSet.PromotionTrigger trigger = switch (triggerV) {
            case "arrival" -> RuleSet.PromotionTrigger.ARRIVAL;
            case "touch" -> RuleSet.PromotionTrigger.TOUCH;
            default -> throw new DefinitionException(file, top.get("promotion-trigger").line(), "promotion-trigger",
                    "expected arrival or touch, got '" + triggerV + "'");
        };
        boolean drops = boolTop(file, top, "drops");
        Outcome stalemate = switch (get(top, "stalemate", "draw")) {
            case "draw" -> Outcome.DRAW;
            case "loss" -> Outcome.LOSS;
            default -> throw new DefinitionException(file, top.get("stalemate").line(), "stalemate", "expected draw or loss");
        };
        RuleSet.Repetition repetition = parseRepetition(file, top.get("repetition"));
        RuleSet.MoveRule moveRule = parseMoveRule(file, top.get("move-rule"));
        RuleSet.Material material = switch (get(top, "material", "none")) {
            case "none" -> RuleSet.Material.NONE;
            case "chess" -> RuleSet.Material.CHESS;
            case "shodo" -> RuleSet.Material.SHODO;
            case "bare-kings" -> RuleSet.Material.BARE_KINGS;
            default -> throw new DefinitionException(file, top.get("material").line(), "material",
                    "expected none, chess, shodo or bare-kings");
        };
        boolean extinction = boolTop(file, top, "extinction");
        if (!extinction && royals == 0) {
            throw new DefinitionException(file, 0, "royal", "a rule set needs a royal piece or 'extinction = true'");
        }
        RuleSet.Impasse impasse = new RuleSet.Impasse(false, false);
        Entry impE = top.get("impasse");
        if (impE != null) {
            boolean c24 = false, d27 = false;
            for (String s : impE.value().split("[,\\s]+")) {
                switch (s) {
                    case "24-point" -> c24 = true;
                    case "27-point" -> d27 = true;
                    case "none" -> {
                    }
                    default -> throw new DefinitionException(file, impE.line(), "impasse", "expected 24-point and/or 27-point, got '" + s + "'");
                }
            }
            impasse = new RuleSet.Impasse(c24, d27);
        }
        RuleSet.EndRules end = new RuleSet.EndRules(stalemate, repetition, moveRule, material, extinction, impasse);
        RuleSet rs;
        try {
            rs = new RuleSet(id, name, geometry, pieces, top.get("start").value(), notation.equals("sfen"), castling,
                    new RuleSet.Promotion(zone, trigger), drops, end, conventions(file, id, top, names, maps));
        } catch (IllegalArgumentException e) {
            throw new DefinitionException(file, 0, null, e.getMessage());
        }
        try {
            Position.fromFen(rs, rs.startFen);
        } catch (RuntimeException e) {
            throw new DefinitionException(file, top.get("start").line(), "start", e.getMessage());
        }
        return rs;
    }

    /** The display and naming keys ({@link Conventions}); every value is checked against the ones the code knows. */
    private static Conventions conventions(String file, String id, Map<String, Entry> top, List<String> names,
                                           List<Map<String, Entry>> maps) {
        String family = oneOf(file, top, "family", "chess", Set.of("chess", "shogi"));
        Conventions.Family fam = Conventions.Family.valueOf(family.toUpperCase(java.util.Locale.ROOT));
        String moveStyle = oneOf(file, top, "move-style", "uci", Set.of("uci", "usi"));
        Map<String, Conventions.Kanji> kanji = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Map<String, Entry> m = maps.get(i);
            Entry k = m.get("kanji");
            if (k == null) {
                for (String key : List.of("kanji-board", "kanji-second", "kanji-single", "csa")) {
                    if (m.containsKey(key)) {
                        throw new DefinitionException(file, m.get(key).line(), key, "piece '" + names.get(i)
                                + "' has '" + key + "' but no 'kanji'");
                    }
                }
                continue;
            }
            Entry csa = m.get("csa");
            if (csa != null && !csa.value().matches("[A-Z]{2}")) {
                throw new DefinitionException(file, csa.line(), "csa", "expected two upper-case letters, got '"
                        + csa.value() + "'");
            }
            Entry single = m.get("kanji-single");
            if (single != null && single.value().codePointCount(0, single.value().length()) != 1) {
                throw new DefinitionException(file, single.line(), "kanji-single", "expected one character, got '"
                        + single.value() + "'");
            }
            kanji.put(m.get("letter").value(), new Conventions.Kanji(k.value(), get(m, "kanji-board", k.value()),
                    get(m, "kanji-second", null), csa == null ? null : csa.value(),
                    single == null ? null : single.value()));
        }
        List<String> pieceSets = list(file, top, "piece-sets", family.equals("chess") ? "figures" : "kanji, international");
        if (pieceSets.contains("kanji-single")) {
            for (int i = 0; i < names.size(); i++) {
                Map<String, Entry> m = maps.get(i);
                if (!m.containsKey("kanji-single")) {
                    throw new DefinitionException(file, top.get("piece-sets").line(), "piece-sets", "the set kanji-single"
                            + " needs a kanji-single for every piece; piece '" + names.get(i) + "' has none");
                }
            }
        }
        Conventions c = new Conventions(fam, moveStyle, list(file, top, "protocols", "uci, xboard"),
                list(file, top, "notations", family.equals("chess") ? "san" : "western"),
                list(file, top, "records", "pgn"),
                pieceSets, get(top, "piece-names", null), get(top, "xboard", id),
                List.of(get(top, "xboard-aliases", "").split("[,\\s]+")).stream().filter(x -> !x.isEmpty()).toList(),
                bool(file, top, "xboard-native"), get(top, "xboard-pieces", null), get(top, "xboard-parent", "fairy"),
                get(top, "uci-variant", null), get(top, "fairy-stockfish", null),
                get(top, "lishogi", null), java.util.Collections.unmodifiableMap(kanji));
        if ((c.japanese() || c.records().contains("kif") || c.records().contains("csa")) && kanji.isEmpty()) {
            throw new DefinitionException(file, top.get("notations") != null ? top.get("notations").line() : 0,
                    "notations", "Japanese notation, KIF and CSA need each piece's 'kanji'");
        }
        return c;
    }

    private static String oneOf(String file, Map<String, Entry> m, String key, String dflt, Set<String> allowed) {
        String v = get(m, key, dflt);
        if (!allowed.contains(v)) {
            throw new DefinitionException(file, m.get(key).line(), key, "expected one of " + new java.util.TreeSet<>(allowed)
                    + ", got '" + v + "'");
        }
        return v;
    }

    private static List<String> list(String file, Map<String, Entry> m, String key, String dflt) {
        List<String> out = new ArrayList<>();
        for (String v : get(m, key, dflt).split("[,\\s]+")) {
            if (!CONVENTION_VALUES.get(key).contains(v)) {
                throw new DefinitionException(file, m.get(key).line(), key, "unknown value '" + v + "'; expected some of "
                        + new java.util.TreeSet<>(CONVENTION_VALUES.get(key)));
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    private static RuleSet.Repetition parseRepetition(String file, Entry e) {
        if (e == null) {
            return new RuleSet.Repetition(0, 0, false);
        }
        int claim = 0, auto = 0;
        boolean perpetual = false;
        for (String part : e.value().split(",")) {
            String[] w = part.strip().split("\\s+");
            try {
                if (w.length == 2 && w[0].equals("perpetual-check") && w[1].equals("loses")) {
                    perpetual = true;
                } else if (w.length == 2 && w[1].equals("claim")) {
                    claim = Integer.parseInt(w[0]);
                } else if (w.length == 2 && w[1].equals("auto")) {
                    auto = Integer.parseInt(w[0]);
                } else {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException x) {
                throw new DefinitionException(file, e.line(), "repetition", "expected parts like '3 claim', '4 auto', "
                        + "'perpetual-check loses', got '" + part.strip() + "'");
            }
        }
        return new RuleSet.Repetition(claim, auto, perpetual);
    }

    private static RuleSet.MoveRule parseMoveRule(String file, Entry e) {
        if (e == null) {
            return new RuleSet.MoveRule(0, 0);
        }
        int claim = 0, auto = 0;
        for (String part : e.value().split(",")) {
            String[] w = part.strip().split("\\s+");
            try {
                if (w.length == 2 && w[1].equals("claim")) {
                    claim = 2 * Integer.parseInt(w[0]);
                } else if (w.length == 2 && w[1].equals("auto")) {
                    auto = 2 * Integer.parseInt(w[0]);
                } else {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException x) {
                throw new DefinitionException(file, e.line(), "move-rule", "expected parts like '50 claim', '75 auto' "
                        + "(moves by each side), got '" + part.strip() + "'");
            }
        }
        return new RuleSet.MoveRule(claim, auto);
    }

    private static String get(Map<String, Entry> m, String key, String dflt) {
        Entry e = m.get(key);
        return e == null ? dflt : e.value();
    }

    private static boolean bool(String file, Map<String, Entry> m, String key) {
        Entry e = m.get(key);
        if (e == null) {
            return false;
        }
        return switch (e.value()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new DefinitionException(file, e.line(), key, "expected true or false, got '" + e.value() + "'");
        };
    }

    private static boolean boolTop(String file, Map<String, Entry> m, String key) {
        return bool(file, m, key);
    }

    private static int intValue(String file, Map<String, Entry> m, String key, int dflt, int min, int max) {
        Entry e = m.get(key);
        if (e == null) {
            return dflt;
        }
        try {
            int v = Integer.parseInt(e.value());
            if (v < min || v > max) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException x) {
            throw new DefinitionException(file, e.line(), key, "expected a whole number from " + min + " to " + max
                    + ", got '" + e.value() + "'");
        }
    }

    private static int intTop(String file, Map<String, Entry> m, String key, int dflt, int min, int max) {
        return intValue(file, m, key, dflt, min, max);
    }
}
