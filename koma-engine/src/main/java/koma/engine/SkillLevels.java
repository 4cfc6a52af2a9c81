package koma.engine;

/**
 * What the Skill Levels 0..20 are worth, one table for every reader: the protocols map UCI_Elo onto a level with it,
 * and the server hands it to the new-game page ({@code GET /api/levels}). Elo on Stockfish's UCI_Elo scale, chess,
 * 100 ms a move, 20 games per even level against Stockfish 15.1 with UCI_LimitStrength at a level near it (levels 0
 * and 2 through matches against level 4), made monotone by pooling neighbours that measured out of order (levels
 * 12-20: 1908, 1765, 1662, 1785 and 1759 pooled to 1775), odd levels halfway. Measured on 2026-11-25 on the engine
 * with net, carried-over history and static exchange evaluation (bench/results/2026-11-25-skill.txt,
 * bench/skill-calibration.sh); level 0 lost all 20 games to level 4 and is put 200 below level 2.
 */
public final class SkillLevels {
    /** The strongest level (full strength); levels run from 0. */
    public static final int MAX = 20;
    private static final int[] ELO = {295, 400, 500, 720, 940, 1215, 1490, 1560, 1635, 1675, 1710, 1745, 1775, 1775,
            1775, 1775, 1775, 1775, 1775, 1775, 1775};
    /** The UCI_Elo range: the measured strength of level 0 and of full strength, rounded. */
    public static final int MIN_ELO = 300, MAX_ELO = 1775;

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
