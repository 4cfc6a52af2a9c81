package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import koma.rules.RuleSet;

/**
 * Koma against Debian's reference engines (skipped when they are not installed): Stockfish in chess over UCI,
 * Fairy-Stockfish in shogi over USI and in Shodo over UCI (with VariantPath and UCI_Variant passed as options).
 * Every game must end by the rules or the ply cap, never by an engine fault; except that in Shodo Fairy-Stockfish's
 * definition lets a knight promote when it leaves the last rank, which Shodo forbids, so Fairy-Stockfish may lose by an
 * illegal move there (Koma may not).
 */
class ReferenceEngineTest {
    private static final String STOCKFISH = "/usr/games/stockfish", FAIRY = "/usr/games/fairy-stockfish";
    /**
     * The team's Fairy-Stockfish definitions of Shodo (../shared/tools/shodo.ini next to the repository), or the copy
     * of that file in this module's test resources when the repository is checked out elsewhere.
     */
    private static final Path SHODO_INI = shodoIni();

    private static Path shodoIni() {
        Path shared = Path.of("../../shared/tools/shodo.ini").toAbsolutePath().normalize();
        if (Files.isReadable(shared)) {
            return shared;
        }
        try {
            return Path.of(ReferenceEngineTest.class.getResource("/shodo.ini").toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
    private static final Set<String> FAULTS = Set.of(GameResult.ILLEGAL_MOVE, GameResult.TIME_FORFEIT,
            GameResult.ENGINE_CRASH);

    private static Match.Summary play(RuleSet rs, EngineConfig other, int maxPlies, boolean otherMayErr) throws Exception {
        // the margin is generous: the machine is shared, and the referee's strictness is tested elsewhere
        Match.Config config = new Match.Config(rs, MatchTest.koma(rs, "Koma"), other, 2, TimeControl.moveTime(50),
                1000, maxPlies, 2, Opening.random(rs, 2, 11, 1), null, null, null, null);
        Match.Summary s = MatchTest.run(config).summary();
        assertEquals(2, s.games().size());
        for (RefereedGame g : s.games()) {
            boolean komaLost = g.result().winner() == (g.players().indexOf("Koma") ^ 1);
            if (komaLost || !otherMayErr) {
                assertFalse(FAULTS.contains(g.result().termination()), g.round() + ": " + g.result());
            }
            assertTrue(g.moves().size() > 2);
        }
        return s;
    }

    @Test
    void stockfishChess() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(STOCKFISH)), STOCKFISH + " is not installed");
        Match.Summary s = play(RuleSet.of("chess"), new EngineConfig(STOCKFISH, EngineConfig.Protocol.UCI, null,
                List.of()), 300, false);
        assertTrue(s.name2().startsWith("Stockfish"), s.name2());
    }

    @Test
    void fairyStockfishShogiOverUsi() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(FAIRY)), FAIRY + " is not installed");
        Match.Summary s = play(RuleSet.of("shogi"), new EngineConfig(FAIRY, EngineConfig.Protocol.USI, null,
                List.of()), 300, false);
        assertTrue(s.name2().startsWith("Fairy-Stockfish"), s.name2());
    }

    @Test
    void fairyStockfishShodo() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(FAIRY)), FAIRY + " is not installed");
        assumeTrue(Files.isReadable(SHODO_INI), SHODO_INI + " is missing");
        play(RuleSet.of("shodo"), new EngineConfig(FAIRY, EngineConfig.Protocol.UCI, "Fairy",
                List.of(Map.entry("VariantPath", SHODO_INI.toString()), Map.entry("UCI_Variant", "shodo"))), 200, true);
    }
}
