package koma.cli;

import java.util.Iterator;

import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/** The rule-set names for option completion and help, and the helpers commands share about them. */
public final class Variants implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return RuleSet.IDS.iterator();
    }

    static RuleSet rules(String id) {
        return RuleSet.of(id);
    }

    /** The move style the definition declares: USI coordinates for shogi, UCI for the others (RULES.md 9.3). */
    static MoveNotation.Style style(RuleSet rs) {
        return rs.conventions.moveStyle().equals("usi") ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }
}
