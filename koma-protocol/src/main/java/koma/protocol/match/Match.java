package koma.protocol.match;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import koma.rules.Game;
import koma.rules.RuleSet;
import koma.rules.notation.Kif;
import koma.rules.notation.Pgn;

/**
 * A match: N games between two engines on one rule set, refereed by {@link Referee}. Game {@code i} (from 0) uses
 * opening {@code i / 2} and engine 1 moves first when {@code i} is even, so each opening is played twice with the
 * colours swapped. {@code concurrency} workers play games in parallel; each owns one process per engine and reuses
 * it across games ({@code ucinewgame}), starting a new one when an engine crashed or hung. Each finished game is
 * appended to the PGN (and KIF) file, a progress line is printed, and with an SPRT the match stops once a bound is
 * crossed (games already under way are finished and counted).
 */
public final class Match {
    /**
     * What to play. {@code openings}: played in order and cycled (each twice); {@code pgn}/{@code kif}: files to
     * append to, or null; {@code sprt}: null for none.
     */
    public record Config(RuleSet rules, EngineConfig engine1, EngineConfig engine2, int games, TimeControl timeControl,
                         long marginMs, int maxPlies, int concurrency, List<Opening> openings, Path pgn, Path kif,
                         Stats.Sprt sprt, String event, TimeControl timeControl2, boolean resume) {
        /** A match in which both engines play under {@code timeControl}. */
        public Config(RuleSet rules, EngineConfig engine1, EngineConfig engine2, int games, TimeControl timeControl,
                      long marginMs, int maxPlies, int concurrency, List<Opening> openings, Path pgn, Path kif,
                      Stats.Sprt sprt, String event) {
            this(rules, engine1, engine2, games, timeControl, marginMs, maxPlies, concurrency, openings, pgn, kif, sprt,
                    event, null, false);
        }

        /** A match that starts afresh (no {@code resume}), engine 2 under {@code timeControl2} (null: the same). */
        public Config(RuleSet rules, EngineConfig engine1, EngineConfig engine2, int games, TimeControl timeControl,
                      long marginMs, int maxPlies, int concurrency, List<Opening> openings, Path pgn, Path kif,
                      Stats.Sprt sprt, String event, TimeControl timeControl2) {
            this(rules, engine1, engine2, games, timeControl, marginMs, maxPlies, concurrency, openings, pgn, kif, sprt,
                    event, timeControl2, false);
        }

        /**
         * {@code timeControl2} is engine 2's when it differs from engine 1's {@code timeControl} (null: the same).
         * Node odds (both fixed node counts, as cutechess-cli's per-engine {@code nodes=}) and time odds (both fixed
         * times per move, as its per-engine {@code st=}) are supported. {@code resume}: the match goes on from the
         * games already in {@code pgn} ({@link Match#run}).
         */
        public Config {
            if (resume && pgn == null) {
                throw new IllegalArgumentException("--resume continues the match recorded in --pgn: give --pgn");
            }
            if (timeControl2 == null) {
                timeControl2 = timeControl;
            } else if (timeControl.kind() != timeControl2.kind() || (timeControl.kind() != TimeControl.Kind.NODES
                    && timeControl.kind() != TimeControl.Kind.MOVETIME)) {
                throw new IllegalArgumentException("engine 2's own time control is for node or time odds: both must be "
                        + "fixed node counts or both fixed times per move, not " + timeControl + " and " + timeControl2);
            }
            if (games < 1) {
                throw new IllegalArgumentException("--games must be at least 1, got " + games);
            }
            if (concurrency < 1 || concurrency > 64) {
                throw new IllegalArgumentException("--concurrency must be from 1 to 64, got " + concurrency);
            }
            if (marginMs < 0) {
                throw new IllegalArgumentException("--margin must not be negative, got " + marginMs);
            }
            if (maxPlies < 1) {
                throw new IllegalArgumentException("--max-plies must be at least 1, got " + maxPlies);
            }
            if (openings == null || openings.isEmpty()) {
                openings = List.of(Opening.start(rules));
            }
            openings = List.copyOf(openings);
            if (kif != null && !rules.conventions.records().contains("kif")) {
                throw new IllegalArgumentException("--kif is not written for " + rules.id + " (its records: "
                        + String.join(", ", rules.conventions.records()) + ")");
            }
            if (event == null) {
                event = "Koma match";
            }
        }
    }

    /**
     * What a match produced: the statistics from engine 1's point of view (with the games a resumed match found in its
     * PGN file), the games played by this run by round, the SPRT verdict.
     */
    public record Summary(String name1, String name2, Stats stats, List<RefereedGame> games,
                          Stats.Sprt.Decision sprtDecision) {
    }

    /** Game options of the referee: engine mode (chess claims end the game), and the 27-point declaration where defined. */
    public static Game.Options gameOptions(RuleSet rs) {
        return new Game.Options(true, rs.endRules.impasse().declaration27());
    }

    /** Replays a record (as read from PGN, KIF or CSA) through the referee's game rules; throws on an illegal move. */
    public static Game replay(koma.rules.notation.GameRecord record) {
        Game game = new Game(record.startPosition(), gameOptions(record.ruleSet()));
        for (int m : record.moveInts()) {
            game.play(m);
        }
        return game;
    }

    private final Config config;
    private final PrintStream out;
    private final List<EngineClient> live = new ArrayList<>();
    private final List<RefereedGame> records = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    /** The game indices (from 0) a resumed match found in its PGN file: not played again. Fixed before play starts. */
    private final java.util.Set<Integer> resumed = new java.util.HashSet<>();
    private volatile boolean stopping;
    private int wins, losses, draws;
    private String name1, name2;
    private Stats.Sprt.Decision decision = Stats.Sprt.Decision.CONTINUE;
    /** The number of finished games (with those resumed) when the SPRT decided, 0 before. */
    private int decidedAt;
    private EngineException failure;

    public Match(Config config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /**
     * Plays the match and prints progress and the final result to {@code out}. Throws when an engine cannot be
     * started (or restarted); engine misbehaviour during a game is a lost game, not an exception. A resumed match
     * ({@link Config#resume}) first counts the games of its PGN file, refusing a file that is not this match's
     * ({@link #resumeFrom}); it plays only the rounds the file lacks, and its score and SPRT go on from the file's.
     */
    public Summary run() throws EngineException, InterruptedException {
        Thread hook = new Thread(this::killAll, "koma-match-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(config.concurrency(), config.games()) * 2);
        try {
            int workers = Math.min(config.concurrency(), config.games());
            // start every engine in parallel, fail before any game when one cannot start
            List<Future<EngineClient>> starting = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                starting.add(pool.submit(() -> startClient(config.engine1())));
                starting.add(pool.submit(() -> startClient(config.engine2())));
            }
            EngineClient[][] clients = new EngineClient[workers][2];
            EngineException startFailure = null;
            for (int k = 0; k < starting.size(); k++) {
                try {
                    clients[k / 2][k % 2] = starting.get(k).get();
                } catch (ExecutionException e) {
                    if (startFailure == null) {
                        startFailure = e.getCause() instanceof EngineException ee ? ee
                                : new EngineException(String.valueOf(e.getCause().getMessage()), e.getCause());
                    }
                }
            }
            if (startFailure != null) {
                throw startFailure;
            }
            name1 = clients[0][0].name();
            name2 = clients[0][1].name();
            out.printf("Started match: %s vs %s, %s, %d game(s), %s, %d worker(s)%n", name1, name2, config.rules().id,
                    config.games(), config.timeControl().equals(config.timeControl2()) ? config.timeControl()
                            : config.timeControl() + " against " + config.timeControl2(), workers);
            out.flush();
            if (config.resume()) {
                resumeFrom(config.pgn());
            }
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                EngineClient[] mine = clients[w];
                running.add(pool.submit(() -> {
                    work(mine);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("match worker failed: " + e.getCause(), e.getCause());
                }
            }
            if (failure != null) {
                throw failure;
            }
            Stats stats = stats();
            out.println(stats.scoreLine(name1, name2));
            out.println(stats.eloLine());
            if (config.sprt() != null) {
                out.println(config.sprt().line(stats, decision) + (decidedAt > 0 && decidedAt < stats.games()
                        ? " (after game " + decidedAt + "; " + (stats.games() - decidedAt) + " more were in play)" : ""));
            }
            out.println("Finished match");
            out.flush();
            List<RefereedGame> sorted = new ArrayList<>(records);
            sorted.sort(Comparator.comparingInt(RefereedGame::round));
            return new Summary(name1, name2, stats, sorted, decision);
        } finally {
            stopping = true;
            pool.shutdownNow();
            closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already
            }
        }
    }

    private EngineClient startClient(EngineConfig ec) throws EngineException {
        EngineClient c = EngineClient.start(ec, config.rules());
        synchronized (live) {
            live.add(c);
        }
        return c;
    }

    private void replace(EngineClient[] mine, int k, EngineConfig ec) throws EngineException {
        EngineClient old = mine[k];
        old.close();
        synchronized (live) {
            live.remove(old);
        }
        mine[k] = startClient(ec);
    }

    private void work(EngineClient[] mine) {
        while (!stopping) {
            int i = next.getAndIncrement();
            if (i >= config.games()) {
                return;
            }
            if (resumed.contains(i)) {
                continue;
            }
            try {
                if (!mine[0].healthy()) {
                    replace(mine, 0, config.engine1());
                }
                if (!mine[1].healthy()) {
                    replace(mine, 1, config.engine2());
                }
            } catch (EngineException e) {
                synchronized (this) {
                    if (failure == null) {
                        failure = e;
                    }
                }
                stopping = true;
                return;
            }
            boolean engine1First = engine1First(i);
            EngineClient[] byColor = engine1First ? new EngineClient[]{mine[0], mine[1]}
                    : new EngineClient[]{mine[1], mine[0]};
            RefereedGame rec = Referee.play(i + 1, config.rules(), opening(i), byColor,
                    timeControlsByColour(engine1First).toArray(TimeControl[]::new), config.marginMs(), config.maxPlies());
            finished(rec, engine1First);
        }
    }

    /** Whether engine 1 moves first in game {@code index} (from 0): in every other game, so each opening is played twice. */
    private static boolean engine1First(int index) {
        return index % 2 == 0;
    }

    /** The opening of game {@code index} (from 0): the openings in order, each for two games, cycled. */
    private Opening opening(int index) {
        return config.openings().get((index / 2) % config.openings().size());
    }

    /** A game's time controls by colour (the first player's first), as engine 1 moves first in it or not. */
    private List<TimeControl> timeControlsByColour(boolean engine1First) {
        return engine1First ? List.of(config.timeControl(), config.timeControl2())
                : List.of(config.timeControl2(), config.timeControl());
    }

    /**
     * Counts the games of a PGN file this match wrote before it was stopped (a missing file: none yet). Each game must
     * be this match's: its round within the match and not seen twice, its rule set, its players in the colours of
     * that round (engine 1 White in odd rounds), its opening the match's for that round (root and book moves: the same
     * --openings or --seed), its time control tags, and a result. Anything else is refused naming the file, the game
     * and what differs, before a game is played, so that no other match's games are pooled in.
     */
    private void resumeFrom(Path file) {
        if (!Files.exists(file)) {
            out.println("Resume: " + file + " does not exist yet; the match starts at game 1");
            return;
        }
        List<koma.rules.notation.GameRecord> games;
        try {
            games = Pgn.parseAll(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("--resume: cannot read " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--resume: " + file + " does not read as PGN (" + e.getMessage()
                    + "); a game cut short when the match was killed can be deleted from the end of the file", e);
        }
        for (int k = 0; k < games.size(); k++) {
            koma.rules.notation.GameRecord g = games.get(k);
            String where = "--resume: " + file + ", game " + (k + 1) + " of the file: ";
            int round;
            try {
                round = Integer.parseInt(g.tag("Round", "?"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + "its Round tag '" + g.tag("Round", "") + "' is not a number");
            }
            if (round < 1 || round > config.games()) {
                throw new IllegalArgumentException(where + "round " + round + " is not among this match's 1.."
                        + config.games() + " (give --games at least the file's)");
            }
            if (!resumed.add(round - 1)) {
                throw new IllegalArgumentException(where + "round " + round + " is in the file twice");
            }
            if (!g.variant().equals(config.rules().id)) {
                throw new IllegalArgumentException(where + "a game of " + g.variant() + ", not " + config.rules().id);
            }
            boolean engine1First = engine1First(round - 1);
            String white = engine1First ? name1 : name2, black = engine1First ? name2 : name1;
            if (!white.equals(g.tag("White", "")) || !black.equals(g.tag("Black", ""))) {
                throw new IllegalArgumentException(where + "round " + round + " is " + g.tag("White", "?") + " vs "
                        + g.tag("Black", "?") + ", this match's " + white + " vs " + black + " (the same engines and "
                        + "--name1/--name2?)");
            }
            Opening o = opening(round - 1);
            List<Integer> moves;
            try {
                moves = g.moveInts();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
            if (!koma.rules.notation.Fen.format(g.startPosition()).equals(koma.rules.notation.Fen.format(o.root()))
                    || moves.size() < o.moves().size() || !moves.subList(0, o.moves().size()).equals(o.moves())) {
                throw new IllegalArgumentException(where + "round " + round + " did not start from this match's "
                        + "opening for it (" + o.source() + "; the file's: " + g.tag("Opening", "none") + "): give "
                        + "the same --openings, or --random-plies and --seed");
            }
            for (var tag : RefereedGame.timeControlTags(timeControlsByColour(engine1First)).entrySet()) {
                if (!tag.getValue().equals(g.tag(tag.getKey(), ""))) {
                    throw new IllegalArgumentException(where + "its " + tag.getKey() + " is '" + g.tag(tag.getKey(), "")
                            + "', this match's '" + tag.getValue() + "'");
                }
            }
            if (g.winner() == -2) {
                throw new IllegalArgumentException(where + "round " + round + " has no result (" + g.result() + ")");
            }
            tally(g.winner() == -1, g.winner() == 0, engine1First);
        }
        Stats stats = stats();
        out.println("Resumed from " + file + ": " + games.size() + " game(s)");
        out.println(stats.scoreLine(name1, name2));
        if (!games.isEmpty()) {
            sprtStep(stats);
        }
        out.flush();
    }

    /** Counts one finished game for engine 1: a draw, or a win when the winner was the first player and engine 1 was it. */
    private synchronized void tally(boolean draw, boolean firstPlayerWon, boolean engine1First) {
        if (draw) {
            draws++;
        } else if (firstPlayerWon == engine1First) {
            wins++;
        } else {
            losses++;
        }
    }

    /**
     * Asks the SPRT after a game (or the games of a resumed file) while it has not decided: the first decision stands,
     * and games in flight when it was taken end the match but do not undo it.
     */
    private synchronized void sprtStep(Stats stats) {
        if (config.sprt() != null && decision == Stats.Sprt.Decision.CONTINUE) {
            decision = config.sprt().decide(stats);
            if (decision != Stats.Sprt.Decision.CONTINUE) {
                decidedAt = stats.games();
                out.println(config.sprt().line(stats));
                stopping = true;
            }
        }
    }

    private synchronized void finished(RefereedGame rec, boolean engine1First) {
        records.add(rec);
        GameResult r = rec.result();
        tally(r.isDraw(), r.winner() == 0, engine1First);
        if (config.pgn() != null) {
            append(config.pgn(), Pgn.format(rec.toRecord(config.event())));
        }
        if (config.kif() != null) {
            append(config.kif(), Kif.format(rec.toRecord(config.event())));
        }
        Stats stats = stats();
        out.printf("Finished game %d (%s vs %s): %s {%s}%n", rec.round(), rec.players().get(0), rec.players().get(1),
                r.score(), r.reason());
        out.println(stats.scoreLine(name1, name2));
        sprtStep(stats);
        out.flush();
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private synchronized Stats stats() {
        return new Stats(wins, losses, draws);
    }

    private void closeAll() {
        List<EngineClient> all;
        synchronized (live) {
            all = new ArrayList<>(live);
            live.clear();
        }
        all.parallelStream().forEach(EngineClient::close);
    }

    private void killAll() {
        stopping = true;
        synchronized (live) {
            live.forEach(EngineClient::kill);
        }
    }
}
