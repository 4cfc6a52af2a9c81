package koma.rules;

/** What a rule awards to the side it applies to: used for stalemate and similar end rules. */
public enum Outcome {
    DRAW, LOSS, WIN
}
