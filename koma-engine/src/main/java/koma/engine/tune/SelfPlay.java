package koma.engine.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.TimeManager;
import koma.engine.TranspositionTable;
import koma.engine.nnue.Network;
import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * Training data for the tuner: Koma plays itself from random openings at a fixed node budget per move and keeps
 * the quiet positions of each game (side to move not in check, the search's best move neither a capture nor a
 * promotion, no mate score) labelled with the game's result and the search's score. Game {@code i} depends only
 * on the seed and {@code i} (its opening comes from its own random sequence, its search from an empty hash
 * table), so the data are the same for a seed whatever the number of threads.
 */
public final class SelfPlay {
    /**
     * Settings of a run. {@code maxPlies}: a game still running then is a draw. {@code net}: the net the search
     * evaluates with, {@link #HAND_WRITTEN} for the hand-written evaluation, or null for the rule set's default (its
     * built-in net when it has one). {@code adjudicate}: a score this large (centipawns) for one side, seen by both
     * sides on 4 plies running, ends the game as that side's win (rule sets score on different scales: Wa shogi's
     * hand-written evaluation gives about 1000 where chess's gives 200 for the same expected result).
     */
    public record Settings(RuleSet rs, int games, long nodes, int randomPlies, int maxPlies, long seed, int threads,
                           Network net, int adjudicate) {
        /** Settings with the rule set's default evaluation. */
        public Settings(RuleSet rs, int games, long nodes, int randomPlies, int maxPlies, long seed, int threads) {
            this(rs, games, nodes, randomPlies, maxPlies, seed, threads, null);
        }

        /** Settings with the default adjudication bound, {@link #ADJUDICATE}. */
        public Settings(RuleSet rs, int games, long nodes, int randomPlies, int maxPlies, long seed, int threads,
                        Network net) {
            this(rs, games, nodes, randomPlies, maxPlies, seed, threads, net, ADJUDICATE);
        }

        public Settings {
            if (games < 1) {
                throw new IllegalArgumentException("games must be at least 1, got " + games);
            }
            checkPlay(nodes, randomPlies);
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            checkAdjudicate(adjudicate);
        }
    }

    /** Refuses a node budget below 1 or random opening plies outside 0 .. 200, naming which. */
    public static void checkPlay(long nodes, int randomPlies) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes per move must be at least 1, got " + nodes);
        }
        if (randomPlies < 0 || randomPlies > 200) {
            throw new IllegalArgumentException("random plies must be from 0 to 200, got " + randomPlies);
        }
    }

    /** Refuses an adjudication bound ({@link Settings#adjudicate}) outside 1 .. mate bound - 1, naming the range. */
    public static void checkAdjudicate(int adjudicate) {
        if (adjudicate < 1 || adjudicate >= Search.MATE_BOUND) {
            throw new IllegalArgumentException("the adjudication bound must be from 1 to " + (Search.MATE_BOUND - 1)
                    + " centipawns, got " + adjudicate);
        }
    }

    /** The value of {@link Settings#net} that means the hand-written evaluation. */
    public static final Network HAND_WRITTEN = new Network("", 0, 0, 1, new short[0], new short[1], new short[2], 0);

    /** One finished game: its result for the first player (1, 0.5, 0), its length and its kept positions. */
    public record GameData(double result, int plies, String termination, List<Sample> samples) {
    }

    /** The default adjudication bound of {@link Settings#adjudicate}, in centipawns. */
    public static final int ADJUDICATE = 1500;

    private SelfPlay() {
    }

    /** Plays every game; {@code progress} (may be null) hears about each game as it finishes. */
    public static List<GameData> run(Settings s, Consumer<String> progress) {
        ExecutorService pool = Executors.newFixedThreadPool(s.threads(), r -> {
            Thread t = new Thread(null, r, "selfplay", 64L << 20);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<GameData>> futures = new ArrayList<>();
            for (int i = 0; i < s.games(); i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    GameData g = playGame(s, index);
                    if (progress != null) {
                        progress.accept("game " + (index + 1) + ": " + g.result() + " in " + g.plies() + " plies ("
                                + g.termination() + "), " + g.samples().size() + " positions");
                    }
                    return g;
                }));
            }
            List<GameData> out = new ArrayList<>();
            for (Future<GameData> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("self-play interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("self-play failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Game number {@code index} of a run (which depends only on the settings and the index). */
    public static GameData playGame(Settings s, int index) {
        RuleSet rs = s.rs();
        Opening o = opening(rs, new Random(s.seed() * 0x9E3779B97F4A7C15L + index), s.randomPlies());
        Search search = newSearch(rs, s.net());
        List<String> fens = new ArrayList<>();
        List<Integer> sides = new ArrayList<>();
        List<Integer> scores = new ArrayList<>();
        Outcome out = playOut(o, search, search, s.nodes(), s.maxPlies(), s.adjudicate(), (pos, move, score) -> {
            if (isQuiet(pos, move, score)) {
                fens.add(Fen.format(pos));
                sides.add(pos.sideToMove());
                scores.add(score);
            }
        });
        double result = out.result();
        List<Sample> samples = new ArrayList<>(fens.size());
        for (int i = 0; i < fens.size(); i++) {
            double forMover = sides.get(i) == 0 ? result : 1 - result;
            samples.add(new Sample(index, fens.get(i), forMover, scores.get(i)));
        }
        return new GameData(result, out.plies(), out.termination(), samples);
    }

    /** Hears each searched position of a {@link #playOut}, with the move chosen and its score, before it is played. */
    public interface PlyObserver {
        void searched(Position pos, int move, int score);
    }

    /** How a play-out ended: the first player's score (1, 0.5, 0), the plies played, and why it ended. */
    public record Outcome(double result, int plies, String termination) {
    }

    /**
     * Plays the opening out at {@code nodes} nodes a move, {@code first} moving for the first player and
     * {@code second} for the other (the same search for self-play): until the rule set ends the game, both sides'
     * scores agree on four plies running that one side is {@code adjudicate} centipawns ahead (its win), or
     * {@code maxPlies} plies (a draw). {@code observer} (may be null) hears every search.
     */
    public static Outcome playOut(Opening o, Search first, Search second, long nodes, int maxPlies, int adjudicate,
                                  PlyObserver observer) {
        Game game = o.game();
        Position pos = o.pos();
        TimeManager time = new TimeManager(0);
        int[] lastScores = new int[4];
        int plies = 0;
        while (true) {
            if (game.isOver()) {
                Game.Result r = game.result().orElseThrow();
                return new Outcome(r.isDraw() ? 0.5 : r.winner() == 0 ? 1 : 0, plies,
                        r.termination().name().toLowerCase());
            }
            if (plies >= maxPlies) {
                return new Outcome(0.5, plies, "max plies");
            }
            int stm = pos.sideToMove();
            Search search = stm == 0 ? first : second;
            search.resetStop();
            Search.Result r = search.search(pos, Limits.nodes(nodes), time, null);
            int move = r.bestMove();
            if (observer != null) {
                observer.searched(pos, move, r.score());
            }
            lastScores[plies & 3] = stm == 0 ? r.score() : -r.score();
            plies++;
            if (plies >= 4 && agree(lastScores, 1, adjudicate)) {
                return new Outcome(1, plies, "adjudicated");
            }
            if (plies >= 4 && agree(lastScores, -1, adjudicate)) {
                return new Outcome(0, plies, "adjudicated");
            }
            game.play(move);
            pos.doMove(move);
        }
    }

    /** A random opening: the game (for its end rules) and the position after its plies. */
    public record Opening(Game game, Position pos) {
    }

    /**
     * {@code plies} uniformly random legal moves from the start, drawn from {@code rng}; an opening whose game is over
     * by then is drawn again.
     */
    public static Opening opening(RuleSet rs, Random rng, int plies) {
        int[] buf = Position.start(rs).newMoveBuffer();
        while (true) {
            Game game = new Game(Position.start(rs), new Game.Options(true, false));
            Position pos = Position.start(rs);
            for (int ply = 0; ply < plies && !game.isOver(); ply++) {
                int n = pos.legalMoves(buf);
                int m = buf[rng.nextInt(n)];
                game.play(m);
                pos.doMove(m);
            }
            if (!game.isOver()) {
                return new Opening(game, pos);
            }
        }
    }

    /**
     * The search that makes training data: a 4 MB hash table of its own, evaluating with {@code net} as
     * {@link Settings#net} says (null: the rule set's default; {@link #HAND_WRITTEN}: the hand-written evaluation).
     */
    public static Search newSearch(RuleSet rs, Network net) {
        Search search = new Search(rs, new TranspositionTable(4));
        if (net != null) {
            search.setNetwork(net == HAND_WRITTEN ? null : net);
        }
        return search;
    }

    /**
     * Whether a searched position is kept as training data: its side to move is not in check, the search's best move
     * {@code move} is neither a capture nor a promotion, and its {@code score} is not a mate score.
     */
    public static boolean isQuiet(Position pos, int move, int score) {
        return !pos.inCheck() && pos.isEmpty(Move.to(move)) && Move.kind(move) != Move.EN_PASSANT
                && Move.kind(move) != Move.PROMOTION && Math.abs(score) < Search.MATE_BOUND;
    }

    /** True when the last four scores (first player's view) all reach the adjudication {@code bound} for {@code sign}. */
    private static boolean agree(int[] scores, int sign, int bound) {
        for (int v : scores) {
            if (v * sign < bound) {
                return false;
            }
        }
        return true;
    }
}
