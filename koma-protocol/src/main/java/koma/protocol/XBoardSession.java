package koma.protocol;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import koma.engine.nnue.NetChoice;
import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.SearchInfo;
import koma.engine.TimeManager;
import koma.engine.TranspositionTable;
import koma.rules.Conventions;
import koma.rules.Game;
import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;

/**
 * The XBoard / CECP v2 dialect for every rule set: feature negotiation, {@code new}, {@code variant},
 * {@code force}, {@code go}, {@code usermove}, {@code setboard}, clocks ({@code level}, {@code st}, {@code sd},
 * {@code time}, {@code otim}), {@code undo}, {@code remove}, {@code result}, {@code analyze}, {@code post},
 * {@code ping}, {@code ?}, {@code memory}. Moves are written as RULES.md 9.3 ({@code e2e4}, {@code d9d10+},
 * {@code P@e5}); the game's end is announced as {@code 1-0 {reason}}.
 */
public final class XBoardSession {
    private final PrintStream out;
    private final TranspositionTable tt = new TranspositionTable(EngineSession.DEFAULT_HASH_MB);
    private final TimeManager timeManager = new TimeManager(50);
    /** Search threads from the {@code cores} command: Lazy SMP helpers beyond the first. */
    private int cores = 1;
    /** The evaluation chosen with the Use NNUE and EvalFile options. */
    private final NetChoice nets = new NetChoice();
    private final WarmUp warmUp = new WarmUp();
    private RuleSet rules = RuleSet.standard();
    private Search search;
    private Game game;
    /** Positions before each move, so that undo can go back (the game object only moves forward). */
    private final List<Position> before = new ArrayList<>();
    private boolean force;
    private int engineSide = 1;
    private boolean post;
    private boolean analyzing;
    // clocks: own and opponent's time in centiseconds, level, fixed time per move and depth
    private long ownCs = -1, oppCs = -1;
    private int levelMoves;
    private long incrementMs;
    private long stMs = -1;
    private int sdDepth;
    private final SearchThread thinker = new SearchThread("koma-xboard-search");
    /**
     * The Contempt option: centipawns a draw is worth less than 0 to the side the engine searches for; null until
     * given, so the search keeps its rule set's default ({@link koma.engine.SearchDefaults}).
     */
    private Integer contempt;

    public XBoardSession(PrintStream out) {
        this.out = out;
        newGame(Position.start(rules));
    }

    /** Reads commands until {@code quit} or end of input. */
    public void run(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.length() > EngineSession.MAX_LINE) {
                out.println("Error (line too long): " + line.length() + " characters");
                continue;
            }
            if (!handle(line)) {
                break;
            }
        }
        // end of input: a move being thought about is still played; analysis is stopped
        if (analyzing) {
            stopThinking();
        }
        waitThinking();
        out.flush();
    }

    /** Handles one command; returns false on {@code quit}. */
    public boolean handle(String raw) {
        String line = raw.strip();
        if (line.isEmpty()) {
            return true;
        }
        String[] w = line.split("\\s+");
        String cmd = w[0];
        String arg = line.length() > cmd.length() ? line.substring(cmd.length()).strip() : "";
        try {
            switch (cmd) {
                case "cores" -> {
                    int n = arg.matches("\\d{1,3}") ? Integer.parseInt(arg) : 0;
                    if (n < 1) {
                        throw new IllegalArgumentException("cores: expected a number of threads from 1 to 64, got '" + arg + "'");
                    }
                    cores = Math.min(n, 64);
                }
                case "xboard", "accepted", "rejected", "random", "hard", "easy", "computer", "name",
                     "rating", "ics" -> {
                }
                case "nopost" -> post = false;
                case "option" -> option(arg);
                case "protover" -> features();
                case "new" -> {
                    stopThinking();
                    rules = RuleSet.standard();
                    search = null;
                    tt.clear();
                    newGame(Position.start(rules));
                    force = false;
                    engineSide = 1;
                    sdDepth = 0;
                    stMs = -1;
                }
                case "variant" -> {
                    stopThinking();
                    // XBoard's names (wa-shogi, normal) from the definitions, and Koma's identifiers
                    RuleSet chosen = RuleSet.byExternalName(arg);
                    if (chosen == null) {
                        out.println("Error (unknown variant): " + arg);
                        return true;
                    }
                    rules = chosen;
                    search = null;
                    newGame(Position.start(rules));
                    out.print(describe(rules));
                }
                case "force" -> {
                    stopThinking();
                    force = true;
                }
                case "go" -> {
                    stopThinking();
                    force = false;
                    engineSide = game.position().sideToMove();
                    think();
                }
                case "playother" -> {
                    stopThinking();
                    force = false;
                    engineSide = game.position().sideToMove() ^ 1;
                }
                case "white", "black" -> {
                    // protocol v1 leftovers: set the side to move and the engine's side
                }
                case "usermove" -> userMove(arg);
                case "setboard" -> {
                    stopThinking();
                    try {
                        newGame(Fen.parseFen(rules, arg));
                    } catch (NotationException e) {
                        out.println("tellusererror Illegal position: " + e.getMessage());
                    }
                }
                case "level" -> level(w);
                case "st" -> stMs = (long) (Double.parseDouble(arg) * 1000);
                case "sd" -> sdDepth = Integer.parseInt(arg);
                case "time" -> ownCs = Long.parseLong(arg);
                case "otim" -> oppCs = Long.parseLong(arg);
                case "post" -> post = true;
                case "ping" -> {
                    // like UCI's isready: warm up (once per rule set and evaluation) unless thinking
                    if (!thinker.running()) {
                        warmUp.ensure(rules, nets.forRules(rules, why -> out.println("telluser " + why)));
                    }
                    out.println("pong " + arg);
                }
                case "?" -> {
                    if (search != null) {
                        search.stop();
                    }
                }
                case "undo" -> takeBack(1);
                case "remove" -> takeBack(2);
                case "result" -> {
                    stopThinking();
                    force = true;
                }
                case "analyze" -> {
                    stopThinking();
                    analyzing = true;
                    think();
                }
                case "exit" -> {
                    analyzing = false;
                    stopThinking();
                }
                case ".", "bk", "hint", "draw", "otherboard" -> {
                }
                case "memory" -> {
                    stopThinking();
                    tt.resize(Math.max(1, Math.min(4096, Integer.parseInt(arg))));
                }
                case "quit" -> {
                    stopThinking();
                    return false;
                }
                default -> {
                    if (line.matches("[a-z]\\d{1,2}[a-z]\\d{1,2}[+a-z]?|[A-Z][@*][a-z]\\d{1,2}")) {
                        userMove(line);
                    } else {
                        out.println("Error (unknown command): " + line);
                    }
                }
            }
        } catch (NumberFormatException e) {
            out.println("Error (bad number): " + line);
        } catch (IllegalArgumentException e) {
            out.println("Error (" + e.getMessage() + "): " + line);
        }
        out.flush();
        return true;
    }

    /** {@code option NAME=VALUE}: Use NNUE (1/0), EvalFile and Contempt, as announced in {@link #features}. */
    private void option(String arg) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq), value = eq < 0 ? "" : arg.substring(eq + 1);
        try {
            if (name.equals("Use NNUE") && (value.equals("1") || value.equals("0"))) {
                nets.setEnabled(value.equals("1"));
            } else if (name.equals("EvalFile")) {
                stopThinking();
                nets.setFile(value);
            } else if (name.equals("Contempt")) {
                if (!value.matches("-?\\d{1,3}") || Math.abs(Integer.parseInt(value)) > Search.MAX_CONTEMPT) {
                    throw new IllegalArgumentException("Contempt: expected centipawns from " + -Search.MAX_CONTEMPT
                            + " to " + Search.MAX_CONTEMPT + ", got '" + value + "'");
                }
                contempt = Integer.parseInt(value);
            } else {
                out.println("Error (unknown option): " + arg);
            }
        } catch (IllegalArgumentException e) {
            out.println("Error (" + e.getMessage() + "): option");
        }
    }

    private void features() {
        out.println("feature done=0");
        out.println("feature myname=\"" + EngineSession.NAME + "\" setboard=1 usermove=1 ping=1 san=0 sigint=0 "
                + "sigterm=0 colors=0 analyze=1 memory=1 smp=1 reuse=1 draw=0 playother=1 debug=1");
        out.println("feature variants=\"" + String.join(",", RuleSet.IDS.stream()
                .map(id -> RuleSet.of(id).conventions.xboard()).toList()) + "\"");
        out.println("feature option=\"Use NNUE -check 1\"");
        out.println("feature option=\"EvalFile -file " + NetChoice.BUILT_IN + "\"");
        out.println("feature option=\"Contempt -spin 0 " + -Search.MAX_CONTEMPT + " " + Search.MAX_CONTEMPT + "\"");
        out.println("feature done=1");
    }

    /**
     * What XBoard needs to play a variant it does not know (nothing for {@code normal} and {@code shogi}): the
     * {@code setup} command with the piece-to-character table, the board size, the holdings and the parent variant
     * ({@code setup (P..^S...K p..^s...k) 11x11+0_chu FEN}), then one {@code piece} command per piece type with its
     * Betza movement, the same for both sides ({@code piece +F& BvRsW}), as HaChu and Sjaak II send them. All of it
     * comes from the rule set's definition; a definition without an XBoard piece table gets neither.
     */
    static String describe(RuleSet rs) {
        Conventions c = rs.conventions;
        if (c.xboardNative() || c.xboardPieces() == null) {
            return "";
        }
        int holdings = 0;
        if (rs.drops) {
            for (PieceType pt : rs.pieces) {
                holdings += pt.royal() || pt.promoted() ? 0 : 1;
            }
        }
        StringBuilder sb = new StringBuilder("setup (").append(c.xboardPieces()).append(c.xboardPieces().toLowerCase())
                .append(") ").append(rs.geometry.files).append('x').append(rs.geometry.ranks).append('+').append(holdings)
                .append('_').append(c.xboardParent()).append(' ').append(Fen.formatFen(Position.start(rs))).append('\n');
        for (PieceType pt : rs.pieces) {
            sb.append("piece ").append(pt.letter()).append("& ").append(pt.betza()).append('\n');
        }
        return sb.toString();
    }

    private void newGame(Position start) {
        game = new Game(start, new Game.Options(true, false));
        before.clear();
    }

    private void level(String[] w) {
        if (w.length != 4) {
            throw new IllegalArgumentException("level needs MPS BASE INC");
        }
        levelMoves = Integer.parseInt(w[1]);
        incrementMs = (long) (Double.parseDouble(w[3]) * 1000);
        stMs = -1;
    }

    private void userMove(String text) {
        stopThinking();
        if (game.isOver()) {
            out.println("Illegal move (game over): " + text);
            return;
        }
        Position p = game.position();
        int move;
        try {
            // XBoard marks a declined shogi-style promotion with '=' (d2e1=); Koma writes it without a suffix
            String uci = text.endsWith("=") && p.ruleSet().promotion.trigger() == RuleSet.PromotionTrigger.TOUCH
                    ? text.substring(0, text.length() - 1) : text;
            move = MoveNotation.parseUci(p, uci);
        } catch (NotationException e) {
            out.println("Illegal move: " + text);
            return;
        }
        before.add(p);
        game.play(move);
        if (announceResult()) {
            return;
        }
        if (analyzing || (!force && game.position().sideToMove() == engineSide)) {
            think();
        }
    }

    private void takeBack(int plies) {
        stopThinking();
        for (int i = 0; i < plies && !before.isEmpty(); i++) {
            Position p = before.remove(before.size() - 1);
            List<Position> keep = new ArrayList<>(before);
            game = new Game(p, new Game.Options(true, false));
            before.clear();
            before.addAll(keep);
        }
        if (analyzing) {
            think();
        }
    }

    /** Prints the result line when the game has ended; true when it has. */
    private boolean announceResult() {
        if (game.result().isEmpty()) {
            return false;
        }
        Game.Result r = game.result().get();
        out.println(r.score() + " {" + describe(r) + "}");
        return true;
    }

    private String describe(Game.Result r) {
        String who = r.winner() == 0 ? "First player" : "Second player";
        return switch (r.termination()) {
            case CHECKMATE -> who + " mates";
            case NO_LEGAL_MOVE -> who + " wins: the opponent has no legal move";
            case EXTINCTION -> who + " wins by capturing every piece";
            case PERPETUAL_CHECK -> who + " wins: perpetual check";
            default -> r.termination().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    /** Starts thinking in the background; in play mode the best move is played and sent as {@code move}. */
    private void think() {
        if (game.isOver()) {
            return;
        }
        if (search == null) {
            search = new Search(rules, tt);
        }
        Search searcher = search;
        Position root = game.position();
        Limits limits = analyzing ? Limits.forever() : limits(root.sideToMove());
        boolean analysis = analyzing;
        searcher.setThreads(cores);
        searcher.setNetwork(nets.forRules(rules, why -> out.println("telluser " + why)));
        if (contempt != null) {
            searcher.setContempt(contempt);
        }
        searcher.resetStop();
        thinker.start(() -> {
            Search.Result r = searcher.search(root, limits, timeManager, info -> {
                if (post || analysis) {
                    out.println(thinkingLine(root, info));
                }
            });
            if (!analysis && r.bestMove() != Move.NONE) {
                synchronized (this) {
                    before.add(game.position());
                    game.play(r.bestMove());
                    out.println("move " + MoveNotation.formatUci(root, r.bestMove()));
                    announceResult();
                }
            }
            out.flush();
        });
    }

    private Limits limits(int side) {
        if (sdDepth > 0) {
            return Limits.depth(sdDepth);
        }
        if (stMs > 0) {
            return Limits.moveTime(stMs);
        }
        if (ownCs >= 0) {
            long own = ownCs * 10, opp = oppCs >= 0 ? oppCs * 10 : own;
            int movesToGo = 0;
            if (levelMoves > 0) {
                int played = game.moves().size() / 2;
                movesToGo = levelMoves - played % levelMoves;
            }
            return side == 0 ? new Limits(own, opp, incrementMs, incrementMs, movesToGo, 0, -1, 0, -1, false)
                    : new Limits(opp, own, incrementMs, incrementMs, movesToGo, 0, -1, 0, -1, false);
        }
        return Limits.moveTime(5000);
    }

    /** Thinking output: {@code ply score time(centiseconds) nodes pv}. */
    private String thinkingLine(Position root, SearchInfo info) {
        int score = info.mateIn() != 0 ? (info.score() > 0 ? 100000 + info.mateIn() : -100000 + info.mateIn())
                : info.score();
        StringBuilder sb = new StringBuilder().append(info.depth()).append(' ').append(score).append(' ')
                .append(info.timeMs() / 10).append(' ').append(info.nodes());
        Position p = root.copy();
        for (int m : info.pv()) {
            sb.append(' ').append(MoveNotation.formatUci(p, m));
            p.doMove(m);
        }
        return sb.toString();
    }

    private void stopThinking() {
        thinker.stop(search);
    }

    private void waitThinking() {
        thinker.await();
    }
}
