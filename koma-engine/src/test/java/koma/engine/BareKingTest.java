package koma.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import koma.rules.Outcome;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in evaluations mate a bare king in self-play (the term mop-up-bare's tests). Chess with its built-in
 * evaluation (the net and the term chess.eval adds to it, net mop-up-bare) mates a bare king with a rook or a queen at
 * 2000 nodes a move, the self-play data's setting, playing both sides within the fifty-move rule's 100 plies. The
 * positions are from kxk.fens (bench/results/2026-12-06-stop67.txt section 6; its archive has the file), ones the net
 * alone did not win against Stockfish at 2000 nodes a move.
 */
class BareKingTest {
    static final long NODES = 2000;

    @ParameterizedTest
    @ValueSource(strings = {
            "8/5K2/8/8/8/8/r7/7k b - - 0 1",
            "2R5/8/3k4/8/8/K7/8/8 w - - 0 1",
            "8/8/1R6/8/8/6K1/4k3/8 w - - 0 1",
            "8/7k/8/3K4/5r2/8/8/8 b - - 0 1",
            "8/8/8/8/2k5/6q1/8/5K2 b - - 0 1",
            "6k1/8/8/7Q/8/8/4K3/8 w - - 0 1"})
    void matesTheBareKing(String fen) {
        assertMates("chess", fen, NODES, 100);
    }

    /**
     * Wa shogi with its built-in evaluation (the net, net mop-up and net mop-up-bare) mates a bare king with pieces
     * that cannot step back freely: a lone W (WfF), and seven pieces led by three sparrows (fW), an L (fWbF), an M
     * (vWfF), an H (fRbR2) and a promoted V (FfsW). Positions from self-play games out of bench/washogi-convert.txt
     * (bench/results/2026-12-06-stop69.txt sections 2 and 3): at 20,000 nodes a move net wa-r6l mates them at plies
     * 80 and 46 with mop-up-bare at 100, and not within 150 plies without it.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "11/11/11/11/11/11/1K9/7k3/11/1W9/11 b - - 0 156",
            "11/2l8/1pp8/3p1K5/11/10k/11/11/5m5/h7+v2/11 w - - 0 157"})
    void matesTheBareKingInWaShogi(String fen) {
        assertMates("washogi", fen, 20_000, 150);
    }

    /** Self-play at {@code nodes} a move from {@code fen}: the side with more pieces wins within {@code plies}. */
    private static void assertMates(String id, String fen, long nodes, int plies) {
        RuleSet rs = RuleSet.of(id);
        Position p = Position.fromFen(rs, fen);
        int strong = p.pieceCount(0) > p.pieceCount(1) ? 0 : 1;
        Search[] side = {new Search(rs, new TranspositionTable(16)), new Search(rs, new TranspositionTable(16))};
        for (int ply = 0; ply < plies && p.hasLegalMove(); ply++) {
            Search mover = side[p.sideToMove()];
            mover.resetStop();
            Search.Result r = mover.search(p.copyWithHistory(), Limits.nodes(nodes), new TimeManager(0), null);
            p.doMove(r.bestMove());
        }
        boolean won = !p.hasLegalMove() && p.sideToMove() != strong
                && (p.inCheck() || rs.endRules.stalemate() == Outcome.LOSS);
        assertTrue(won, id + " " + fen + ": not mated within " + plies + " plies, at " + Fen.format(p));
    }
}
