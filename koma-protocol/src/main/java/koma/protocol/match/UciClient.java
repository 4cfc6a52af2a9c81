package koma.protocol.match;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * A UCI or USI engine in a child process (the two dialects differ in a few words: {@code uci}/{@code usi},
 * {@code ucinewgame}/{@code usinewgame}, FEN/SFEN, which of {@code wtime}/{@code btime} is the first player's, and
 * USI's {@code byoyomi}, {@code resign}, {@code win} and {@code gameover}).
 *
 * <p>The process handling (time-stamped output lines, drained error output, shutdown) is {@link EngineProcess}'s.
 * Option order: the user's options as given, then {@code UCI_Variant} = the rule
 * set's identifier when the user did not set it and the engine has that option (or the rule set is not the
 * dialect's default, chess for UCI and shogi for USI).
 *
 * <p>One dialect quirk is handled: Fairy-Stockfish playing Shodo from a VariantPath file writes a promotion as
 * {@code b7d8+} where RULES.md 9.3 writes {@code b7d8q}; the moves sent to it are translated (and the referee reads
 * its {@code +} back, see {@link Referee}).
 */
public final class UciClient extends EngineProcess implements EngineClient {
    public static final long HANDSHAKE_TIMEOUT_MS = 15_000;
    public static final long READY_TIMEOUT_MS = 15_000;
    private final RuleSet rules;
    private final boolean usi;
    private final Set<String> advertised = new HashSet<>();
    private String engineName;
    /** Fairy-Stockfish plays Shodo through a VariantPath definition whose promotions are written 'g7g8+'. */
    private boolean plusPromotions;

    private UciClient(EngineConfig config, RuleSet rules, Process process) {
        super(config, process);
        this.rules = rules;
        this.usi = config.protocol() == EngineConfig.Protocol.USI;
    }

    /** Starts the process, does the handshake, sets the options and waits until the engine is ready. */
    public static UciClient start(EngineConfig config, RuleSet rules) throws EngineException {
        if (config.protocol() == EngineConfig.Protocol.USI && !rules.conventions.protocols().contains("usi")) {
            throw new IllegalArgumentException("USI does not speak " + rules.id + "; use UCI");
        }
        UciClient c = new UciClient(config, rules, launch(config));
        return started(c, c::handshake);
    }

    @Override
    public String name() {
        return nameOr(engineName);
    }

    @Override
    public MoveNotation.Style style() {
        return usi ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }

    private void handshake() throws EngineException {
        String hello = usi ? "usi" : "uci", ok = usi ? "usiok" : "uciok";
        send(hello);
        long deadline = System.nanoTime() + HANDSHAKE_TIMEOUT_MS * 1_000_000;
        while (true) {
            Line l = next(deadline);
            if (l == null) {
                throw new EngineException("engine '" + config.command() + "' did not answer '" + hello + "' with '" + ok
                        + "' within " + HANDSHAKE_TIMEOUT_MS + " ms" + stderrTail());
            }
            if (l == EOF) {
                throw new EngineException("engine '" + config.command() + "' exited during the '" + hello + "' handshake"
                        + exitCode() + stderrTail());
            }
            String s = l.text().strip();
            if (s.startsWith("id name ")) {
                engineName = s.substring(8).strip();
            } else if (s.startsWith("option name ")) {
                int type = s.indexOf(" type ");
                advertised.add((type < 0 ? s.substring(12) : s.substring(12, type)).strip().toLowerCase());
            } else if (s.equals(ok)) {
                break;
            }
        }
        plusPromotions = !usi && engineName != null && engineName.startsWith("Fairy-Stockfish")
                && rules.promotion.trigger() == RuleSet.PromotionTrigger.ARRIVAL && singlePromotions(rules);
        boolean variantGiven = false;
        for (Map.Entry<String, String> o : config.options()) {
            setOption(o.getKey(), o.getValue());
            variantGiven |= o.getKey().equalsIgnoreCase("UCI_Variant");
        }
        if (!variantGiven && (advertised.contains("uci_variant") || rules != RuleSet.defaultFor(usi ? "usi" : "uci"))) {
            setOption("UCI_Variant", rules.conventions.uciVariant() != null ? rules.conventions.uciVariant() : rules.id);
        }
        String refused = ready(READY_TIMEOUT_MS);
        if (refused != null) {
            throw new EngineException(name() + " refused its options: '" + refused + "'; the match would not play the "
                    + "engine it was asked to (a net file that cannot be read, a value out of range)");
        }
    }

    /**
     * Whether a line an engine writes before {@code readyok} reports an error: {@code info string} followed by
     * "error" (Koma's {@code info string error: EvalFile: ...}, Stockfish's {@code info string ERROR: ...}), or
     * Stockfish's {@code No such option: X}.
     */
    static boolean reportsError(String line) {
        String s = line.strip();
        if (s.startsWith("No such option:")) {
            return true;
        }
        return s.startsWith("info string ") && s.substring(12).stripLeading().toLowerCase().startsWith("error");
    }

    /**
     * True when no piece may promote to more than one type (Shodo's knight becomes a queen): Fairy-Stockfish then
     * writes a promotion with '+', where a choice (chess) needs the piece letter.
     */
    private static boolean singlePromotions(RuleSet rs) {
        for (var pt : rs.pieces) {
            if (pt.promotions().length > 1) {
                return false;
            }
        }
        return true;
    }

    private void setOption(String name, String value) throws EngineException {
        send("setoption name " + name + (value == null || value.isEmpty() ? "" : " value " + value));
    }

    /**
     * {@code isready}, then waits for {@code readyok}, skipping everything before it (late output included); returns
     * the first line before it that {@link #reportsError reports an error}, or null.
     */
    private String ready(long timeoutMs) throws EngineException {
        send("isready");
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        String error = null;
        while (true) {
            Line l = next(deadline);
            if (l == null) {
                healthy = false;
                throw new EngineException(name() + " did not answer 'isready' within " + timeoutMs + " ms" + stderrTail());
            }
            if (l == EOF) {
                throw new EngineException(name() + " exited" + exitCode() + stderrTail());
            }
            if (l.text().strip().equals("readyok")) {
                return error;
            }
            if (error == null && reportsError(l.text())) {
                error = l.text().strip();
            }
        }
    }

    @Override
    public void newGame() throws EngineException {
        if (!healthy()) {
            throw new EngineException(name() + " is not running" + stderrTail());
        }
        if (usi) {
            ready(READY_TIMEOUT_MS); // USI: isready/readyok before usinewgame
            send("usinewgame");
        } else {
            send("ucinewgame");
            ready(READY_TIMEOUT_MS);
        }
    }

    /** The {@code position} command: startpos or FEN (UCI) / SFEN (USI), then the moves. */
    static String positionCommand(ThinkRequest r, boolean usi, boolean plusPromotions) {
        StringBuilder sb = new StringBuilder("position ");
        if (r.fromStart()) {
            sb.append("startpos");
        } else {
            sb.append(usi ? "sfen " + Fen.formatSfen(r.root()) : "fen " + Fen.formatFen(r.root()));
        }
        List<String> moves = r.moves(usi ? MoveNotation.Style.USI : MoveNotation.Style.UCI);
        if (!moves.isEmpty()) {
            sb.append(" moves");
            for (String m : moves) {
                sb.append(' ').append(plusPromotions && m.matches("[a-z]\\d+[a-z]\\d+[a-z]")
                        ? m.substring(0, m.length() - 1) + "+" : m);
            }
        }
        return sb.toString();
    }

    /** The {@code go} command; UCI's wtime and USI's btime are the first player's clock. */
    static String goCommand(ThinkRequest r, boolean usi) {
        TimeControl tc = r.timeControl();
        String t0 = usi ? "btime" : "wtime", t1 = usi ? "wtime" : "btime";
        String i0 = usi ? "binc" : "winc", i1 = usi ? "winc" : "binc";
        long[] left = r.timeLeftMs();
        return switch (tc.kind()) {
            case CLOCK -> "go " + t0 + " " + left[0] + " " + t1 + " " + left[1] + " " + i0 + " " + tc.incMs() + " " + i1
                    + " " + tc.incMs();
            case BYOYOMI -> "go " + t0 + " " + left[0] + " " + t1 + " " + left[1] + " byoyomi " + tc.byoyomiMs();
            case MOVETIME -> "go movetime " + tc.moveTimeMs();
            case DEPTH -> "go depth " + tc.depth();
            case NODES -> "go nodes " + tc.nodes();
        };
    }

    @Override
    public Reply think(ThinkRequest request, long timeoutMs) {
        discardPending();
        if (!healthy()) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, name() + " is not running" + exitCode() + stderrTail());
        }
        long t0;
        try {
            send(positionCommand(request, usi, plusPromotions));
            send(goCommand(request, usi));
            t0 = System.nanoTime();
        } catch (EngineException e) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, e.getMessage());
        }
        return await(t0, timeoutMs, "bestmove", this::stopAfterTimeout, (text, elapsed, progress) -> {
            String[] w = text.split("\\s+");
            if (w[0].equals("info")) {
                Object[] parsed = parseInfo(w, usi);
                if (parsed[0] != null) {
                    progress.score = (Score) parsed[0];
                }
                if ((Integer) parsed[1] > 0) {
                    progress.depth = (Integer) parsed[1];
                }
                return null;
            }
            if (!w[0].equals("bestmove")) {
                return null;
            }
            String m = w.length > 1 ? w[1] : "";
            Reply.Kind kind = switch (m) {
                case "resign" -> Reply.Kind.RESIGN;
                case "win" -> Reply.Kind.DECLARE;
                case "", "0000", "(none)", "none", "null" -> Reply.Kind.NO_MOVE;
                default -> Reply.Kind.MOVE;
            };
            return new Reply(kind, m, elapsed, progress.score, progress.depth, null);
        });
    }

    /** After a timeout: {@code stop}, and wait a little for the bestmove it should produce; else mark unhealthy. */
    private void stopAfterTimeout() {
        stopAfterTimeout(() -> send("stop"), text -> text.startsWith("bestmove"));
    }

    /**
     * The score and depth of an {@code info} line: {@code [Score or null, depth or 0]}. USI mate distances are in
     * plies and become moves; text after {@code string} is ignored.
     */
    static Object[] parseInfo(String[] w, boolean usi) {
        Score score = null;
        int depth = 0;
        for (int i = 1; i < w.length; i++) {
            switch (w[i]) {
                case "string" -> i = w.length;
                case "depth" -> {
                    if (i + 1 < w.length && w[i + 1].matches("\\d{1,4}")) {
                        depth = Integer.parseInt(w[++i]);
                    }
                }
                case "score" -> {
                    if (i + 2 < w.length && w[i + 2].matches("[+-]?\\d{1,9}")) {
                        int v = Integer.parseInt(w[i + 2].startsWith("+") ? w[i + 2].substring(1) : w[i + 2]);
                        if (w[i + 1].equals("cp")) {
                            score = new Score(false, v);
                        } else if (w[i + 1].equals("mate")) {
                            score = new Score(true, usi ? (v > 0 ? (v + 1) / 2 : -((-v + 1) / 2)) : v);
                        }
                        i += 2;
                    }
                }
                default -> {
                }
            }
        }
        return new Object[]{score, depth};
    }

    @Override
    public void gameOver(int result) {
        if (usi && healthy()) {
            try {
                send("gameover " + (result > 0 ? "win" : result < 0 ? "lose" : "draw"));
            } catch (EngineException e) {
                // the next request will find out
            }
        }
    }
}
