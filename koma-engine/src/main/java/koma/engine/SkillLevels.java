package koma.engine;

/**
 * What the Skill Levels 0..20 are worth, one table for every reader: the protocols map UCI_Elo onto a level with it,
 * and the server hands it to the new-game page ({@code GET /api/levels}). Elo on Stockfish's UCI_Elo scale, chess,
 * 100 ms a move, 80 games per even level against Stockfish 15.1 with UCI_LimitStrength at a level near it (levels 0
 * and 2 through matches against level 4): the 20 games of 2026-11-25 and of 2026-11-26 (the engine of stop 30), the
 * 20 of 2026-11-28 (stop 46) and the 20 of 2026-11-29 (stop 51, after stop 48's chess weights and king safety), same
 * lines and seeds, pooled: each run's lines are within their margins of the others'. Levels 12-20 (1844, 1848, 1715,
 * 1779, 1791) are within their margins of each other and pooled to 1795; odd levels halfway
 * (bench/results/2026-11-29-stop51.txt, bench/skill-calibration.sh).
 */
public final class SkillLevels {
    /** The strongest level (full strength); levels run from 0. */
    public static final int MAX = 20;
    private static final int[] ELO = {575, 685, 790, 980, 1175, 1310, 1445, 1515, 1585, 1635, 1685, 1740, 1795, 1795,
            1795, 1795, 1795, 1795, 1795, 1795, 1795};
    /** The UCI_Elo range: the measured strength of level 0 and of full strength, rounded. */
    public static final int MIN_ELO = 575, MAX_ELO = 1795;

    private SkillLevels() {
    }

    /** The measured Elo of a level, 0..{@link #MAX}. */
    public static int elo(int level) {
        if (level < 0 || level > MAX) {
            throw new IllegalArgumentException("skill level " + level + " is outside 0.." + MAX);
        }
        return ELO[level];
    }

    /** The strongest level whose measured Elo is at most {@code elo}; 0 below them all. */
    public static int forElo(int elo) {
        int level = 0;
        for (int l = 0; l <= MAX; l++) {
            if (ELO[l] <= elo) {
                level = l;
            }
        }
        return level;
    }
}
