package koma.server;

/**
 * The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation (RD)
 * and volatility, updated from the games of one rating period. Koma rates each game as its own period for both
 * players, as lichess does, so a rating moves right after the game. Pure arithmetic, no state.
 */
public final class Glicko2 {
    /** The scale factor between the Glicko and Glicko-2 scales (Glickman, step 2). */
    static final double SCALE = 173.7178;
    /** A new player's rating, deviation and volatility (Glickman's defaults). */
    public static final double START_RATING = 1500, START_RD = 350, START_VOLATILITY = 0.06;
    /** The system constant tau: how much the volatility may change (lichess uses 0.75; Glickman suggests 0.3-1.2). */
    public static final double TAU = 0.75;
    /** The deviation is kept at least this (lichess: 45), so a rating never freezes. */
    public static final double MIN_RD = 45;
    /** A rating whose deviation is above this is provisional, shown with "?" (lichess's threshold). */
    public static final double PROVISIONAL_RD = 110;
    private static final double EPSILON = 1e-6;

    private Glicko2() {
    }

    /** A player's rating on the Glicko scale (rating, RD) with the volatility. */
    public record Rating(double rating, double deviation, double volatility) {
        public static final Rating START = new Rating(START_RATING, START_RD, START_VOLATILITY);

        public boolean provisional() {
            return deviation > PROVISIONAL_RD;
        }
    }

    /** One game of the period: the opponent's rating before it and the score (1 win, 0.5 draw, 0 loss). */
    public record Result(Rating opponent, double score) {
    }

    /**
     * The rating after a period of games (Glickman's steps 1-8, with the Illinois algorithm for the volatility).
     * No games: only the deviation grows (step 6). Without {@code clampRd} (RD kept within 45..350) this is the paper exactly, for its check.
     */
    public static Rating update(Rating player, Result[] games, double tau, boolean clampRd) {
        double mu = (player.rating - START_RATING) / SCALE;
        double phi = player.deviation / SCALE;
        double sigma = player.volatility;
        if (games.length == 0) {
            double p = Math.sqrt(phi * phi + sigma * sigma);
            return new Rating(player.rating, clamp(p * SCALE, clampRd), sigma);
        }
        double vInv = 0, deltaSum = 0;
        for (Result r : games) {
            double muJ = (r.opponent.rating - START_RATING) / SCALE;
            double phiJ = r.opponent.deviation / SCALE;
            double g = g(phiJ);
            double e = 1 / (1 + Math.exp(-g * (mu - muJ)));
            vInv += g * g * e * (1 - e);
            deltaSum += g * (r.score - e);
        }
        double v = 1 / vInv;
        double delta = v * deltaSum;
        double sigmaNew = volatility(phi, sigma, delta, v, tau);
        double phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
        double phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
        double muNew = mu + phiNew * phiNew * deltaSum;
        return new Rating(muNew * SCALE + START_RATING, clamp(phiNew * SCALE, clampRd), sigmaNew);
    }

    /** One rated game: both players' new ratings; {@code firstScore} is 1, 0.5 or 0 for the first player. */
    public static Rating[] game(Rating first, Rating second, double firstScore) {
        return new Rating[]{
                update(first, new Result[]{new Result(second, firstScore)}, TAU, true),
                update(second, new Result[]{new Result(first, 1 - firstScore)}, TAU, true)};
    }

    private static double clamp(double rd, boolean clampRd) {
        return clampRd ? Math.max(MIN_RD, Math.min(START_RD, rd)) : rd;
    }

    private static double g(double phi) {
        return 1 / Math.sqrt(1 + 3 * phi * phi / (Math.PI * Math.PI));
    }

    /** Step 5: the new volatility, the root of f by the Illinois algorithm (Glickman's procedure). */
    private static double volatility(double phi, double sigma, double delta, double v, double tau) {
        double a = Math.log(sigma * sigma);
        double phi2 = phi * phi, delta2 = delta * delta;
        java.util.function.DoubleUnaryOperator f = x -> {
            double ex = Math.exp(x);
            double d = phi2 + v + ex;
            return ex * (delta2 - phi2 - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
        };
        double lo = a, hi;
        if (delta2 > phi2 + v) {
            hi = Math.log(delta2 - phi2 - v);
        } else {
            int k = 1;
            while (f.applyAsDouble(a - k * tau) < 0) {
                k++;
            }
            hi = a - k * tau;
        }
        double fa = f.applyAsDouble(lo), fb = f.applyAsDouble(hi);
        double A = lo, B = hi;
        for (int i = 0; i < 200 && Math.abs(B - A) > EPSILON; i++) {
            double C = A + (A - B) * fa / (fb - fa);
            double fc = f.applyAsDouble(C);
            if (fc * fb <= 0) {
                A = B;
                fa = fb;
            } else {
                fa = fa / 2;
            }
            B = C;
            fb = fc;
        }
        return Math.exp(A / 2);
    }
}
