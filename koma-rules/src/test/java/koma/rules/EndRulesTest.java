package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import koma.rules.Game.Result;
import koma.rules.Game.Termination;
import koma.rules.notation.MoveNotation;
import org.junit.jupiter.api.Test;

/** One test per end-of-game rule of RULES.md, on positions built for it. */
class EndRulesTest {
    static Game game(String variant, String fen) {
        RuleSet rs = RuleSet.of(variant);
        return new Game(fen == null ? Position.start(rs) : Position.fromFen(rs, fen), Game.Options.DEFAULT);
    }

    static Game play(Game g, String moves) {
        MoveNotation.Style style = g.ruleSet().id.equals("shogi") ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
        for (String m : moves.trim().split("\\s+")) {
            g.play(m, style);
        }
        return g;
    }

    static void assertResult(Game g, int winner, Termination why) {
        assertTrue(g.result().isPresent(), "expected the game to be over");
        assertEquals(new Result(winner, why), g.result().get());
    }

    static void assertGoesOn(Game g) {
        assertFalse(g.isOver(), () -> "expected the game to go on, got " + g.result().get());
    }

    // ---------------------------------------------------------------- chess

    @Test
    void chessCheckmateWins() {
        assertResult(play(game("chess", null), "f2f3 e7e5 g2g4 d8h4"), 1, Termination.CHECKMATE);
    }

    @Test
    void chessStalemateDraws() {
        assertResult(play(game("chess", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f7"), Result.DRAW, Termination.STALEMATE);
    }

    @Test
    void chessThreefoldIsClaimedNotAutomatic() {
        Game g = play(game("chess", null), "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assertEquals(3, g.occurrences());
        assertGoesOn(g);
        assertTrue(g.canClaimDraw());
        assertEquals(new Result(Result.DRAW, Termination.REPETITION), g.claimDraw());
    }

    @Test
    void chessFivefoldIsAutomatic() {
        Game g = play(game("chess", null), "g1f3 g8f6 f3g1 f6g8 ".repeat(3) + "g1f3 g8f6 f3g1");
        assertGoesOn(g);
        play(g, "f6g8");
        assertEquals(5, g.occurrences());
        assertResult(g, Result.DRAW, Termination.REPETITION);
    }

    @Test
    void chessEngineModeMakesThreefoldAutomatic() {
        RuleSet rs = RuleSet.of("chess");
        Game g = new Game(Position.start(rs), new Game.Options(true, false));
        play(g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assertResult(g, Result.DRAW, Termination.REPETITION);
    }

    @Test
    void chessFiftyMovesIsClaimed() {
        Game g = game("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assertFalse(g.canClaimDraw());
        play(g, "a1a2");
        assertGoesOn(g);
        assertTrue(g.canClaimDraw());
        assertEquals(new Result(Result.DRAW, Termination.FIFTY_MOVES), g.claimDraw());
    }

    @Test
    void chessSeventyFiveMovesIsAutomatic() {
        assertResult(play(game("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 149 80"), "a1a2"), Result.DRAW,
                Termination.SEVENTY_FIVE_MOVES);
    }

    @Test
    void chessMateOnTheSeventyFifthMoveStillWins() {
        assertResult(play(game("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 80"), "a1a8"), 0, Termination.CHECKMATE);
    }

    @Test
    void chessBareKingsAreDead() {
        assertResult(play(game("chess", "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1"), "e1e2"), Result.DRAW,
                Termination.INSUFFICIENT_MATERIAL);
    }

    @Test
    void chessMinorPieceAloneIsDead() {
        assertResult(game("chess", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        assertResult(game("chess", "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
    }

    @Test
    void chessBishopsOnOneShadeAreDeadButNotOnBoth() {
        assertResult(game("chess", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        assertGoesOn(game("chess", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));
        assertGoesOn(game("chess", "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"));
    }

    @Test
    void resignationAndAgreement() {
        Game g = game("chess", null);
        assertEquals(new Result(0, Termination.RESIGNATION), g.resign(1));
        assertThrows(IllegalStateException.class, () -> g.play("e2e4", MoveNotation.Style.UCI));
        assertEquals(new Result(Result.DRAW, Termination.AGREEMENT), game("shogi", null).agreeDraw());
    }

    @Test
    void illegalMoveIsRefusedAndChangesNothing() {
        Game g = game("chess", null);
        assertThrows(IllegalArgumentException.class, () -> g.play("e2e5", MoveNotation.Style.UCI));
        assertEquals(0, g.moves().size());
        assertEquals(RuleSet.of("chess").startFen, g.position().toString());
    }

    // ---------------------------------------------------------------- shogi

    @Test
    void shogiCheckmateByDroppedGoldWins() {
        assertResult(play(game("shogi", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), "G*5b"), 0, Termination.CHECKMATE);
    }

    @Test
    void shogiNoLegalMoveLoses() {
        assertResult(play(game("shogi", "8k/6G2/9/9/9/9/9/9/4K4 b G 1"), "G*2c"), 0, Termination.NO_LEGAL_MOVE);
    }

    @Test
    void shogiFourfoldRepetitionDraws() {
        Game g = play(game("shogi", null), "2h3h 8b7b 3h2h 7b8b ".repeat(2) + "2h3h 8b7b 3h2h");
        assertGoesOn(g);
        play(g, "7b8b");
        assertEquals(4, g.occurrences());
        assertResult(g, Result.DRAW, Termination.REPETITION);
    }

    @Test
    void shogiPerpetualCheckLoses() {
        Game g = play(game("shogi", "4k4/9/9/9/9/9/9/9/R3K4 b - 1"), "9i9a 5a5b 9a9b 5b5a " + "9b9a 5a5b 9a9b 5b5a ".repeat(2));
        assertGoesOn(g);
        play(g, "9b9a");
        assertResult(g, 1, Termination.PERPETUAL_CHECK);
    }

    @Test
    void shogiImpasseCountBelow24Loses() {
        Game g = game("shogi", "4K4/9/9/9/9/9/9/9/4k4 b RB10Prb4g4s4n4l8p 1");
        assertTrue(g.bothKingsInZone());
        assertEquals(20, g.impassePoints(0, false));
        assertEquals(34, g.impassePoints(1, false));
        assertEquals(new Result(1, Termination.IMPASSE), g.impasse());
    }

    @Test
    void shogiImpasseCountDrawsAt24OrMore() {
        Game g = game("shogi", "4K4/9/9/9/9/9/9/9/4k4 b RB4G4S9Prb4n4l9p 1");
        assertEquals(27, g.impassePoints(0, false));
        assertEquals(new Result(Result.DRAW, Termination.IMPASSE), g.impasse());
    }

    @Test
    void shogiImpasseNeedsBothKingsInZone() {
        assertThrows(IllegalStateException.class, () -> game("shogi", null).impasse());
    }

    @Test
    void shogiPromotedPiecesCountAtBaseValue() {
        Game g = game("shogi", "4K4/+R8/9/9/9/9/9/9/4k4 b +B 1".replace("+B", "B"));
        assertEquals(10, g.impassePoints(0, false));
    }

    @Test
    void shogiDeclarationWinsWith28PointsAndLosesBelow() {
        String zone = "9/RB2K4/PPPPPPPPP/9/9/9/9/9/4k4 b ";
        RuleSet rs = RuleSet.of("shogi");
        Game win = new Game(Position.fromFen(rs, zone + "4G4SNrb3n4l9p 1"), new Game.Options(false, true));
        assertEquals(28, win.impassePoints(0, true));
        assertEquals(new Result(0, Termination.DECLARATION), win.declare());
        Game lose = new Game(Position.fromFen(rs, zone + "4G4Srb4n4l9p 1"), new Game.Options(false, true));
        assertEquals(new Result(1, Termination.DECLARATION), lose.declare());
        assertThrows(IllegalStateException.class, () -> game("shogi", zone + "4G4SNrb3n4l9p 1").declare(),
                "the declaration is off by default");
    }

    // ---------------------------------------------------------------- Wa shogi

    @Test
    void washogiFourfoldRepetitionDraws() {
        Game g = play(game("washogi", null), "k1k2 a11a10 k2k1 a10a11 ".repeat(2) + "k1k2 a11a10 k2k1");
        assertGoesOn(g);
        play(g, "a10a11");
        assertResult(g, Result.DRAW, Termination.REPETITION);
    }

    @Test
    void washogiBareKingsDrawButNotWithDrops() {
        String fen = "5k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1";
        assertResult(game("washogi", fen), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        assertGoesOn(game("washogi-drops", fen));
    }

    @Test
    void washogiNoLegalMoveLosesEvenWithoutCheck() {
        // the crane king on a11 is boxed in by two golden birds (promoted sparrows) that do not attack a11
        Game g = game("washogi", "k10/2+P8/1+P9/11/11/11/11/11/11/11/5K5 b - - 0 1");
        assertFalse(g.position().inCheck());
        assertResult(g, 0, Termination.NO_LEGAL_MOVE);
    }

    @Test
    void washogiDropsPerpetualCheckLoses() {
        Game g = play(game("washogi-drops", "5k5/S10/11/11/11/11/11/11/11/11/5K5 w - - 0 1"),
                "a10a11 f11f10 a11a10 f10f11 ".repeat(2) + "a10a11 f11f10 a11a10");
        assertGoesOn(g);
        play(g, "f10f11"); // the start position for the 4th time, every first-player move a check
        assertResult(g, 1, Termination.PERPETUAL_CHECK);
    }

    // ---------------------------------------------------------------- Shodo

    @Test
    void shodoCheckmateWins() {
        assertResult(play(game("shodo", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"), "b1b8"), 0, Termination.CHECKMATE);
    }

    @Test
    void shodoStalemateDraws() {
        assertResult(play(game("shodo", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f7"), Result.DRAW, Termination.STALEMATE);
    }

    @Test
    void shodoMaterialList() {
        assertResult(game("shodo", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        assertResult(game("shodo", "4k3/8/8/8/8/8/8/3NK3 b - - 0 1"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        assertGoesOn(game("shodo", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"));
        assertGoesOn(game("shodo", "4k3/8/8/8/8/8/8/2NNK3 b - - 0 1"));
    }

    @Test
    void shodoKnightsOnSameShadeDrawLiterally() {
        Game g = game("shodo", "4k3/8/8/3n4/8/8/3N4/4K3 w - - 0 1");
        assertGoesOn(g);
        assertResult(play(g, "d2f3"), Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
    }

    @Test
    void shodoThreefoldRepetitionIsAutomatic() {
        Game g = play(game("shodo", null), "b1a3 b8a6 a3b1 a6b8 b1a3 b8a6 a3b1");
        assertGoesOn(g);
        assertResult(play(g, "a6b8"), Result.DRAW, Termination.REPETITION);
    }

    // ---------------------------------------------------------------- deathmatch

    @Test
    void deathmatchExtinctionWins() {
        assertResult(play(game("shodo-deathmatch", "8/8/8/8/8/8/2n5/N7 w - - 0 1"), "a1c2"), 0, Termination.EXTINCTION);
    }

    @Test
    void deathmatchKnightAgainstKnightPlaysOn() {
        assertGoesOn(game("shodo-deathmatch", "8/8/8/3n4/8/8/8/N7 w - - 0 1"));
    }

    @Test
    void deathmatchThreefoldRepetitionIsAutomatic() {
        Game g = play(game("shodo-deathmatch", null), "b1a3 b8a6 a3b1 a6b8 b1a3 b8a6 a3b1");
        assertGoesOn(g);
        assertResult(play(g, "a6b8"), Result.DRAW, Termination.REPETITION);
    }

    @Test
    void flagFallWinsUnlessTheWinnerCannotMate() {
        // the first player's flag falls: the second player, with a rook, wins
        assertEquals(new Result(1, Termination.TIME_FORFEIT), game("chess", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1").flag(0));
        // a lone king cannot mate: draw (FIDE 6.9)
        assertEquals(new Result(Result.DRAW, Termination.TIME_FORFEIT), game("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").flag(0));
        // in shogi even a bare king may capture and drop pieces: the flag loses
        assertEquals(new Result(0, Termination.TIME_FORFEIT), game("shogi", "4k4/9/9/9/9/9/9/9/4K4 w G 1").flag(1));
    }
}
