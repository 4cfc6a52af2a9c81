package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The skill table (bench/results/2026-11-25-skill.txt): monotone, spanning the advertised UCI_Elo range, and the
 * mapping of an Elo onto a level never gives a level measured stronger than the Elo asked for.
 */
class SkillLevelsTest {
    @Test
    void theTableIsMonotoneAndSpansTheAdvertisedRange() {
        for (int l = 1; l <= SkillLevels.MAX; l++) {
            assertTrue(SkillLevels.elo(l) >= SkillLevels.elo(l - 1), "level " + l);
        }
        assertTrue(Math.abs(SkillLevels.elo(0) - SkillLevels.MIN_ELO) <= 50);
        assertEquals(SkillLevels.elo(SkillLevels.MAX), SkillLevels.MAX_ELO);
        assertThrows(IllegalArgumentException.class, () -> SkillLevels.elo(SkillLevels.MAX + 1));
        assertThrows(IllegalArgumentException.class, () -> SkillLevels.elo(-1));
    }

    @Test
    void anEloMapsToTheStrongestLevelNotAboveIt() {
        assertEquals(0, SkillLevels.forElo(SkillLevels.MIN_ELO));
        assertEquals(SkillLevels.MAX, SkillLevels.forElo(SkillLevels.MAX_ELO));
        int previous = 0;
        for (int elo = SkillLevels.MIN_ELO; elo <= SkillLevels.MAX_ELO; elo += 5) {
            int level = SkillLevels.forElo(elo);
            assertTrue(level >= previous, "not monotone at " + elo);
            assertTrue(level == 0 || SkillLevels.elo(level) <= elo, elo + " -> level " + level);
            assertTrue(level == SkillLevels.MAX || SkillLevels.elo(level + 1) > elo, elo + " -> level " + level);
            previous = level;
        }
    }
}
