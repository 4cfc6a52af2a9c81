package koma.engine;

/**
 * What the Skill Levels 0..20 are worth, one table for every reader: the protocols map UCI_Elo onto a level with it,
 * and the server hands it to the new-game page ({@code GET /api/levels}). Elo on Stockfish's UCI_Elo scale, chess,
 * 100 ms a move, measured with the built-in chess net c11b (stop 64, 2644928): 50 games per even level against
 * Stockfish 15.1 with UCI_LimitStrength at a level near it (levels 0 and 2 through matches against level 4; levels 14
 * and 20 against two Stockfish levels each), two games at a time. Levels 14-20 (estimates 2005, 2021, 2115, 2007) are
 * not in order, within their margins (a line of 50 games: about 50-70 Elo), and 18-20 are pooled to 2043 (2045
 * rounded to 5, as every figure), which keeps the table non-decreasing; odd levels halfway; computed by
 * bench/skill-table.py (bench/results/2026-12-06-stop64.txt section 5, bench/skill-calibration.sh).
 */
public final class SkillLevels {
    /** The strongest level (full strength); levels run from 0. */
    public static final int MAX = 20;
    private static final int[] ELO = {735, 865, 995, 1140, 1285, 1395, 1500, 1610, 1725, 1805, 1890, 1890, 1890,
            1945, 2005, 2015, 2020, 2030, 2045, 2045, 2045};
    /** The UCI_Elo range: the measured strength of level 0 and of full strength, rounded. */
    public static final int MIN_ELO = 735, MAX_ELO = 2045;

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
