package koma.engine.tune;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import koma.engine.Search;
import koma.engine.SearchDefaults;
import koma.engine.SearchParam;
import koma.engine.TranspositionTable;
import koma.rules.RuleSet;

/**
 * SPSA tuning of the search's numeric parameters ({@link SearchParam}) by self-play game pairs, as fishtest tunes
 * Stockfish's. Iteration k draws a sign d_i = +-1 per parameter, plays one random opening twice, colours swapped,
 * between the values theta + c_k d and theta - c_k d (rounded), and moves each theta_i by
 * a_k / c_k x R x d_i, where R is the upper side's wins less its losses over the pair (-2 to 2). The schedules are
 * fishtest's: c_k = c_end (N / k)^0.101 with c_end the parameter's {@link SearchParam#step}, and
 * a_k = r_end c_end^2 ((A + N) / (A + k))^0.602 with A = N / 10, so that at the last of the N iterations the step is
 * c_end and the learning rate a_k / c_k^2 is r_end.
 * <p>
 * Games are played at a fixed node count (so the machine's load does not matter), each side with its own hash
 * table, ended by the rule set's end rules, by adjudication (both sides' scores beyond a bound on four plies running,
 * {@link SelfPlay#ADJUDICATE}) or as a draw at the ply cap. The state (iterations done, theta, the upper sides'
 * results) is written to a text file after every iteration, so a run stopped anywhere resumes from that file. With
 * one thread a run is deterministic per seed; with more, pairs finish in any order, and a resumed run replays at
 * most {@code threads - 1} iteration numbers whose pairs were under way.
 */
public final class Spsa {
    /** fishtest's exponents of the learning-rate and perturbation schedules. */
    public static final double ALPHA = 0.602, GAMMA = 0.101;
    /** The largest hash table per side, in megabytes: two per thread are allocated. */
    public static final int MAX_HASH_MB = 256;

    /**
     * A run: {@code iterations} is N, the schedule's length (a resumed run stops there too); {@code rEnd} the
     * learning rate at the last iteration (fishtest's r_end, 0.002 by its default); {@code hashMb} each side's
     * hash table.
     */
    public record Settings(RuleSet rs, SearchDefaults base, List<SearchParam> params, int iterations, long nodes,
                           int randomPlies, int maxPlies, long seed, int threads, double rEnd, int hashMb) {
        public Settings {
            if (params.isEmpty()) {
                throw new IllegalArgumentException("no parameter to tune");
            }
            if (params.stream().distinct().count() != params.size()) {
                throw new IllegalArgumentException("a parameter is named twice: " + params);
            }
            if (iterations < 1) {
                throw new IllegalArgumentException("iterations must be at least 1, got " + iterations);
            }
            SelfPlay.checkPlay(nodes, randomPlies);
            if (maxPlies < 1) {
                throw new IllegalArgumentException("the ply cap must be at least 1, got " + maxPlies);
            }
            if (threads < 1 || threads > 64) {
                throw new IllegalArgumentException("threads must be from 1 to 64, got " + threads);
            }
            if (!(rEnd > 0 && rEnd <= 1)) {
                throw new IllegalArgumentException("r-end must be above 0 and at most 1, got " + rEnd);
            }
            if (hashMb < 1 || hashMb > MAX_HASH_MB) {
                throw new IllegalArgumentException("hash must be from 1 to " + MAX_HASH_MB + " MB, got " + hashMb);
            }
            params = List.copyOf(params);
        }

        /** c_k of parameter {@code p} at iteration {@code k} (1-based). */
        public double c(SearchParam p, int k) {
            return p.step * Math.pow((double) iterations / k, GAMMA);
        }

        /** a_k of parameter {@code p} at iteration {@code k} (1-based). */
        public double a(SearchParam p, int k) {
            double bigA = iterations / 10.0;
            return rEnd * p.step * p.step * Math.pow((bigA + iterations) / (bigA + k), ALPHA);
        }
    }

    /** Where a run stands: iterations done, theta (one per parameter, in the settings' order), the upper sides' W-L-D. */
    public static final class State {
        int done;
        final double[] theta;
        long wins, losses, draws;

        State(int done, double[] theta, long wins, long losses, long draws) {
            this.done = done;
            this.theta = theta;
            this.wins = wins;
            this.losses = losses;
            this.draws = draws;
        }

        /** The start of a run: theta at the base settings' values. */
        public static State start(Settings s) {
            double[] theta = new double[s.params().size()];
            for (int i = 0; i < theta.length; i++) {
                theta[i] = s.base().param(s.params().get(i));
            }
            return new State(0, theta, 0, 0, 0);
        }

        public int done() {
            return done;
        }

        /** A copy of theta. */
        public double[] theta() {
            return theta.clone();
        }

        /** The games the upper side won, lost and drew so far. */
        public long[] wld() {
            return new long[] {wins, losses, draws};
        }

        /** The state file's text: a comment, then {@code done N}, {@code wld W L D} and one {@code KEY VALUE} line each. */
        public String format(Settings s) {
            StringBuilder b = new StringBuilder();
            b.append("# koma spsa state: ").append(s.rs().id).append(", ").append(s.iterations())
                    .append(" iterations, ").append(s.nodes()).append(" nodes a move, seed ").append(s.seed())
                    .append(", r-end ").append(s.rEnd()).append('\n');
            b.append("done ").append(done).append('\n');
            b.append("wld ").append(wins).append(' ').append(losses).append(' ').append(draws).append('\n');
            for (int i = 0; i < theta.length; i++) {
                b.append(s.params().get(i).key).append(' ').append(theta[i])
                        .append('\n');
            }
            return b.toString();
        }

        /** theta rounded, as the lines of a .search file. */
        public String searchLines(Settings s) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < theta.length; i++) {
                b.append(s.params().get(i).key).append(" = ").append(Math.round(theta[i])).append('\n');
            }
            return b.toString();
        }

        /**
         * Reads a state file written by {@link #format} for the same parameters; a file naming other parameters, or
         * a line that is not of the format, is refused naming it.
         */
        public static State parse(String text, Settings s, String source) {
            Map<String, Double> values = new java.util.HashMap<>();
            Integer done = null;
            long[] wld = null;
            int lineNo = 0;
            for (String line : text.split("\n", -1)) {
                lineNo++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] f = t.split("\\s+");
                try {
                    if (f[0].equals("done") && f.length == 2) {
                        done = Integer.parseInt(f[1]);
                    } else if (f[0].equals("wld") && f.length == 4) {
                        wld = new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
                    } else if (f.length == 2 && SearchParam.ofKey(f[0]) != null) {
                        values.put(f[0], Double.parseDouble(f[1]));
                    } else {
                        throw new IllegalArgumentException(source + ":" + lineNo + ": expected 'done N', 'wld W L D' "
                                + "or 'KEY VALUE' with a search parameter's key, got '" + t + "'");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(source + ":" + lineNo + ": not a number in '" + t + "'");
                }
            }
            if (done == null || wld == null) {
                throw new IllegalArgumentException(source + ": no 'done' or 'wld' line: not an SPSA state file");
            }
            List<String> want = s.params().stream().map(p -> p.key).toList();
            if (!values.keySet().equals(new java.util.HashSet<>(want))) {
                throw new IllegalArgumentException(source + ": tunes " + values.keySet().stream().sorted().toList()
                        + ", but this run tunes " + want.stream().sorted().toList());
            }
            double[] theta = new double[want.size()];
            for (int i = 0; i < theta.length; i++) {
                theta[i] = values.get(want.get(i));
            }
            return new State(done, theta, wld[0], wld[1], wld[2]);
        }
    }

    private final Settings s;
    private final State state;
    private final Path stateFile;
    private final Consumer<String> progress;
    private int next, limit;
    private RuntimeException failure;

    /**
     * A run from {@code state} that saves itself to {@code stateFile} (null: not saved) after every iteration and
     * tells {@code progress} (may be null) of each.
     */
    public Spsa(Settings s, State state, Path stateFile, Consumer<String> progress) {
        this.s = s;
        this.state = state;
        this.stateFile = stateFile;
        this.progress = progress;
        this.next = state.done + 1;
    }

    /** Plays the iterations left (up to N) and returns the state. */
    public State run() {
        return run(s.iterations());
    }

    /** Plays the iterations left up to iteration {@code last} (at most N) and returns the state. */
    public State run(int last) {
        limit = Math.min(last, s.iterations());
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < s.threads(); t++) {
            Thread w = new Thread(null, this::work, "spsa-" + t, 64L << 20);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        try {
            for (Thread w : workers) {
                w.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("SPSA interrupted", e);
        }
        synchronized (this) {
            if (failure != null) {
                throw failure;
            }
        }
        return state;
    }

    /** One worker: takes the next iteration, plays its pair, applies it, until N or a failure. */
    private void work() {
        TranspositionTable up = new TranspositionTable(s.hashMb()), down = new TranspositionTable(s.hashMb());
        try {
            while (true) {
                int k;
                double[] theta;
                synchronized (this) {
                    if (next > limit || failure != null) {
                        return;
                    }
                    k = next++;
                    theta = state.theta.clone();
                }
                int n = theta.length;
                Random signs = new Random(s.seed() * 0x9E3779B97F4A7C15L + k ^ 0x5DEECE66DL);
                int[] d = new int[n];
                Map<SearchParam, Integer> plus = new EnumMap<>(SearchParam.class);
                Map<SearchParam, Integer> minus = new EnumMap<>(SearchParam.class);
                for (int i = 0; i < n; i++) {
                    SearchParam p = s.params().get(i);
                    d[i] = signs.nextBoolean() ? 1 : -1;
                    double c = s.c(p, k);
                    plus.put(p, clamp(p, Math.round(theta[i] + c * d[i])));
                    minus.put(p, clamp(p, Math.round(theta[i] - c * d[i])));
                }
                SearchDefaults dp = s.base().withParams(plus), dm = s.base().withParams(minus);
                long openingSeed = s.seed() * 0x9E3779B97F4A7C15L + k;
                double first = playGame(SelfPlay.opening(s.rs(), new Random(openingSeed), s.randomPlies()),
                        search(dp, up), search(dm, down));
                double second = 1 - playGame(SelfPlay.opening(s.rs(), new Random(openingSeed), s.randomPlies()),
                        search(dm, down), search(dp, up));
                int result = (int) Math.round(2 * first - 1 + 2 * second - 1);
                apply(k, d, result, first, second);
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    /**
     * Moves theta by iteration k's result (the upper side's wins less losses over the pair; {@code first} and
     * {@code second} its two scores) with signs {@code d}, and saves the state.
     */
    synchronized void apply(int k, int[] d, int result, double first, double second) {
        for (int i = 0; i < d.length; i++) {
            SearchParam p = s.params().get(i);
            double v = state.theta[i] + s.a(p, k) / s.c(p, k) * result * d[i];
            state.theta[i] = Math.min(p.max, Math.max(p.min, v));
        }
        for (double g : new double[] {first, second}) {
            if (g == 1) {
                state.wins++;
            } else if (g == 0) {
                state.losses++;
            } else {
                state.draws++;
            }
        }
        state.done++;
        if (stateFile != null) {
            try {
                Path tmp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
                Files.writeString(tmp, state.format(s));
                Files.move(tmp, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new IllegalStateException("cannot write the SPSA state to " + stateFile + ": " + e.getMessage(), e);
            }
        }
        if (progress != null) {
            StringBuilder b = new StringBuilder();
            b.append("iteration ").append(k).append(": ").append(result > 0 ? "+" : "").append(result)
                    .append(" (upper side W-L-D ").append(state.wins).append('-').append(state.losses).append('-')
                    .append(state.draws).append(")");
            if (state.done % 50 == 0 || state.done == s.iterations()) {
                for (int i = 0; i < d.length; i++) {
                    b.append(' ').append(s.params().get(i).key).append('=')
                            .append(String.format(Locale.ROOT, "%.2f", state.theta[i]));
                }
            }
            progress.accept(b.toString());
        }
    }

    private static int clamp(SearchParam p, long v) {
        return (int) Math.min(p.max, Math.max(p.min, v));
    }

    /** A fresh search with {@code d} on {@code tt} (cleared): each game starts with no history. */
    private Search search(SearchDefaults d, TranspositionTable tt) {
        tt.clear();
        return new Search(s.rs(), tt, d);
    }

    /** Plays the opening out between {@code white} (the first player) and {@code black}; the first player's score. */
    private double playGame(SelfPlay.Opening o, Search white, Search black) {
        return SelfPlay.playOut(o, white, black, s.nodes(), s.maxPlies(), SelfPlay.ADJUDICATE, null).result();
    }
}
