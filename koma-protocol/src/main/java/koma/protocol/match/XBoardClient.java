package koma.protocol.match;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * An XBoard / CECP v2 engine in a child process (HaChu, Sjaak II, Fairy-Max ...). XBoard is stateful: the client
 * keeps the engine in {@code force} mode, sends only the moves it has not sent yet ({@code usermove} when the
 * engine asked for it), sets the clock before each {@code go} and puts the engine back in force mode when its
 * move arrives. A fixed move time is sent as a one-move session ({@code level 1}) with that time on the clock,
 * since HaChu does not honour {@code st}. Rule sets are named as the engine advertises them ({@code wa-shogi}, {@code wa-shogi-drop}); an
 * option {@code memory=N} becomes the {@code memory} command, sent before {@code new} (HaChu crashes without
 * it); other options become {@code option NAME=VALUE}.
 */
public final class XBoardClient extends EngineProcess implements EngineClient {
    public static final long FEATURE_TIMEOUT_MS = 3_000;
    public static final long PING_TIMEOUT_MS = 15_000;
    /** After a timeout: how long to wait for the move that {@code ?} should produce. */
    public static final long STOP_GRACE_MS = 1_000;
    private static final Pattern FEATURE = Pattern.compile("(\\w+)=(\"[^\"]*\"|\\S+)");
    /** Names other engines use for Koma's rule sets, most common first. */
    private static final Map<String, List<String>> VARIANT_NAMES = Map.of(
            "chess", List.of("normal"),
            "shogi", List.of("shogi"),
            "washogi", List.of("wa-shogi", "washogi"),
            "washogi-drops", List.of("wa-shogi-drop", "wa-shogi-drops", "washogi-drops"),
            "shodo", List.of("shodo"),
            "shodo-deathmatch", List.of("shodo-deathmatch", "shododm"));

    private final RuleSet rules;
    private final Map<String, String> features = new HashMap<>();
    private String variantName;
    private int memoryMb;
    private int sentMoves;
    private boolean setUp;
    private boolean levelSent;
    private int ping;

    private XBoardClient(EngineConfig config, RuleSet rules, Process process) {
        super(config, process);
        this.rules = rules;
    }

    /** Starts the process, negotiates features, chooses the variant name and sends the options. */
    public static XBoardClient start(EngineConfig config, RuleSet rules) throws EngineException {
        XBoardClient c = new XBoardClient(config, rules, launch(config));
        return started(c, c::handshake);
    }

    @Override
    public String name() {
        return nameOr(features.get("myname"));
    }

    @Override
    public MoveNotation.Style style() {
        return MoveNotation.Style.UCI;
    }

    private void handshake() throws EngineException {
        send("xboard");
        send("protover 2");
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
        variantName = chooseVariant();
        for (Map.Entry<String, String> o : config.options()) {
            if (o.getKey().equalsIgnoreCase("memory")) {
                if (!o.getValue().matches("\\d{1,5}")) {
                    throw new IllegalArgumentException("option memory: expected megabytes, got '" + o.getValue() + "'");
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
        List<String> names = VARIANT_NAMES.getOrDefault(rules.id, List.of(rules.id));
        String advertised = features.get("variants");
        if (rules.id.equals("chess")) {
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
                throw new EngineException(name() + " did not answer 'ping " + n + "' within " + PING_TIMEOUT_MS + " ms"
                        + stderrTail());
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
    public void newGame() throws EngineException {
        if (!healthy()) {
            throw new EngineException(name() + " is not running" + stderrTail());
        }
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
        sentMoves = 0;
        setUp = false;
        levelSent = false;
        sync();
    }

    /** The clock commands for a request; XBoard has no byoyomi, so a byoyomi period becomes a time per move. */
    private void sendClock(ThinkRequest r) throws EngineException {
        TimeControl tc = r.timeControl();
        long[] left = r.timeLeftMs();
        switch (tc.kind()) {
            case CLOCK -> {
                if (!levelSent) {
                    levelSent = true;
                    long base = tc.baseMs() / 1000;
                    send("level 0 " + base / 60 + ":" + String.format("%02d", base % 60) + " " + tc.incMs() / 1000.0);
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
                    long seconds = Math.max(1, (tc.moveTimeMs() + 999) / 1000);
                    send("level 1 " + seconds / 60 + ":" + String.format("%02d", seconds % 60) + " 0");
                }
                send("time " + Math.max(1, tc.moveTimeMs() / 10));
                send("otim " + Math.max(1, tc.moveTimeMs() / 10));
            }
            case DEPTH -> send("sd " + tc.depth());
            case NODES -> throw new IllegalArgumentException("XBoard has no node limit; use --depth, --movetime or --tc");
        }
    }

    @Override
    public Reply think(ThinkRequest request, long timeoutMs) {
        discardPending();
        if (!healthy()) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, name() + " is not running" + exitCode() + stderrTail());
        }
        long t0;
        try {
            if (!setUp) {
                if (!request.fromStart()) {
                    send("setboard " + Fen.formatFen(request.root()));
                }
                setUp = true;
            }
            List<String> moves = request.uciMoves();
            boolean usermove = "1".equals(features.get("usermove"));
            for (int i = sentMoves; i < moves.size(); i++) {
                send((usermove ? "usermove " : "") + moves.get(i));
            }
            sentMoves = moves.size();
            sendClock(request);
            send("go");
            t0 = System.nanoTime();
        } catch (EngineException e) {
            return new Reply(Reply.Kind.CRASH, null, 0, null, 0, e.getMessage());
        }
        return await(t0, timeoutMs, "move", this::moveNow, (text, elapsed, progress) -> {
            String[] w = text.split("\\s+");
            if (w[0].equals("move") && w.length >= 2) {
                sentMoves++;
                try {
                    send("force");
                } catch (EngineException e) {
                    // the move still counts; the next request will find out
                }
                return new Reply(Reply.Kind.MOVE, w[1], elapsed, progress.score, progress.depth, null);
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
        });
    }

    /** After a timeout: {@code ?} (move now), and wait a little for the move; else mark the engine unhealthy. */
    private void moveNow() {
        try {
            send("?");
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
            if (l.text().strip().startsWith("move ")) {
                try {
                    send("force");
                } catch (EngineException e) {
                    healthy = false;
                }
                return;
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
}
