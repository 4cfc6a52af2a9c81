package koma.cli;

import koma.rules.RuleSet;
import picocli.CommandLine.Option;

/**
 * The {@code --variant} option of the commands that work on one rule set, declared once (a picocli mixin:
 * {@code @Mixin VariantOption variant;}).
 */
final class VariantOption {
    @Option(names = {"-v", "--variant"}, paramLabel = "<variant>", defaultValue = "chess", completionCandidates = Variants.class,
            description = "Rule set: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    String id;

    /** The rule set named; an unknown name is refused, naming the known ones. */
    RuleSet rules() {
        return Variants.rules(id);
    }
}
