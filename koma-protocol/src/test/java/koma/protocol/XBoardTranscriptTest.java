package koma.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        // XBoard's own names where it has them (normal, shogi, wa-shogi as HaChu and Sjaak II call it)
        assertTrue(out.contains("feature variants=\"normal,shogi,wa-shogi,wa-shogi-drop,shodo,shodo-deathmatch,"
                + "minishogi\""), out);
        assertTrue(out.endsWith("feature done=1\n"), out);
        assertTrue(out.contains("feature option=\"Use NNUE -check 1\"\nfeature option=\"EvalFile -file <built-in>\"\n"
                + "feature option=\"Contempt -spin 0 -500 500\"\n"), out);
    }

    /** The evaluation options and Contempt: accepted silently when right, an Error line naming the problem otherwise. */
    @Test
    void nnueOptions() throws Exception {
        assertEquals("", run("option Use NNUE=0", "option Use NNUE=1", "option EvalFile=<built-in>"));
        assertEquals("Error (EvalFile: no readable file /nonexistent.nnue): option\n",
                run("option EvalFile=/nonexistent.nnue"));
        assertEquals("Error (unknown option): Use NNUE=yes\n", run("option Use NNUE=yes"));
        assertEquals("", run("option Contempt=-40"));
        assertEquals("Error (Contempt: expected centipawns from -500 to 500, got '900'): option\n",
                run("option Contempt=900"));
        String out = run("option Use NNUE=0", "new", "sd 2", "usermove e2e4");
        assertTrue(out.contains("move "), out);
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

    /**
     * XBoard writes a declined promotion of the shogi family with '=' (seen from XBoard 4.9 in minishogi:
     * "usermove d2e1=" after the second player's silver reached the first player's last rank).
     */
    @Test
    void declinedPromotionWithEqualsSign() throws Exception {
        // the bishop b3 takes the gold on d5, in the promotion zone: declined (=) and taken (+) are both legal
        for (String capture : List.of("b3d5=", "b3d5+", "b3d5")) {
            String out = run("variant minishogi", "force", "usermove d1b3", "usermove e4e3", "usermove " + capture, "ping 1");
            assertFalse(out.contains("Illegal move") || out.contains("Error"), capture + ": " + out);
            assertTrue(out.endsWith("pong 1\n"), out);
        }
        assertTrue(run("variant chess", "force", "usermove e2e4=").contains("Illegal move: e2e4="), "only the shogi family");
    }

    @Test
    void unknownVariantIsRefused() throws Exception {
        assertEquals("Error (unknown variant): xiangqi\n", run("variant xiangqi"));
        String wa = run("variant wa-shogi", "force", "f3f4");
        assertTrue(wa.lines().allMatch(l -> l.startsWith("setup ") || l.startsWith("piece ")), "wa-shogi is accepted:\n" + wa);
    }

    /**
     * A variant XBoard does not know is described to it: the setup command and one piece command per piece type.
     * The Wa shogi table and start position are those HaChu 0.21 and Sjaak II 1.4.1 send (`xboard`, `protover 2`,
     * `variant wa-shogi`); the 5x5 minishogi line is Sjaak II's for `variant minishogi` but for the FEN's fields.
     */
    @Test
    void variantsXBoardDoesNotKnowAreSetUp() throws Exception {
        String wa = run("variant wa-shogi");
        assertTrue(wa.startsWith("setup (P..^S^FV..^LW^OH.F.^R.E....R...D.GOL^M..^H.M.C.^CU.^W/.......^V.^P.^U..^DS.^GXK"
                + "p..^s^fv..^lw^oh.f.^r.e....r...d.gol^m..^h.m.c.^cu.^w/.......^v.^p.^u..^ds.^gxk) 11x11+0_chu "
                + "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH w "), wa);
        assertEquals(RuleSet.of("washogi").pieceCount(), wa.lines().filter(l -> l.startsWith("piece ")).count(), wa);
        assertTrue(wa.contains("\npiece +F& BvRsW\n") && wa.contains("\npiece X& FvWAvD\n"), wa);
        assertTrue(run("variant wa-shogi-drop").contains(") 11x11+16_chu "), "16 piece types in hand");
        String mini = run("variant minishogi");
        assertTrue(mini.startsWith("setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR"), mini);
        assertEquals("", run("variant normal") + run("variant shogi"), "XBoard knows chess and shogi itself");
    }
}
