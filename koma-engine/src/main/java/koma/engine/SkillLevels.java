package koma.engine;

/**
 * What the Skill Levels 0..20 are worth, one table for every reader: the protocols map UCI_Elo onto a level with it,
 * and the server hands it to the new-game page ({@code GET /api/levels}). Elo on Stockfish's UCI_Elo scale, chess,
 * 100 ms a move, 40 games per even level against Stockfish 15.1 with UCI_LimitStrength at a level near it (levels 0
 * and 2 through matches against level 4): the 20 games of 2026-11-25 and the 20 of 2026-11-26 (same lines and
 * seeds, the engine of stop 30, whose self-play gains did not show at this control: full strength scored 20% against
 * UCI_Elo 2000 both times), pooled. Levels 12-20 (1826, 1756, 1699, 1772, 1759) are within their margins of each
 * other and pooled to 1765; odd levels halfway (bench/results/2026-11-26-skill.txt, bench/skill-calibration.sh).
 */
public final class SkillLevels {
    /** The strongest level (full strength); levels run from 0. */
    public static final int MAX = 20;
    private static final int[] ELO = {470, 585, 700, 900, 1105, 1265, 1420, 1490, 1555, 1610, 1665, 1715, 1765, 1765,
            1765, 1765, 1765, 1765, 1765, 1765, 1765};
    /** The UCI_Elo range: the measured strength of level 0 and of full strength, rounded. */
    public static final int MIN_ELO = 470, MAX_ELO = 1765;

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
