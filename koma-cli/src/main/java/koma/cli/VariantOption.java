package koma.cli;

import koma.rules.RuleSet;
import picocli.CommandLine.Option;

/**
 * The {@code --variant} option of the commands that work on one rule set, declared once (a picocli mixin:
 * {@code @Mixin VariantOption variant;}).
 */
final class VariantOption {
    @Option(names = {"-v", "--variant"}, paramLabel = "<variant>", completionCandidates = Variants.class,
            description = "Rule set: ${COMPLETION-CANDIDATES}. Default: the first of them.")
    String id;

    /** The rule set named (the built-in list's first when none is); an unknown name is refused, naming the known ones. */
    RuleSet rules() {
        return id == null ? RuleSet.standard() : Variants.rules(id);
    }
}
