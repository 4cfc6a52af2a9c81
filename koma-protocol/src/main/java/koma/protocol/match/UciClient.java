package koma.protocol.match;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * A UCI or USI engine in a child process (the two dialects differ in a few words: {@code uci}/{@code usi},
 * {@code ucinewgame}/{@code usinewgame}, FEN/SFEN, which of {@code wtime}/{@code btime} is the first player's, and
 * USI's {@code byoyomi}, {@code resign}, {@code win} and {@code gameover}).
 *
 * <p>Standard output is read by a thread into a queue of time-stamped lines, so every wait has a deadline and the
 * time of a {@code bestmove} is when it arrived; standard error is drained by another thread (its last lines are
 * quoted when the engine fails). Option order: the user's options as given, then {@code UCI_Variant} = the rule
 * set's identifier when the user did not set it and the engine has that option (or the rule set is not the
 * dialect's default, chess for UCI and shogi for USI).
 *
 * <p>One dialect quirk is handled: Fairy-Stockfish playing Shodo from a VariantPath file writes a promotion as
 * {@code b7d8+} where RULES.md 9.3 writes {@code b7d8q}; the moves sent to it are translated (and the referee reads
 * its {@code +} back, see {@link Referee}).
 */
public final class UciClient implements EngineClient {
    public static final long HANDSHAKE_TIMEOUT_MS = 15_000;
    public static final long READY_TIMEOUT_MS = 15_000;
    /** After a timeout: how long to wait for the {@code bestmove} that {@code stop} should produce. */
    public static final long STOP_GRACE_MS = 1_000;
    private static final int STDERR_LINES = 20;

    private record Line(String text, long nanos) {
    }

    private static final Line EOF = new Line(null, 0);

    private final EngineConfig config;
    private final RuleSet rules;
    private final boolean usi;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final Set<String> advertised = new HashSet<>();
    private String engineName;
    /** Fairy-Stockfish plays Shodo through a VariantPath definition whose promotions are written 'g7g8+'. */
    private boolean plusPromotions;
    private volatile boolean healthy = true;
    private boolean eof;

    private UciClient(EngineConfig config, RuleSet rules, Process process) {
        this.config = config;
        this.rules = rules;
        this.usi = config.protocol() == EngineConfig.Protocol.USI;
        this.process = process;
        this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        String tag = config.name() != null ? config.name() : Path.of(config.argv().get(0)).getFileName().toString();
        Thread out = new Thread(() -> readStdout(process), "engine-out-" + tag);
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(() -> drainStderr(process), "engine-err-" + tag);
        err.setDaemon(true);
        err.start();
    }

    /** Starts the process, does the handshake, sets the options and waits until the engine is ready. */
    public static UciClient start(EngineConfig config, RuleSet rules) throws EngineException {
        if (config.protocol() == EngineConfig.Protocol.USI && !rules.sfen) {
            throw new IllegalArgumentException("USI speaks shogi; use UCI for " + rules.id);
        }
        Process p;
        try {
            p = new ProcessBuilder(config.argv()).start();
        } catch (IOException e) {
            throw new EngineException("cannot start engine '" + config.command() + "': " + e.getMessage(), e);
        }
        UciClient c = new UciClient(config, rules, p);
        try {
            c.handshake();
        } catch (EngineException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private void readStdout(Process p) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String s;
            while ((s = r.readLine()) != null) {
                lines.add(new Line(s, System.nanoTime()));
            }
        } catch (IOException e) {
            // the process went away
        } finally {
            lines.add(EOF);
        }
    }

    private void drainStderr(Process p) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String s;
            while ((s = r.readLine()) != null) {
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(s);
                }
            }
        } catch (IOException e) {
            // the process went away
        }
    }

    private String stderrTail() {
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "" : "; its last error output: " + String.join(" | ", stderrTail);
        }
    }

    @Override
    public String name() {
        if (config.name() != null) {
            return config.name();
        }
        return engineName != null ? engineName : Path.of(config.argv().get(0)).getFileName().toString();
    }

    @Override
    public MoveNotation.Style style() {
        return usi ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }

    @Override
    public boolean healthy() {
        return healthy && !eof && process.isAlive();
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
                && rules.promotion.trigger() == RuleSet.PromotionTrigger.ARRIVAL && !rules.id.equals("chess");
        boolean variantGiven = false;
        for (Map.Entry<String, String> o : config.options()) {
            setOption(o.getKey(), o.getValue());
            variantGiven |= o.getKey().equalsIgnoreCase("UCI_Variant");
        }
        if (!variantGiven && (advertised.contains("uci_variant") || !rules.id.equals(usi ? "shogi" : "chess"))) {
            setOption("UCI_Variant", rules.id);
        }
        ready(READY_TIMEOUT_MS);
    }

    private void setOption(String name, String value) throws EngineException {
        send("setoption name " + name + (value == null || value.isEmpty() ? "" : " value " + value));
    }

    private String exitCode() {
        try {
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                return " (exit code " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    /** {@code isready}, then waits for {@code readyok}, skipping everything before it (late output included). */
    private void ready(long timeoutMs) throws EngineException {
        send("isready");
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
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
                return;
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

    /** The next line, or null at the deadline; EOF once the output closed. */
    private Line next(long deadlineNanos) {
        if (eof) {
            return EOF;
        }
        try {
            long wait = deadlineNanos - System.nanoTime();
            Line l = wait <= 0 ? lines.poll() : lines.poll(wait, TimeUnit.NANOSECONDS);
            if (l == EOF) {
                eof = true;
            }
            return l;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void send(String line) throws EngineException {
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            healthy = false;
            throw new EngineException(name() + ": cannot write to the engine (" + e.getMessage() + ")" + stderrTail(), e);
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
        Line stale;
        while ((stale = lines.poll()) != null) {
            if (stale == EOF) {
                eof = true;
            }
        }
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
        long deadline = t0 + timeoutMs * 1_000_000;
        Score score = null;
        int depth = 0;
        while (true) {
            Line l = next(deadline);
            if (l == null) {
                long elapsed = (System.nanoTime() - t0) / 1_000_000;
                stopAfterTimeout();
                return new Reply(Reply.Kind.TIMEOUT, null, elapsed, score, depth, "no bestmove after " + elapsed + " ms");
            }
            if (l == EOF) {
                healthy = false;
                return new Reply(Reply.Kind.CRASH, null, (System.nanoTime() - t0) / 1_000_000, score, depth,
                        name() + " exited" + exitCode() + stderrTail());
            }
            String[] w = l.text().strip().split("\\s+");
            if (w[0].equals("info")) {
                Object[] parsed = parseInfo(w, usi);
                if (parsed[0] != null) {
                    score = (Score) parsed[0];
                }
                if ((Integer) parsed[1] > 0) {
                    depth = (Integer) parsed[1];
                }
            } else if (w[0].equals("bestmove")) {
                long elapsed = Math.max(0, (l.nanos() - t0) / 1_000_000);
                String m = w.length > 1 ? w[1] : "";
                Reply.Kind kind = switch (m) {
                    case "resign" -> Reply.Kind.RESIGN;
                    case "win" -> Reply.Kind.DECLARE;
                    case "", "0000", "(none)", "none", "null" -> Reply.Kind.NO_MOVE;
                    default -> Reply.Kind.MOVE;
                };
                return new Reply(kind, m, elapsed, score, depth, null);
            }
        }
    }

    /** After a timeout: {@code stop}, and wait a little for the bestmove it should produce; else mark unhealthy. */
    private void stopAfterTimeout() {
        try {
            send("stop");
        } catch (EngineException e) {
            return;
        }
        long deadline = System.nanoTime() + STOP_GRACE_MS * 1_000_000;
        while (true) {
            Line l = next(deadline);
            if (l == null || l == EOF) {
                healthy = false;
                return;
            }
            if (l.text().strip().startsWith("bestmove")) {
                return;
            }
        }
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

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                send("quit");
            }
        } catch (EngineException e) {
            // already gone
        }
        try {
            if (!process.waitFor(1000, TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                if (!process.waitFor(500, TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(2000, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // nothing to do
        }
        healthy = false;
    }

    @Override
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
