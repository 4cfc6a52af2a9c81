package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.engine.tune.Sample;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.GameRecord;
import koma.rules.notation.Kif;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.Pgn;

/** {@code koma nnue label}: training shards from PGN and KIF files, and a clear refusal of what does not read. */
class NnueLabelCommandTest {
    @TempDir
    Path tmp;

    /** A game of up to {@code plies} random legal moves of {@code variant} with the given result. */
    private static GameRecord randomGame(String variant, long seed, int plies, String result) {
        Random rng = new Random(seed);
        Position p = Position.start(RuleSet.of(variant));
        List<String> moves = new ArrayList<>();
        for (int i = 0; i < plies && p.legalMoves().length > 0; i++) {
            int[] legal = p.legalMoves();
            int m = legal[rng.nextInt(legal.length)];
            moves.add(MoveNotation.formatUci(p, m));
            p.doMove(m);
        }
        return new GameRecord(variant, null, moves, Map.of("White", "a", "Black", "b"), result);
    }

    /** {@code nnue gen --adjudicate} out of range is refused by name before any shard is made. */
    @Test
    void genRefusesAnAdjudicationBoundOutOfRange() {
        Path out = tmp.resolve("gen");
        Cli.Result r = Cli.inProcess("nnue", "gen", "-v", "minishogi", "--out", out.toString(), "--adjudicate", "0");
        assertTrue(r.exit() != 0, r.out());
        assertTrue(r.err().contains("adjudication bound") && r.err().contains("got 0"), r.err());
        assertFalse(Files.exists(out.resolve("shard-00000.txt")));
    }

    @Test
    void labelsThePgnGamesIntoShards() throws Exception {
        Path pgn = tmp.resolve("games.pgn");
        Files.writeString(pgn, Pgn.format(randomGame("minishogi", 1, 40, "1-0")) + "\n"
                + Pgn.format(randomGame("minishogi", 2, 40, "0-1")) + "\n"
                + Pgn.format(randomGame("minishogi", 3, 40, "*")));
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.inProcess("nnue", "label", "-v", "minishogi", "--records", pgn.toString(), "--out",
                out.toString(), "--games-per-shard", "1", "--nodes", "100");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("3 games"), r.out());
        // one shard per game; the unfinished third game's shard is empty
        for (int k = 0; k < 3; k++) {
            assertTrue(Files.exists(out.resolve(String.format("shard-%05d.txt", k))), "shard " + k);
        }
        assertFalse(Sample.read(out.resolve("shard-00000.txt")).isEmpty());
        assertTrue(Sample.read(out.resolve("shard-00002.txt")).isEmpty());
    }

    @Test
    void readsSeveralGamesFromOneKifFile() throws Exception {
        Path kif = tmp.resolve("match.kif");
        Files.writeString(kif, Kif.format(randomGame("shogi", 4, 30, "1-0"))
                + Kif.format(randomGame("shogi", 5, 30, "0-1")));
        Path out = tmp.resolve("kout");
        Cli.Result r = Cli.inProcess("nnue", "label", "-v", "shogi", "--records", kif.toString(), "--out",
                out.toString(), "--nodes", "100", "--skip-plies", "4", "--eval", "hand");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("2 games"), r.out());
        List<Sample> s = Sample.read(out.resolve("shard-00000.txt"));
        assertFalse(s.isEmpty());
        assertTrue(s.stream().anyMatch(x -> x.game() == 1), "the second game was read too");
    }

    @Test
    void refusesAnUnknownFormatAndABrokenRecordWithTheirNames() throws Exception {
        Path txt = tmp.resolve("games.txt");
        Files.writeString(txt, "1. e4 e5");
        Cli.Result r = Cli.process("nnue", "label", "-v", "chess", "--records", txt.toString(), "--out",
                tmp.resolve("o").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("games.txt: unknown record format"), r.err());
        Path pgn = tmp.resolve("bad.pgn");
        Files.writeString(pgn, "[Event \"x\"]\n\n1. e4 Ke7 Qxf7 *\n");
        r = Cli.process("nnue", "label", "-v", "chess", "--records", pgn.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("bad.pgn"), r.err());
        Path other = tmp.resolve("other.pgn");
        Files.writeString(other, Pgn.format(randomGame("minishogi", 6, 10, "1-0")));
        r = Cli.process("nnue", "label", "-v", "chess", "--records", other.toString(), "--out",
                tmp.resolve("o").toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("game 1 is minishogi, not chess"), r.err());
    }
}
