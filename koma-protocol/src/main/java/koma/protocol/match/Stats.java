package koma.protocol.match;

import java.util.Locale;

/**
 * Match statistics from engine 1's point of view: wins, losses, draws; the score; the Elo difference of the
 * logistic model with a 95% error margin; the likelihood of superiority; and the log-likelihood ratio of an SPRT.
 *
 * <ul>
 *   <li>Score {@code p = (W + D/2) / N}; Elo {@code -400 log10(1/p - 1)} (infinite at p = 0 or 1).</li>
 *   <li>Margin (as cutechess): per-game scores 1, 0.5, 0 with frequencies w, d, l have standard deviation
 *   {@code sigma = sqrt(w(1-p)^2 + d(1/2-p)^2 + l(0-p)^2)}; the score's 95% interval is
 *   {@code p -/+ 1.959964 sigma / sqrt(N)}, and the margin is half the Elo width of that interval.</li>
 *   <li>LOS {@code = 1/2 (1 + erf((W - L) / sqrt(2 (W + L))))}; draws carry no information.</li>
 *   <li>SPRT, the normal approximation of the generalised SPRT (fishtest, cutechess since 1.2, logistic Elo):
 *   with {@code s0, s1} the scores of elo0, elo1, {@code LLR = N (s1 - s0)(2p - s0 - s1) / (2 sigma^2)}.</li>
 * </ul>
 */
public record Stats(int wins, int losses, int draws) {
    /** The 97.5% quantile of the standard normal distribution. */
    public static final double Z_975 = 1.959963984540054;

    public int games() {
        return wins + losses + draws;
    }

    /** The score per game, 0..1 (0.5 with no games). */
    public double score() {
        int n = games();
        return n == 0 ? 0.5 : (wins + draws / 2.0) / n;
    }

    /** The standard deviation of one game's score. */
    public double stdDevPerGame() {
        int n = games();
        if (n == 0) {
            return 0;
        }
        double p = score(), w = (double) wins / n, d = (double) draws / n, l = (double) losses / n;
        return Math.sqrt(w * (1 - p) * (1 - p) + d * (0.5 - p) * (0.5 - p) + l * p * p);
    }

    /** Elo difference of a score: {@code -400 log10(1/p - 1)}; +/- infinity at 1 and 0. */
    public static double elo(double score) {
        if (score <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (score >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        return -400 * Math.log10(1 / score - 1);
    }

    /** Expected score at an Elo difference: {@code 1 / (1 + 10^(-elo/400))}. */
    public static double scoreOf(double elo) {
        return 1 / (1 + Math.pow(10, -elo / 400));
    }

    public double eloDiff() {
        return elo(score());
    }

    /** Half the Elo width of the score's 95% interval (infinite when the interval reaches 0 or 1). */
    public double eloMargin() {
        int n = games();
        if (n == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double dev = Z_975 * stdDevPerGame() / Math.sqrt(n);
        double hi = elo(score() + dev), lo = elo(score() - dev);
        if (Double.isInfinite(hi) || Double.isInfinite(lo)) {
            return Double.POSITIVE_INFINITY;
        }
        return (hi - lo) / 2;
    }

    /** Likelihood of superiority, 0..1. */
    public double los() {
        if (wins + losses == 0) {
            return 0.5;
        }
        return 0.5 * (1 + erf((wins - losses) / Math.sqrt(2.0 * (wins + losses))));
    }

    /**
     * Log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, normal approximation; 0 with no games.
     * While one engine has won no game its win count is taken as half a game (a continuity correction): fishtest's
     * 0.001 for a zero count left the variance near 0, so that one won game accepted H1 (LLR 5.7 after a single
     * Shodo win). With the half game, straight wins reach the bound only after 21 games at elo1 = 5. cutechess
     * waits for a win, a loss and a draw instead; games of the shogi family seldom draw.
     */
    public double llr(double elo0, double elo1) {
        if (games() == 0) {
            return 0;
        }
        double w = wins == 0 ? 0.5 : wins, l = losses == 0 ? 0.5 : losses, d = draws;
        double n = w + l + d, p = (w + d / 2) / n;
        double var = (w * (1 - p) * (1 - p) + d * (0.5 - p) * (0.5 - p) + l * p * p) / n;
        double s0 = scoreOf(elo0), s1 = scoreOf(elo1);
        return n * (s1 - s0) * (2 * p - s0 - s1) / (2 * var);
    }

    /** {@code Score of A vs B: 12 - 5 - 3 [0.675] 20}. */
    public String scoreLine(String a, String b) {
        return String.format(Locale.ROOT, "Score of %s vs %s: %d - %d - %d [%.3f] %d", a, b, wins, losses, draws, score(),
                games());
    }

    /** {@code Elo difference: 127.0 +/- 163.2, LOS: 95.5 %}; "inf" where the estimate is infinite. */
    public String eloLine() {
        return "Elo difference: " + number(eloDiff()) + " +/- " + number(eloMargin())
                + String.format(Locale.ROOT, ", LOS: %.1f %%", los() * 100);
    }

    private static String number(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%.1f", x == 0 ? 0.0 : x); // no "-0.0"
    }

    /**
     * The error function (Numerical Recipes' erfc by Chebyshev fitting, fractional error below 1.2e-7 everywhere).
     */
    public static double erf(double x) {
        double t = 1 / (1 + 0.5 * Math.abs(x));
        double erfc = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
                + t * 0.17087277)))))))));
        return x >= 0 ? 1 - erfc : erfc - 1;
    }

    /**
     * A sequential probability ratio test: H0 "the Elo difference is elo0" against H1 "it is elo1", with error
     * rates alpha (accepting H1 wrongly) and beta (accepting H0 wrongly). Bounds: {@code ln(beta/(1-alpha))} and
     * {@code ln((1-beta)/alpha)}.
     */
    public record Sprt(double elo0, double elo1, double alpha, double beta) {
        public enum Decision { CONTINUE, H0, H1 }

        public Sprt {
            if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1)) {
                throw new IllegalArgumentException("--sprt: alpha and beta must be between 0 and 1");
            }
            if (!(elo1 > elo0)) {
                throw new IllegalArgumentException("--sprt: elo1 must be greater than elo0");
            }
        }

        /** Parses {@code elo0=0,elo1=5,alpha=0.05,beta=0.05} (alpha and beta default to 0.05). */
        public static Sprt parse(String text) {
            Double e0 = null, e1 = null;
            double a = 0.05, b = 0.05;
            for (String part : (text == null ? "" : text).split(",")) {
                String[] kv = part.strip().split("=", 2);
                if (kv.length != 2 || !kv[1].strip().matches("[+-]?\\d+(\\.\\d+)?")) {
                    throw new IllegalArgumentException("--sprt: expected elo0=X,elo1=Y[,alpha=A,beta=B], got '" + text + "'");
                }
                double v = Double.parseDouble(kv[1].strip());
                switch (kv[0].strip().toLowerCase()) {
                    case "elo0" -> e0 = v;
                    case "elo1" -> e1 = v;
                    case "alpha" -> a = v;
                    case "beta" -> b = v;
                    default -> throw new IllegalArgumentException("--sprt: unknown parameter '" + kv[0].strip()
                            + "'; expected elo0, elo1, alpha, beta");
                }
            }
            if (e0 == null || e1 == null) {
                throw new IllegalArgumentException("--sprt: elo0 and elo1 are required, e.g. elo0=0,elo1=5");
            }
            return new Sprt(e0, e1, a, b);
        }

        public double lowerBound() {
            return Math.log(beta / (1 - alpha));
        }

        public double upperBound() {
            return Math.log((1 - beta) / alpha);
        }

        public Decision decide(Stats s) {
            double llr = s.llr(elo0, elo1);
            return llr >= upperBound() ? Decision.H1 : llr <= lowerBound() ? Decision.H0 : Decision.CONTINUE;
        }

        /** {@code SPRT: llr 0.14, lbound -2.94, ubound 2.94} and, once decided, {@code - H1 was accepted}. */
        public String line(Stats s) {
            return line(s, decide(s));
        }

        /**
         * The line with a decision taken earlier: a match stops at its decision, and the games still being played
         * then are counted too, which may move the LLR back inside the bounds without undoing the decision.
         */
        public String line(Stats s, Decision d) {
            return String.format(Locale.ROOT, "SPRT: llr %.3f, lbound %.3f, ubound %.3f", s.llr(elo0, elo1),
                    lowerBound(), upperBound()) + (d == Decision.CONTINUE ? "" : " - " + d + " was accepted");
        }
    }
}
