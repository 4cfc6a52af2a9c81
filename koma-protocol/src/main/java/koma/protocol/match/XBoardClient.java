package koma.protocol.match;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * An XBoard engine in a child process. XBoard is stateful: the client keeps the engine in {@code force} mode, sends
 * only the moves it has not sent yet, sets the clock before each {@code go} and puts the engine back in force mode when
 * its move arrives. Engines speak one of two dialects ({@link Dialect}), chosen by the engine's first words or by the
 * option {@code dialect=cecp|gnushogi}:
 * <ul>
 *   <li>{@link Cecp}: CECP v2 ({@code protover 2} and {@code feature}s; HaChu, Sjaak II, Fairy-Max, Koma): UCI-style
 *   moves, {@code usermove} when asked for, {@code move M} answers, {@code ping}/{@code pong};</li>
 *   <li>{@link GnuShogi}: the xshogi protocol of GNU Shogi 1.4 (Debian's {@code gnushogi}), which XBoard speaks to it
 *   as a protocol-1 engine: no features, USI-style moves ({@code 7g7f}, {@code 2d2c+}, {@code P*5e}) each echoed back
 *   as {@code N. M}, answers {@code N. ... M}, and a time per move in whole seconds with a one-second minimum; the
 *   client times it instead (see {@link GnuShogi}).</li>
 * </ul>
 */
public final class XBoardClient extends EngineProcess implements EngineClient {
    public static final long FEATURE_TIMEOUT_MS = 3_000;
    public static final long PING_TIMEOUT_MS = 15_000;
    private static final Pattern FEATURE = Pattern.compile("(\\w+)=(\"[^\"]*\"|\\S+)");
    /** GNU Shogi's first line, printed before it reads anything. */
    private static final Pattern GNU_SHOGI_BANNER = Pattern.compile("GNU Shogi \\d\\S*");
    /** XBoard's name of its default variant, chess, which needs no {@code variant} command. */
    private static final String XBOARD_DEFAULT = "normal";

    private final RuleSet rules;
    private final Map<String, String> features = new HashMap<>();
    private Dialect dialect;
    /** Moves of the current game the engine knows (sent to it, or its own). */
    private int sentMoves;
    private boolean setUp;

    private XBoardClient(EngineConfig config, RuleSet rules, Process process) {
        super(config, process);
        this.rules = rules;
    }

    /** Starts the process, recognises the dialect, negotiates features, chooses the variant and sends the options. */
    public static XBoardClient start(EngineConfig config, RuleSet rules) throws EngineException {
        XBoardClient c = new XBoardClient(config, rules, launch(config));
        return started(c, c::handshake);
    }

    @Override
    public String name() {
        return nameOr(dialect == null ? null : dialect.engineName());
    }

    @Override
    public MoveNotation.Style style() {
        return dialect.style();
    }

    /** The dialect the engine speaks (after the handshake): {@code cecp} or {@code gnushogi}. */
    public String dialect() {
        return dialect.id();
    }

    private void handshake() throws EngineException {
        String forced = null;
        for (Map.Entry<String, String> o : config.options()) {
            if (o.getKey().equalsIgnoreCase("dialect")) {
                forced = o.getValue().toLowerCase(Locale.ROOT);
                if (!forced.equals("cecp") && !forced.equals("gnushogi")) {
                    throw new IllegalArgumentException("option dialect: expected cecp or gnushogi, got '"
                            + o.getValue() + "'");
                }
            }
        }
        send("xboard");
        send("protover 2");
        String banner = null;
        long deadline = System.nanoTime() + FEATURE_TIMEOUT_MS * 1_000_000;
        while (true) {
            Line l = next(deadline);
            if (l == null) {
                break; // a protocol-1 engine, or one that never says done=1
            }
            if (l == EOF) {
                throw new EngineException("engine '" + config.command() + "' exited during the feature negotiation"
                        + exitCode() + stderrTail());
            }
            String s = l.text().strip();
            if (GNU_SHOGI_BANNER.matcher(s).matches() && !"cecp".equals(forced)) {
                banner = s;
                break;
            }
            if (!s.startsWith("feature ")) {
                continue;
            }
            Matcher m = FEATURE.matcher(s.substring(8));
            boolean done = false;
            while (m.find()) {
                String key = m.group(1), value = m.group(2).replaceAll("^\"|\"$", "");
                features.put(key, value);
                if (key.equals("done")) {
                    done = value.equals("1");
                    if (value.equals("0")) {
                        deadline = System.nanoTime() + 60_000L * 1_000_000; // the engine asked for more time
                    }
                } else {
                    send("accepted " + key);
                }
            }
            if (done) {
                break;
            }
        }
        dialect = banner != null || "gnushogi".equals(forced) ? new GnuShogi(banner) : new Cecp();
        dialect.setUp();
    }

    /** The user's options other than {@code dialect}, which the client itself reads. */
    private List<Map.Entry<String, String>> engineOptions() {
        return config.options().stream().filter(o -> !o.getKey().equalsIgnoreCase("dialect")).toList();
    }

    @Override
    public void newGame() throws EngineException {
        if (!healthy()) {
            throw new EngineException(name() + " is not running" + stderrTail());
        }
        sentMoves = 0;
        setUp = false;
        dialect.newGame();
    }

    @Override
    public Reply think(ThinkRequest request, long timeoutMs) {
        discardPending();
        if (!healthy()) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, name() + " is not running" + exitCode() + stderrTail());
        }
        long t0, soft;
        try {
            if (!setUp) {
                if (!request.fromStart()) {
                    dialect.setBoard(request);
                }
                setUp = true;
            }
            soft = dialect.go(request);
            t0 = System.nanoTime();
        } catch (EngineException e) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, e.getMessage());
        }
        if (soft >= 0 && soft < timeoutMs) {
            Reply r = await(t0, soft, "move", () -> { }, dialect::line);
            if (r.kind() != Reply.Kind.TIMEOUT) {
                return r;
            }
            try {
                dialect.interrupt();
            } catch (EngineException e) {
                return new Reply(Reply.Kind.CRASH, null, r.elapsedMs(), null, 0, e.getMessage());
            }
        }
        return await(t0, timeoutMs, "move", this::moveNow, dialect::line);
    }

    /** The engine's move arrived: it is part of the game the engine knows; back to force mode. */
    private Reply moved(String move, long elapsed, Progress progress) {
        sentMoves++;
        try {
            send("force");
        } catch (EngineException e) {
            // the move still counts; the next request will find out
        }
        return new Reply(Reply.Kind.MOVE, move, elapsed, progress.score, progress.depth, null);
    }

    /** After a timeout: ask for a move now, and wait a little for it; else mark the engine unhealthy. */
    private void moveNow() {
        if (stopAfterTimeout(dialect::interrupt, dialect::isMove)) {
            try {
                send("force");
            } catch (EngineException e) {
                healthy = false;
            }
        }
    }

    @Override
    public void gameOver(int result) {
        if (healthy()) {
            try {
                send("force");
            } catch (EngineException e) {
                // the next request will find out
            }
        }
    }

    /** A time per move in XBoard's {@code level} syntax: {@code M:SS}. */
    static String minutesSeconds(long seconds) {
        return seconds / 60 + ":" + String.format(Locale.ROOT, "%02d", seconds % 60);
    }

    /**
     * What differs between XBoard dialects: the set-up after the handshake, a new game, how moves and clocks are sent,
     * how the engine's lines are read and how it is asked to move now.
     */
    private abstract class Dialect {
        /** {@code cecp} or {@code gnushogi}, as the option {@code dialect} names it. */
        abstract String id();

        /** The engine's own name, or null. */
        abstract String engineName();

        abstract MoveNotation.Style style();

        /** After the handshake: options, variant, a first synchronisation. */
        abstract void setUp() throws EngineException;

        abstract void newGame() throws EngineException;

        /** Sets up a game that does not start from the rule set's start position. */
        abstract void setBoard(ThinkRequest request) throws EngineException;

        /**
         * Sends the moves the engine has not seen, the clock and {@code go}; returns the time in ms after which the
         * client should ask for the move itself ({@link #interrupt}), or -1 when the engine keeps its own time.
         */
        abstract long go(ThinkRequest request) throws EngineException;

        /** Reads a line of the thinking engine: its move (or another outcome), or null to read on. */
        abstract Reply line(String text, long elapsedMs, Progress progress) throws EngineException;

        /** Whether a line is the engine's move (after an interrupt). */
        abstract boolean isMove(String text);

        /** Asks the engine to move now. */
        abstract void interrupt() throws EngineException;
    }

    /**
     * CECP v2. A fixed move time is sent as a one-move session ({@code level 1}) with that time on the clock, since
     * HaChu does not honour {@code st}. Rule sets are named as the engine advertises them ({@code wa-shogi},
     * {@code wa-shogi-drop}); an option {@code memory=N} becomes the {@code memory} command, sent before {@code new}
     * (HaChu crashes without it); other options become {@code option NAME=VALUE}.
     */
    private final class Cecp extends Dialect {
        private String variantName;
        private int memoryMb;
        private boolean levelSent;
        private int ping;

        @Override
        String id() {
            return "cecp";
        }

        @Override
        String engineName() {
            return features.get("myname");
        }

        @Override
        MoveNotation.Style style() {
            return MoveNotation.Style.UCI;
        }

        @Override
        void setUp() throws EngineException {
            variantName = chooseVariant();
            for (Map.Entry<String, String> o : engineOptions()) {
                if (o.getKey().equalsIgnoreCase("memory")) {
                    if (!o.getValue().matches("\\d{1,5}")) {
                        throw new IllegalArgumentException("option memory: expected megabytes, got '" + o.getValue()
                                + "'");
                    }
                    memoryMb = Integer.parseInt(o.getValue());
                } else {
                    send("option " + o.getKey() + "=" + o.getValue());
                }
            }
            if (memoryMb == 0 && "1".equals(features.get("memory"))) {
                memoryMb = 64;
            }
            sync();
        }

        /** The engine's name for the rule set, from its advertised variants; null for standard chess. */
        private String chooseVariant() throws EngineException {
            // the names other engines use for the rule set (its definition's XBoard name and aliases), then Koma's id
            List<String> names = new ArrayList<>();
            names.add(rules.conventions.xboard());
            names.addAll(rules.conventions.xboardAliases());
            names.add(rules.id);
            String advertised = features.get("variants");
            if (rules.conventions.xboard().equals(XBOARD_DEFAULT)) {
                return null;
            }
            if (advertised == null) {
                return names.get(0);
            }
            List<String> offered = List.of(advertised.split(","));
            for (String n : names) {
                if (offered.contains(n)) {
                    return n;
                }
            }
            throw new EngineException(name() + " does not play " + rules.id + " (it offers: " + advertised + ")");
        }

        /** {@code ping N} and wait for {@code pong N}, when the engine supports it. */
        private void sync() throws EngineException {
            if (!"1".equals(features.get("ping"))) {
                return;
            }
            int n = ++ping;
            send("ping " + n);
            long deadline = System.nanoTime() + PING_TIMEOUT_MS * 1_000_000;
            while (true) {
                Line l = next(deadline);
                if (l == null) {
                    healthy = false;
                    throw new EngineException(name() + " did not answer 'ping " + n + "' within " + PING_TIMEOUT_MS
                            + " ms" + stderrTail());
                }
                if (l == EOF) {
                    throw new EngineException(name() + " exited" + exitCode() + stderrTail());
                }
                if (l.text().strip().equals("pong " + n)) {
                    return;
                }
            }
        }

        @Override
        void newGame() throws EngineException {
            if (memoryMb > 0) {
                send("memory " + memoryMb);
            }
            send("new");
            if (variantName != null) {
                send("variant " + variantName);
            }
            send("force");
            send("post");
            send("easy");
            levelSent = false;
            sync();
        }

        @Override
        void setBoard(ThinkRequest request) throws EngineException {
            send("setboard " + Fen.formatFen(request.root()));
        }

        @Override
        long go(ThinkRequest request) throws EngineException {
            List<String> moves = request.uciMoves();
            boolean usermove = "1".equals(features.get("usermove"));
            for (int i = sentMoves; i < moves.size(); i++) {
                send((usermove ? "usermove " : "") + moves.get(i));
            }
            sentMoves = moves.size();
            sendClock(request);
            send("go");
            return -1;
        }

        /** The clock commands for a request; XBoard has no byoyomi, so a byoyomi period becomes a time per move. */
        private void sendClock(ThinkRequest r) throws EngineException {
            TimeControl tc = r.timeControl();
            long[] left = r.timeLeftMs();
            switch (tc.kind()) {
                case CLOCK -> {
                    if (!levelSent) {
                        levelSent = true;
                        send("level 0 " + minutesSeconds(tc.baseMs() / 1000) + " " + tc.incMs() / 1000.0);
                    }
                    send("time " + Math.max(1, left[r.side()] / 10));
                    send("otim " + Math.max(1, left[1 - r.side()] / 10));
                }
                case BYOYOMI -> {
                    if (left[r.side()] > 0) {
                        send("time " + Math.max(1, left[r.side()] / 10));
                        send("otim " + Math.max(1, left[1 - r.side()] / 10));
                    } else {
                        send("st " + Math.max(1, tc.byoyomiMs() / 1000));
                    }
                }
                case MOVETIME -> {
                    // a one-move session with the move time on both clocks: HaChu answers 'st' with a 2-ply search
                    if (!levelSent) {
                        levelSent = true;
                        send("level 1 " + minutesSeconds(Math.max(1, (tc.moveTimeMs() + 999) / 1000)) + " 0");
                    }
                    send("time " + Math.max(1, tc.moveTimeMs() / 10));
                    send("otim " + Math.max(1, tc.moveTimeMs() / 10));
                }
                case DEPTH -> send("sd " + tc.depth());
                case NODES -> throw new IllegalArgumentException(
                        "XBoard has no node limit; use --depth, --movetime or --tc");
            }
        }

        @Override
        Reply line(String text, long elapsed, Progress progress) {
            String[] w = text.split("\\s+");
            if (w[0].equals("move") && w.length >= 2) {
                return moved(w[1], elapsed, progress);
            }
            if (text.equals("resign") || text.matches("(1-0|0-1) \\{.*resign.*")) {
                return new Reply(Reply.Kind.RESIGN, null, elapsed, progress.score, progress.depth, text);
            }
            if (text.startsWith("Illegal move") || text.startsWith("Error")) {
                return new Reply(Reply.Kind.CRASH, null, elapsed, progress.score, progress.depth,
                        name() + " refused a move: " + text);
            }
            if (w.length >= 4 && w[0].matches("\\d{1,3}") && w[1].matches("-?\\d{1,7}")) {
                progress.depth = Integer.parseInt(w[0]);
                int v = Integer.parseInt(w[1]);
                progress.score = Math.abs(v) >= 100000 ? new Score(true, v > 0 ? v - 100000 : v + 100000)
                        : new Score(false, v);
            }
            return null;
        }

        @Override
        boolean isMove(String text) {
            return text.startsWith("move ");
        }

        @Override
        void interrupt() throws EngineException {
            send("?");
        }
    }

    /**
     * GNU Shogi 1.4's xshogi protocol, as found by reading its answers (Debian's gnushogi 1.4.2):
     * <ul>
     *   <li>it prints {@code GNU Shogi 1.4.2} at start and has no {@code feature}s, {@code ping}, {@code setboard},
     *   {@code option} or {@code memory} (the first two commands it reads as illegal moves); a position is set up
     *   in its {@code edit} mode;</li>
     *   <li>moves are USI strings; each move it accepts is echoed {@code N. M T}, a refused one gives
     *   {@code Illegal move ...}; its own move is printed {@code N. ... M T};</li>
     *   <li>{@code level 0 M:SS} sets a time per move (whole seconds, at least one) and answers {@code Clocks: ..},
     *   which serves as the synchronisation; its clock mode ({@code level MOVES M:SS}, {@code time}/{@code otime})
     *   thinks at least about a second a move, too long for fast games, so the client gives it a time per move of
     *   its own (the fixed move time, or a share of the clock: remaining / 25 + increment or byoyomi), sets
     *   {@code level} above it and interrupts it at that time with an empty line (any input ends its search at
     *   once; an empty line is no command);</li>
     *   <li>{@code go} makes it play the side to move, {@code force} stops it from playing;</li>
     *   <li>a position that occurs for the third time ends the game for it (shogi needs four): it then accepts no
     *   more moves and plays none. The client notices the missing echoes and reports it as the engine's failure
     *   rather than waiting for a loss on time.</li>
     * </ul>
     */
    private final class GnuShogi extends Dialect {
        private static final Pattern OWN_MOVE = Pattern.compile("\\d+\\. \\.\\.\\. (\\S+)( -?\\d+)?");
        private static final Pattern ECHO = Pattern.compile("\\d+\\. (\\S+)( -?\\d+)?");
        /** The client's interrupt comes this much before the move is due (the engine needs a moment to answer). */
        private static final long INTERRUPT_EARLY_MS = 15;
        private final String banner;

        GnuShogi(String banner) {
            this.banner = banner;
        }

        @Override
        String id() {
            return "gnushogi";
        }

        @Override
        String engineName() {
            return banner;
        }

        @Override
        MoveNotation.Style style() {
            return MoveNotation.Style.USI;
        }

        @Override
        void setUp() throws EngineException {
            if (rules != RuleSet.defaultFor("usi")) {
                throw new EngineException(name() + " plays only " + RuleSet.defaultFor("usi").id + ", not " + rules.id);
            }
            List<Map.Entry<String, String>> options = engineOptions();
            if (!options.isEmpty()) {
                throw new IllegalArgumentException(name() + " takes no options (got " + options.get(0).getKey() + ")");
            }
            sync(1, List.of());
        }

        /**
         * Sends the moves and {@code level 0 <seconds>}, then reads up to its {@code Clocks:} answer: every move must
         * have been echoed.
         */
        private void sync(long seconds, List<String> moves) throws EngineException {
            for (String m : moves) {
                send(m);
            }
            send("level 0 " + minutesSeconds(seconds));
            long deadline = System.nanoTime() + PING_TIMEOUT_MS * 1_000_000;
            int echoed = 0;
            while (true) {
                Line l = next(deadline);
                if (l == null) {
                    healthy = false;
                    throw new EngineException(name() + " did not answer 'level' within " + PING_TIMEOUT_MS + " ms"
                            + stderrTail());
                }
                if (l == EOF) {
                    throw new EngineException(name() + " exited" + exitCode() + stderrTail());
                }
                String s = l.text().strip().replaceFirst("^depth = ", ""); // the prompt of 'depth' has no newline
                if (s.contains("Clocks:")) {
                    break;
                }
                if (s.startsWith("Illegal move") && !moves.isEmpty()) { // at start: 'xboard' and 'protover'
                    throw new EngineException(name() + " refused a move: " + s);
                }
                Matcher m = ECHO.matcher(s);
                if (m.matches() && echoed < moves.size() && m.group(1).equals(moves.get(echoed))) {
                    echoed++;
                }
            }
            if (echoed < moves.size()) {
                throw new EngineException(name() + " ignored the moves from " + moves.get(echoed) + " on: it ends a"
                        + " game by itself when a position occurs for the third time (shogi's rule is the fourth)");
            }
        }

        @Override
        void newGame() throws EngineException {
            send("new");
            send("force");
            sync(1, List.of());
        }

        /**
         * Its {@code edit} mode: {@code #} clears the board, {@code P7g} / {@code P2c+} places a piece of the colour
         * being edited, {@code P*} adds one to its hand, {@code c} switches to the other colour, {@code .} ends. The
         * first player then moves; for the second, {@code white} (it moves for white from now on) and {@code force}.
         */
        @Override
        void setBoard(ThinkRequest request) throws EngineException {
            String[] sfen = Fen.formatSfen(request.root()).split(" ");
            List<String> black = new ArrayList<>(), white = new ArrayList<>();
            String[] ranks = sfen[0].split("/");
            for (int r = 0; r < ranks.length; r++) {
                int file = ranks.length;
                boolean promoted = false;
                for (char ch : ranks[r].toCharArray()) {
                    if (ch == '+') {
                        promoted = true;
                    } else if (Character.isDigit(ch)) {
                        file -= ch - '0';
                    } else {
                        String piece = Character.toUpperCase(ch) + "" + file + (char) ('a' + r) + (promoted ? "+" : "");
                        (Character.isUpperCase(ch) ? black : white).add(piece);
                        file--;
                        promoted = false;
                    }
                }
            }
            Matcher hand = Pattern.compile("(\\d*)([A-Za-z])").matcher(sfen[2]);
            while (hand.find()) {
                int n = hand.group(1).isEmpty() ? 1 : Integer.parseInt(hand.group(1));
                char letter = hand.group(2).charAt(0);
                for (int i = 0; i < n; i++) {
                    (Character.isUpperCase(letter) ? black : white).add(Character.toUpperCase(letter) + "*");
                }
            }
            send("edit");
            send("#");
            for (String p : black) {
                send(p);
            }
            send("c");
            for (String p : white) {
                send(p);
            }
            send(".");
            if (sfen[1].equals("w")) {
                send("white");
                send("force");
            }
        }

        @Override
        long go(ThinkRequest request) throws EngineException {
            TimeControl tc = request.timeControl();
            long left = request.timeLeftMs()[request.side()];
            long budget = switch (tc.kind()) {
                case MOVETIME -> tc.moveTimeMs();
                case CLOCK -> Math.min(left / 2, left / 25 + tc.incMs());
                case BYOYOMI -> left / 25 + tc.byoyomiMs();
                case DEPTH -> -1;
                case NODES -> throw new IllegalArgumentException(
                        "XBoard has no node limit; use --depth, --movetime or --tc");
            };
            if (tc.kind() == TimeControl.Kind.DEPTH) {
                send("depth");
                send(Integer.toString(tc.depth()));
            }
            long levelMs = budget >= 0 ? budget : tc.moveTimeoutMs();
            List<String> moves = request.usiMoves();
            sync(Math.max(1, levelMs / 1000 + 1), moves.subList(sentMoves, moves.size()));
            sentMoves = moves.size();
            send("go");
            return budget < 0 ? -1 : Math.max(1, budget - INTERRUPT_EARLY_MS);
        }

        @Override
        Reply line(String text, long elapsed, Progress progress) {
            Matcher m = OWN_MOVE.matcher(text);
            if (m.matches()) {
                return moved(m.group(1), elapsed, progress);
            }
            if (text.startsWith("Illegal")) {
                return new Reply(Reply.Kind.CRASH, null, elapsed, null, 0, name() + " says: " + text);
            }
            return null;
        }

        @Override
        boolean isMove(String text) {
            return OWN_MOVE.matcher(text).matches();
        }

        @Override
        void interrupt() throws EngineException {
            send("");
        }
    }
}
