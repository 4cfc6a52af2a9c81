package koma.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import koma.engine.nnue.Network;
import koma.rules.RuleSet;

/** The warm-up search runs once per rule set and evaluation, and again for a different one. */
class WarmUpTest {
    @Test
    void runsOncePerRuleSetAndEvaluation() {
        WarmUp w = new WarmUp();
        RuleSet shogi = RuleSet.of("shogi");
        Network net = Network.builtIn(shogi).orElseThrow();   // shogi ships a net (koma-engine's MANIFEST)
        w.ensure(shogi, net);
        w.ensure(shogi, net);
        assertEquals(1, w.count(), "the same rule set and net again: no second warm-up");
        w.ensure(shogi, null);
        assertEquals(2, w.count(), "the hand-written evaluation is warmed up on its own");
        w.ensure(RuleSet.of("chess"), null);
        w.ensure(RuleSet.of("chess"), null);
        assertEquals(3, w.count());
    }
}
