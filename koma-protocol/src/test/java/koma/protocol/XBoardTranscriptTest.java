package koma.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.Test;

/** XBoard / CECP v2 transcripts: features, moves in every direction, errors, results, undo. */
class XBoardTranscriptTest {
    static String run(String... lines) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        new XBoardSession(out).run(new BufferedReader(new StringReader(String.join("\n", lines) + "\n")));
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void protover2AnnouncesFeaturesAndVariants() throws Exception {
        String out = run("xboard", "protover 2");
        assertTrue(out.startsWith("feature done=0\n"), out);
        assertTrue(out.contains("setboard=1") && out.contains("usermove=1") && out.contains("ping=1")
                && out.contains("san=0"), out);
        assertTrue(out.contains("feature variants=\"chess,shogi,washogi,washogi-drops,shodo,shodo-deathmatch\""), out);
        assertTrue(out.endsWith("feature done=1\n"), out);
    }

    @Test
    void engineAnswersAUserMoveWithALegalMoveInEveryRuleSet() throws Exception {
        for (String id : RuleSet.IDS) {
            Position p = Position.start(RuleSet.of(id));
            String first = MoveNotation.formatUci(p, p.legalMoves()[0]);
            String out = run("new", "variant " + id, "sd 2", "usermove " + first);
            String reply = out.lines().filter(l -> l.startsWith("move ")).findFirst().orElseThrow().substring(5);
            p.doMove(MoveNotation.parseUci(p, first));
            MoveNotation.parseUci(p, reply); // throws if the reply is not legal after the user's move
        }
    }

    @Test
    void pingIsAnsweredAndIllegalMovesAreReported() throws Exception {
        String out = run("new", "force", "usermove e2e5", "e7e5", "ping 42", "bogus");
        assertEquals(List.of("Illegal move: e2e5", "Illegal move: e7e5", "pong 42", "Error (unknown command): bogus"),
                out.lines().toList());
    }

    @Test
    void gameEndIsAnnounced() throws Exception {
        String out = run("new", "force", "f2f3", "e7e5", "g2g4", "d8h4");
        assertTrue(out.contains("0-1 {Second player mates}"), out);
        String shogi = run("new", "variant shogi", "setboard 4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1", "sd 2", "go");
        assertTrue(shogi.contains("move G@e8\n1-0 {First player mates}"), shogi);
    }

    @Test
    void undoTakesBackAndSetboardRefusesBadPositions() throws Exception {
        String out = run("new", "force", "e2e4", "e7e5", "remove", "e2e4", "e7e5", "undo", "e7e5", "undo", "undo", "e2e4",
                "setboard 8/8/8 w - - 0 1");
        assertTrue(!out.contains("Illegal move"), out);
        assertTrue(out.contains("tellusererror Illegal position: FEN field 'board'"), out);
    }

    @Test
    void unknownVariantIsRefused() throws Exception {
        assertEquals("Error (unknown variant): xiangqi\n", run("variant xiangqi"));
        assertTrue(run("variant wa-shogi", "force", "f3f4").isEmpty(), "wa-shogi is an accepted alias");
    }
}
