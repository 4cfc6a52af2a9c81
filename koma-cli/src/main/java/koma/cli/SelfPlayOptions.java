package koma.cli;

import picocli.CommandLine.Option;

/**
 * The options of the commands that play Koma against itself from random openings (tune, nnue gen, spsa), declared
 * once (a picocli mixin): the random plies of each opening, the ply cap, and the seed.
 */
final class SelfPlayOptions {
    @Option(names = "--random-plies", defaultValue = "8",
            description = "Random opening plies per game. Default: ${DEFAULT-VALUE}.")
    int randomPlies;

    @Option(names = "--max-plies", defaultValue = "400",
            description = "A game still running after this many plies is a draw. Default: ${DEFAULT-VALUE}.")
    int maxPlies;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;
}
