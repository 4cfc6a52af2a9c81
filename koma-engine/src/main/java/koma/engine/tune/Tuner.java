package koma.engine.tune;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import koma.engine.Evaluation;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * Texel tuning of an {@link Evaluation}'s weights: the loss is the mean squared difference between each position's
 * game result and {@code sigmoid(K * eval) = 1 / (1 + 10^(-K * eval / 400))}, with the scale K fitted first on the
 * starting weights and then held. The evaluation is linear in its weights ({@link Evaluation#trace}), so each
 * position is stored once as its sparse coefficients, column by column, and a change of one weight updates only
 * the positions where that weight appears. The search is integer coordinate descent with shrinking steps (each
 * weight in turn moves one step up or down when the loss falls), stopped early on held-out positions, which keeps
 * the weights integers and the result deterministic. Weights that appear in fewer than {@code minCount} positions
 * stay as they are, and so do frozen ones.
 */
public final class Tuner {
    private final RuleSet rs;
    private final List<String> keys;
    private final int params;
    /** Column storage: for weight k, the positions colStart[k]..colStart[k+1]-1 as (row, coefficient). */
    private final int[] colStart, colRow;
    private final float[] colCoef;
    private final double[] result;
    private final int rows;
    private final int[] count;
    private final boolean[] nonNegative;
    private final boolean[] frozen;

    /** Prepares the positions for the rule set with the given starting weights; the target is the game result. */
    public Tuner(RuleSet rs, Map<String, Integer> start, List<Sample> samples) {
        this(rs, start, samples, 1, 1);
    }

    /**
     * Prepares the positions with the target {@code lambda * result + (1 - lambda) * sigmoid(scoreK, score)}: the
     * game result blended with the self-play search's score ({@code scoreK}: the scale fitted on the results).
     */
    public Tuner(RuleSet rs, Map<String, Integer> start, List<Sample> samples, double lambda, double scoreK) {
        if (lambda < 0 || lambda > 1) {
            throw new IllegalArgumentException("lambda must be from 0 to 1, got " + lambda);
        }
        this.rs = rs;
        Evaluation e = new Evaluation(rs, start);
        keys = e.keys();
        params = keys.size();
        rows = samples.size();
        result = new double[rows];
        double[] coef = new double[params];
        count = new int[params];
        List<int[]> idx = new ArrayList<>(rows);
        List<float[]> val = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            Sample s = samples.get(i);
            Position p = Fen.parse(rs, s.fen());
            e.trace(p, coef);
            int nz = 0;
            for (double c : coef) {
                if (c != 0) {
                    nz++;
                }
            }
            int[] ix = new int[nz];
            float[] v = new float[nz];
            for (int k = 0, j = 0; k < params; k++) {
                if (coef[k] != 0) {
                    ix[j] = k;
                    v[j++] = (float) coef[k];
                    count[k]++;
                }
            }
            idx.add(ix);
            val.add(v);
            result[i] = lambda * s.result() + (1 - lambda) * sigmoid(scoreK, s.score());
        }
        colStart = new int[params + 1];
        for (int k = 0; k < params; k++) {
            colStart[k + 1] = colStart[k] + count[k];
        }
        colRow = new int[colStart[params]];
        colCoef = new float[colStart[params]];
        int[] fill = colStart.clone();
        for (int i = 0; i < rows; i++) {
            int[] ix = idx.get(i);
            float[] v = val.get(i);
            for (int j = 0; j < ix.length; j++) {
                int at = fill[ix[j]]++;
                colRow[at] = i;
                colCoef[at] = v[j];
            }
        }
        nonNegative = new boolean[params];
        frozen = new boolean[params];
        for (int k = 0; k < params; k++) {
            String key = keys.get(k);
            nonNegative[k] = key.startsWith("hand ") || rs.typeOf(key) >= 0;
        }
    }

    /** The weights' keys, in the order of the vectors this class takes. */
    public List<String> keys() {
        return keys;
    }

    /** Number of positions. */
    public int size() {
        return rows;
    }

    /** The weight vector of a weights map (keys missing from it take the evaluation's defaults). */
    public int[] vector(Map<String, Integer> weights) {
        Map<String, Integer> all = new Evaluation(rs, weights).weights();
        int[] w = new int[params];
        for (int k = 0; k < params; k++) {
            w[k] = all.get(keys.get(k));
        }
        return w;
    }

    /** The weights map of a vector, in key order. */
    public Map<String, Integer> map(int[] w) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int k = 0; k < params; k++) {
            m.put(keys.get(k), w[k]);
        }
        return m;
    }

    /** Each position's evaluation (side to move, unrounded) under the weights. */
    double[] evals(int[] w) {
        double[] e = new double[rows];
        for (int k = 0; k < params; k++) {
            for (int j = colStart[k]; j < colStart[k + 1]; j++) {
                e[colRow[j]] += colCoef[j] * w[k];
            }
        }
        return e;
    }

    static double sigmoid(double k, double eval) {
        return 1 / (1 + Math.pow(10, -k * eval / 400));
    }

    private double loss(double[] e, double k) {
        double sum = 0;
        for (int i = 0; i < rows; i++) {
            double d = result[i] - sigmoid(k, e[i]);
            sum += d * d;
        }
        return rows == 0 ? 0 : sum / rows;
    }

    /** The loss of a weight vector at scale K. */
    public double loss(int[] w, double k) {
        return loss(evals(w), k);
    }

    /** The K in [0.05, 5] that minimises the loss of the weights (golden-section search on a unimodal curve). */
    public double fitK(int[] w) {
        double[] e = evals(w);
        double lo = 0.05, hi = 5, g = (Math.sqrt(5) - 1) / 2;
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        double fa = loss(e, a), fb = loss(e, b);
        for (int it = 0; it < 60; it++) {
            if (fa < fb) {
                hi = b;
                b = a;
                fb = fa;
                a = hi - g * (hi - lo);
                fa = loss(e, a);
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + g * (hi - lo);
                fb = loss(e, b);
            }
        }
        return (lo + hi) / 2;
    }

    /**
     * Coordinate descent from {@code start} at scale {@code k}: for each step of {@code steps} in turn, passes over
     * the weights in which each weight moves by one step up or down when that lowers the training loss, at most
     * {@code maxPasses} passes per step. With a {@code holdout} (positions of other games, may be null) the passes
     * stop early: after each pass its loss is measured, the best vector so far is kept, and a step ends when three
     * passes running did not beat it. Returns the tuned vector (the best on the held-out positions when given).
     */
    public int[] optimise(int[] start, double k, int[] steps, int maxPasses, int minCount, Tuner holdout,
                          Consumer<String> log) {
        int[] w = start.clone();
        double[] e = evals(w);
        double[] loss = new double[rows];
        double total = 0;
        for (int i = 0; i < rows; i++) {
            double d = result[i] - sigmoid(k, e[i]);
            loss[i] = d * d;
            total += loss[i];
        }
        int[] best = w.clone();
        double bestCheck = holdout == null ? 0 : holdout.loss(w, k);
        for (int step : steps) {
            int worse = 0;
            for (int pass = 0; pass < maxPasses; pass++) {
                boolean improved = false;
                for (int p = 0; p < params; p++) {
                    if (count[p] < minCount || frozen[p]) {
                        continue;
                    }
                    for (int dir : new int[] {1, -1}) {
                        int delta = dir * step;
                        if (nonNegative[p] && w[p] + delta < 0) {
                            continue;
                        }
                        double change = change(p, delta, k, e, loss);
                        if (change < -1e-12) {
                            apply(p, delta, k, e, loss);
                            w[p] += delta;
                            total += change;
                            improved = true;
                            break;
                        }
                    }
                }
                double check = holdout == null ? Double.NaN : holdout.loss(w, k);
                if (log != null) {
                    log.accept(String.format("step %d pass %d: loss %.6f, held out %.6f", step, pass + 1,
                            total / rows, check));
                }
                if (holdout == null) {
                    best = w.clone();
                } else if (check < bestCheck) {
                    bestCheck = check;
                    best = w.clone();
                    worse = 0;
                } else if (++worse >= 3) {
                    break;
                }
                if (!improved) {
                    break;
                }
            }
            if (holdout != null && !java.util.Arrays.equals(w, best)) {
                w = best.clone();
                e = evals(w);
                total = 0;
                for (int i = 0; i < rows; i++) {
                    double d = result[i] - sigmoid(k, e[i]);
                    loss[i] = d * d;
                    total += loss[i];
                }
            }
        }
        return best;
    }

    /** Change of the summed loss when weight p moves by delta. */
    private double change(int p, int delta, double k, double[] e, double[] loss) {
        double sum = 0;
        for (int j = colStart[p]; j < colStart[p + 1]; j++) {
            int i = colRow[j];
            double d = result[i] - sigmoid(k, e[i] + colCoef[j] * delta);
            sum += d * d - loss[i];
        }
        return sum;
    }

    private void apply(int p, int delta, double k, double[] e, double[] loss) {
        for (int j = colStart[p]; j < colStart[p + 1]; j++) {
            int i = colRow[j];
            e[i] += colCoef[j] * delta;
            double d = result[i] - sigmoid(k, e[i]);
            loss[i] = d * d;
        }
    }

    /** Leaves the named weights out of {@link #optimise}. */
    public void freeze(java.util.Collection<String> names) {
        for (String name : names) {
            int k = keys.indexOf(name);
            if (k >= 0) {
                frozen[k] = true;
            }
        }
    }

    /** How many positions each weight appears in, by key. */
    public Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int k = 0; k < params; k++) {
            m.put(keys.get(k), count[k]);
        }
        return m;
    }
}
