package koma.engine;

/**
 * What the Skill Levels 0..20 are worth, one table for every reader: the protocols map UCI_Elo onto a level with it,
 * and the server hands it to the new-game page ({@code GET /api/levels}). Elo on Stockfish's UCI_Elo scale, chess,
 * 100 ms a move, measured with the built-in chess net (stop 57's, 08389ad): 80 games per even level against Stockfish
 * 15.1 with UCI_LimitStrength at a level near it (levels 0 and 2 through matches against level 4), the 20 games of
 * 2026-12-01 (stop 57) and 60 on new openings of 2026-12-02 (stop 58) pooled. Levels 14-20 (2003, 1883, 1809, 1888)
 * are not in order, within their margins, and are pooled to 1895, which keeps the table non-decreasing; odd levels
 * halfway; computed by bench/skill-table.py (bench/results/2026-12-02-stop58.txt, bench/skill-calibration.sh).
 */
public final class SkillLevels {
    /** The strongest level (full strength); levels run from 0. */
    public static final int MAX = 20;
    private static final int[] ELO = {485, 585, 685, 905, 1125, 1255, 1385, 1460, 1540, 1625, 1705, 1785, 1865, 1880,
            1895, 1895, 1895, 1895, 1895, 1895, 1895};
    /** The UCI_Elo range: the measured strength of level 0 and of full strength, rounded. */
    public static final int MIN_ELO = 485, MAX_ELO = 1895;

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
