package koma.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The UCI_Elo mapping onto skill levels: the measured table (bench/results/2026-11-21-skill.txt) must be monotone and
 * span the advertised range, and the mapping must never give a level measured stronger than the Elo asked for.
 */
class SkillEloTest {
    @Test
    void theTableIsMonotoneAndSpansTheAdvertisedRange() {
        assertEquals(21, EngineSession.SKILL_ELO.length);
        for (int l = 1; l <= 20; l++) {
            assertTrue(EngineSession.SKILL_ELO[l] >= EngineSession.SKILL_ELO[l - 1], "level " + l);
        }
        assertTrue(Math.abs(EngineSession.SKILL_ELO[0] - EngineSession.MIN_ELO) <= 50);
        assertEquals(EngineSession.SKILL_ELO[20], EngineSession.MAX_ELO);
    }

    @Test
    void anEloMapsToTheStrongestLevelNotAboveIt() {
        assertEquals(0, EngineSession.skillForElo(EngineSession.MIN_ELO));
        assertEquals(20, EngineSession.skillForElo(EngineSession.MAX_ELO));
        int previous = 0;
        for (int elo = EngineSession.MIN_ELO; elo <= EngineSession.MAX_ELO; elo += 5) {
            int level = EngineSession.skillForElo(elo);
            assertTrue(level >= previous, "not monotone at " + elo);
            assertTrue(level == 0 || EngineSession.SKILL_ELO[level] <= elo, elo + " -> level " + level);
            assertTrue(level == 20 || EngineSession.SKILL_ELO[level + 1] > elo, elo + " -> level " + level);
            previous = level;
        }
    }
}
