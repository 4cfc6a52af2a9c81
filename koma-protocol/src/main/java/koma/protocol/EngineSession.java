package koma.protocol;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

import koma.engine.nnue.NetChoice;
import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.SearchInfo;
import koma.engine.SkillLevels;
import koma.engine.TimeManager;
import koma.engine.TranspositionTable;
import koma.rules.Move;
import koma.rules.Perft;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;

/**
 * One engine session spoken over UCI or USI (the {@link Dialect}): the current rule set and position, and the
 * commands {@code uci}/{@code usi}, {@code isready}, {@code setoption}, {@code ucinewgame}/{@code usinewgame},
 * {@code position}, {@code go perft N}, {@code d} and {@code quit}. A malformed line gets an
 * {@code info string error: ...} naming what is wrong and leaves the session as it was.
 */
public final class EngineSession {
    /** Longest accepted input line: long games are fine, runaway input is refused. */
    public static final int MAX_LINE = 1_000_000;
    public static final String NAME = "Koma 0.1.0";

    /** The protocol dialects: UCI (every rule set, chosen by UCI_Variant) and USI (shogi). */
    public enum Dialect {
        UCI, USI;

        MoveNotation.Style style() {
            return this == USI ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
        }
    }

    private final Dialect dialect;
    private final PrintStream out;
    private RuleSet rules;
    private Position position;
    public static final int DEFAULT_HASH_MB = 16;
    private final TranspositionTable tt = new TranspositionTable(DEFAULT_HASH_MB);
    private final TimeManager timeManager = new TimeManager(30);
    /** Search threads (the Threads option): Lazy SMP helpers beyond the first. */
    static final int MAX_THREADS = 64;
    private int threads = 1;
    /** The searcher for the current rule set, made on first use. */
    private Search search;
    private final SearchThread searchThread = new SearchThread("koma-search");
    private boolean searchInfinite;
    private int multiPv = 1;
    /**
     * The Contempt option: centipawns a draw is worth less than 0 to the side the engine searches for; null until
     * given, so the search keeps its rule set's default ({@link koma.engine.SearchDefaults}).
     */
    private Integer contempt;
    private int skill = 20;
    /** The evaluation chosen with Use NNUE and EvalFile. */
    private final NetChoice nets = new NetChoice();
    private boolean limitStrength;
    private int elo = SkillLevels.MAX_ELO;
    private final java.util.Random noiseSeeds = new java.util.Random();

    /** The rule set a session starts with: the first built-in one whose definition lists the dialect's protocol. */
    private static RuleSet defaultRules(Dialect dialect) {
        return RuleSet.defaultFor(dialect.name().toLowerCase());
    }

    public EngineSession(Dialect dialect, PrintStream out) {
        this.dialect = dialect;
        this.out = out;
        this.rules = defaultRules(dialect);
        this.position = Position.start(rules);
    }

    /** Reads commands until {@code quit} or end of input. */
    public void run(BufferedReader in) throws IOException {
        String line;
        boolean quit = false;
        while ((line = readLine(in)) != null) {
            if (!handle(line)) {
                quit = true;
                break;
            }
        }
        if (!quit) {
            // end of input: a bounded search still finishes and reports its move; an infinite one is stopped
            if (searchInfinite) {
                stopSearch();
            }
            waitForSearch();
        }
        out.flush();
    }

    private String readLine(BufferedReader in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        boolean tooLong = false;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (sb.length() < MAX_LINE) {
                sb.append((char) c);
            } else {
                tooLong = true;
            }
        }
        if (c == -1 && sb.isEmpty()) {
            return null;
        }
        if (tooLong) {
            error("line longer than " + MAX_LINE + " characters ignored");
            return "";
        }
        return sb.toString();
    }

    /** Handles one command line; returns false on {@code quit}. */
    public boolean handle(String rawLine) {
        String line = rawLine.strip();
        if (line.isEmpty()) {
            return true;
        }
        String[] w = line.split("\\s+");
        try {
            switch (w[0]) {
                case "uci" -> identify("uciok");
                case "usi" -> identify("usiok");
                case "isready" -> {
                    warmUp();
                    out.println("readyok");
                }
                case "setoption" -> setOption(w);
                case "ucinewgame", "usinewgame" -> {
                    waitForSearch();
                    tt.clear();
                    if (search != null) {
                        search.newGame();
                    }
                    position = Position.start(rules);
                }
                case "position" -> {
                    waitForSearch();
                    position(w);
                }
                case "go" -> {
                    waitForSearch();
                    go(w);
                }
                case "d" -> display();
                case "stop" -> stopSearch();
                case "ponderhit" -> {
                    if (search != null) {
                        search.ponderhit();
                    }
                }
                case "gameover" -> {
                }
                case "quit" -> {
                    stopSearch();
                    return false;
                }
                default -> error("unknown command '" + w[0] + "'");
            }
        } catch (NotationException e) {
            error(e.getMessage());
        } catch (IllegalArgumentException e) {
            error(e.getMessage());
        }
        out.flush();
        return true;
    }

    private void identify(String ok) {
        out.println("id name " + NAME);
        out.println("id author the Koma developers");
        out.println("option name " + (dialect == Dialect.USI ? "USI_Hash" : "Hash") + " type spin default "
                + DEFAULT_HASH_MB + " min 1 max 4096");
        out.println("option name " + (dialect == Dialect.USI ? "USI_Ponder" : "Ponder") + " type check default false");
        out.println("option name Threads type spin default 1 min 1 max " + MAX_THREADS);
        out.println("option name MultiPV type spin default 1 min 1 max 256");
        out.println("option name Contempt type spin default 0 min " + -Search.MAX_CONTEMPT + " max "
                + Search.MAX_CONTEMPT);
        out.println("option name Skill Level type spin default 20 min 0 max 20");
        out.println("option name UCI_LimitStrength type check default false");
        out.println("option name Use NNUE type check default true");
        out.println("option name EvalFile type string default <built-in>");
        out.println("option name UCI_Elo type spin default " + SkillLevels.MAX_ELO + " min " + SkillLevels.MIN_ELO
                + " max " + SkillLevels.MAX_ELO);
        if (dialect == Dialect.UCI) {
            out.println("option name UCI_Variant type combo default " + defaultRules(dialect).id + " "
                    + String.join(" ", RuleSet.IDS.stream().map(v -> "var " + v).toList()));
        }
        out.println(ok);
    }

    private void setOption(String[] w) {
        int nameAt = indexOf(w, "name"), valueAt = indexOf(w, "value");
        if (nameAt != 1) {
            throw new IllegalArgumentException("setoption: expected 'setoption name <id> [value <x>]'");
        }
        int nameEnd = valueAt < 0 ? w.length : valueAt;
        String name = String.join(" ", Arrays.asList(w).subList(2, nameEnd));
        String value = valueAt < 0 ? "" : String.join(" ", Arrays.asList(w).subList(valueAt + 1, w.length));
        if (name.equalsIgnoreCase("UCI_Variant") || name.equalsIgnoreCase("USI_Variant")) {
            RuleSet chosen = RuleSet.IDS.contains(value) ? RuleSet.of(value) : RuleSet.byExternalName(value);
            if (chosen == null) {
                throw new IllegalArgumentException("setoption UCI_Variant: unknown rule set '" + value + "'; known: "
                        + String.join(", ", RuleSet.IDS));
            }
            if (!chosen.conventions.protocols().contains(dialect.name().toLowerCase())) {
                throw new IllegalArgumentException(dialect + " does not speak " + chosen.id + "; use UCI for '" + value + "'");
            }
            waitForSearch();
            rules = chosen;
            position = Position.start(rules);
            search = null;
        } else if (name.equalsIgnoreCase("Hash") || name.equalsIgnoreCase("USI_Hash")) {
            if (!value.matches("\\d{1,4}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > 4096) {
                throw new IllegalArgumentException("setoption " + name + ": expected megabytes from 1 to 4096, got '" + value + "'");
            }
            waitForSearch();
            tt.resize(Integer.parseInt(value));
        } else if (name.equalsIgnoreCase("Threads")) {
            threads = intOption(name, value, 1, MAX_THREADS);
        } else if (name.equalsIgnoreCase("MultiPV")) {
            multiPv = intOption(name, value, 1, 256);
        } else if (name.equalsIgnoreCase("Contempt")) {
            contempt = intOption(name, value, -Search.MAX_CONTEMPT, Search.MAX_CONTEMPT);
        } else if (name.equalsIgnoreCase("Skill Level")) {
            skill = intOption(name, value, 0, 20);
        } else if (name.equalsIgnoreCase("UCI_LimitStrength")) {
            limitStrength = booleanOption(name, value);
        } else if (name.equalsIgnoreCase("UCI_Elo")) {
            elo = intOption(name, value, SkillLevels.MIN_ELO, SkillLevels.MAX_ELO);
        } else if (name.equalsIgnoreCase("Use NNUE")) {
            nets.setEnabled(booleanOption(name, value));
        } else if (name.equalsIgnoreCase("EvalFile")) {
            waitForSearch();
            nets.setFile(value);
        } else if (name.equalsIgnoreCase("Ponder") || name.equalsIgnoreCase("USI_Ponder")) {
            booleanOption(name, value);
        } else if (!name.startsWith("USI_")) {
            // USI_Hash and USI_Ponder are sent by every shogi GUI; they take effect with the search
            error("unknown option '" + name + "' ignored");
        }
    }

    private static int intOption(String name, String value, int min, int max) {
        if (!value.matches("-?\\d{1,9}") || Integer.parseInt(value) < min || Integer.parseInt(value) > max) {
            throw new IllegalArgumentException("setoption " + name + ": expected a number from " + min + " to " + max
                    + ", got '" + value + "'");
        }
        return Integer.parseInt(value);
    }

    private static boolean booleanOption(String name, String value) {
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("setoption " + name + ": expected true or false, got '" + value + "'");
        }
        return value.equals("true");
    }

    /** The skill level in force: Skill Level, or the one UCI_Elo maps to when UCI_LimitStrength is on. */
    private int effectiveSkill() {
        return limitStrength ? SkillLevels.forElo(elo) : skill;
    }

    private static int indexOf(String[] w, String word) {
        for (int i = 0; i < w.length; i++) {
            if (w[i].equals(word)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code position startpos|fen F|sfen S [moves m1 m2 ...]}; the position changes only if all of it is valid. */
    private void position(String[] w) {
        if (w.length < 2) {
            throw new IllegalArgumentException("position: expected 'startpos', 'fen <FEN>' or 'sfen <SFEN>'");
        }
        int movesAt = indexOf(w, "moves");
        int end = movesAt < 0 ? w.length : movesAt;
        Position p;
        switch (w[1]) {
            case "startpos" -> {
                if (end != 2) {
                    throw new IllegalArgumentException("position startpos: unexpected '" + w[2] + "'");
                }
                p = Position.start(rules);
            }
            case "fen", "sfen" -> {
                if (end <= 2) {
                    throw new IllegalArgumentException("position " + w[1] + ": the position is missing");
                }
                String text = String.join(" ", Arrays.asList(w).subList(2, end));
                p = w[1].equals("sfen") ? Fen.parseSfen(rules, text) : Fen.parseFen(rules, text);
            }
            default -> throw new IllegalArgumentException("position: expected 'startpos', 'fen' or 'sfen', got '" + w[1] + "'");
        }
        if (movesAt >= 0) {
            for (int i = movesAt + 1; i < w.length; i++) {
                p.doMove(MoveNotation.parse(p, w[i], dialect.style()));
            }
        }
        position = p;
    }

    private final WarmUp warmUp = new WarmUp();

    /**
     * Reads the chosen net file and warms the JVM up for the current rule set and evaluation once, unless a search
     * is running (isready must then answer at once).
     */
    private void warmUp() {
        if (searchThread.running()) {
            return;
        }
        // reads an EvalFile now, not on the clock
        warmUp.ensure(rules, nets.forRules(rules, why -> out.println("info string " + why)));
    }

    private void go(String[] w) {
        if (w.length >= 2 && w[1].equals("perft")) {
            if (w.length != 3 || !w[2].matches("\\d{1,2}") || Integer.parseInt(w[2]) < 1) {
                throw new IllegalArgumentException("go perft: expected a depth from 1 to 99");
            }
            perft(Integer.parseInt(w[2]));
            return;
        }
        boolean pondering = java.util.Arrays.asList(w).contains("ponder");
        Limits limits = limits(w);
        searchInfinite = limits.infinite() || pondering;
        if (search == null) {
            search = new Search(rules, tt);
        }
        Search searcher = search;
        searcher.setNetwork(nets.forRules(rules, why -> out.println("info string " + why)));
        searcher.setMultiPv(multiPv);
        if (contempt != null) {
            searcher.setContempt(contempt);
        }
        searcher.setThreads(threads);
        searcher.setSkill(effectiveSkill(), noiseSeeds.nextLong());
        searcher.setPondering(pondering);
        searcher.resetStop();
        Position root = position.copyWithHistory();
        searchThread.start(() -> {
            Search.Result r = searcher.search(root, limits, timeManager, info -> out.println(infoLine(root, info)));
            String best = r.bestMove() == Move.NONE ? (dialect == Dialect.USI ? "resign" : "0000")
                    : MoveNotation.format(root, r.bestMove(), dialect.style());
            String ponder = "";
            if (r.bestMove() != Move.NONE && r.ponderMove() != Move.NONE) {
                root.doMove(r.bestMove());
                ponder = " ponder " + MoveNotation.format(root, r.ponderMove(), dialect.style());
                root.undoMove();
            }
            out.println("bestmove " + best + ponder);
            out.flush();
        });
    }

    /** Reads the {@code go} parameters; USI's btime is the first player's clock, UCI's wtime is. */
    private Limits limits(String[] w) {
        long t0 = -1, t1 = -1, i0 = 0, i1 = 0, byoyomi = 0, moveTime = -1, nodes = -1;
        int movesToGo = 0, depth = 0;
        boolean infinite = false;
        for (int i = 1; i < w.length; i++) {
            String k = w[i];
            if (k.equals("infinite")) {
                infinite = true;
                continue;
            }
            if (k.equals("ponder")) {
                continue;
            }
            if (i + 1 >= w.length) {
                throw new IllegalArgumentException("go: '" + k + "' needs a value");
            }
            String v = w[++i];
            if (!v.matches("-?\\d{1,12}")) {
                throw new IllegalArgumentException("go " + k + ": expected a number, got '" + v + "'");
            }
            long x = Long.parseLong(v);
            boolean first = dialect == Dialect.USI ? k.startsWith("b") : k.startsWith("w");
            switch (k) {
                case "wtime", "btime" -> {
                    if (first) {
                        t0 = Math.max(0, x);
                    } else {
                        t1 = Math.max(0, x);
                    }
                }
                case "winc", "binc" -> {
                    if (first) {
                        i0 = Math.max(0, x);
                    } else {
                        i1 = Math.max(0, x);
                    }
                }
                case "movestogo" -> movesToGo = (int) Math.max(0, Math.min(x, 1000));
                case "byoyomi" -> byoyomi = Math.max(0, x);
                case "movetime" -> moveTime = Math.max(1, x);
                case "depth" -> depth = (int) Math.max(1, Math.min(x, 100));
                case "nodes" -> nodes = Math.max(1, x);
                case "mate" -> depth = (int) Math.max(1, Math.min(2 * x, 100));
                default -> throw new IllegalArgumentException("go: unknown parameter '" + k + "'");
            }
        }
        return new Limits(t0, t1, i0, i1, movesToGo, byoyomi, moveTime, depth, nodes, infinite);
    }

    /** An {@code info} line; USI counts mate in plies, UCI in moves. */
    private String infoLine(Position root, SearchInfo info) {
        StringBuilder sb = new StringBuilder("info depth ").append(info.depth()).append(" seldepth ").append(info.selDepth());
        if (dialect == Dialect.UCI || info.multiPv() > 1) {
            sb.append(" multipv ").append(info.multiPv());
        }
        if (info.mateIn() != 0) {
            int plies = Search.MATE - Math.abs(info.score());
            sb.append(" score mate ").append(dialect == Dialect.USI ? (info.score() > 0 ? plies : -plies) : info.mateIn());
        } else {
            sb.append(" score cp ").append(info.score());
        }
        sb.append(" nodes ").append(info.nodes()).append(" nps ").append(info.nps()).append(" hashfull ")
                .append(info.hashfull()).append(" time ").append(info.timeMs()).append(" pv");
        Position p = root.copy();
        for (int m : info.pv()) {
            sb.append(' ').append(MoveNotation.format(p, m, dialect.style()));
            p.doMove(m);
        }
        return sb.toString();
    }

    private void stopSearch() {
        searchThread.stop(search);
    }

    /** Waits for a running search to finish (it has been told to stop, or it ends by its limits). */
    private void waitForSearch() {
        searchThread.await();
    }

    private void perft(int depth) {
        Position p = position.copy();
        Perft perft = new Perft(p, depth);
        long total = 0;
        for (Perft.Entry e : perft.divide(depth, m -> MoveNotation.format(p, m, dialect.style()))) {
            out.println(e.move() + ": " + e.nodes());
            total += e.nodes();
        }
        out.println();
        out.println("Nodes searched: " + total);
    }

    private void display() {
        out.println(Board.draw(position, dialect == Dialect.USI));
        out.println((rules.sfen && dialect == Dialect.USI ? "Sfen: " + Fen.formatSfen(position) : "Fen: " + Fen.formatFen(position)));
        out.println("Key: " + String.format(Locale.ROOT, "%016X", position.key()));
        out.println("Checkers: " + checkers());
    }

    private String checkers() {
        int ksq = position.kingSquare(position.sideToMove());
        if (ksq < 0) {
            return "";
        }
        return String.join(" ", position.attackers(ksq, position.sideToMove() ^ 1).stream()
                .map(sq -> MoveNotation.square(position.geometry(), sq, dialect.style())).sorted().toList());
    }

    private void error(String message) {
        out.println("info string error: " + message);
    }
}
