package koma.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seeded random walks shared by the invariant and notation tests: the positions met along a few games of random
 * legal moves, as copies that keep the incrementally updated key. Half of the moves are picked among captures,
 * promotions, drops and castling so that hands, promoted pieces and special moves turn up quickly.
 */
final class RandomWalks {
    static final long SEED = 0x6b6f6d61L; // "koma"
    /** Walks per rule set and their length; raise with -Dkoma.walks=40 -Dkoma.plies=150 for a deeper hunt. */
    static final int WALKS = Integer.getInteger("koma.walks", 4);
    static final int PLIES = Integer.getInteger("koma.plies", 70);

    /**
     * Extra start positions: with pieces in hand for the drop games (SFEN for shogi, FEN for Wa), and chess
     * positions with castling, promotions and en passant for both colours (kiwipete, CPW promotions, e.p.).
     */
    static final Map<String, List<String>> EXTRA_STARTS = Map.of(
            "chess", List.of(
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                    "rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR b KQkq f3 0 3"),
            "shogi", List.of(
                    "4k4/9/9/9/9/9/9/9/4K4 b LNPlnp 1",
                    "4k4/9/4p4/9/4+P4/9/PPPP1PPP1/9/4K4 b Pp 1",
                    "lnsgkgsnl/1r7/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 1"),
            "washogi-drops", List.of(
                    "5k5/11/11/11/11/11/11/11/11/11/5K5[PPOHpplx] w - - 0 1",
                    "hmlcvkwgudo/5s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S5/ODUGWKVCLMH[Ee] w - - 0 1"));

    private static final Map<String, List<Position>> CACHE = new ConcurrentHashMap<>();

    private RandomWalks() {
    }

    /** The rule-set ids, for the parameterised tests over the walks ({@code @MethodSource("koma.rules.RandomWalks#ids")}). */
    static List<String> ids() {
        return RuleSet.IDS;
    }

    /** Every position of {@link #WALKS} walks from the start plus one walk from each extra start (cached). */
    static List<Position> positions(String id) {
        return CACHE.computeIfAbsent(id, k -> {
            RuleSet rs = RuleSet.of(k);
            Random rnd = new Random(SEED ^ k.hashCode());
            List<Position> out = new ArrayList<>();
            for (int w = 0; w < WALKS; w++) {
                walk(Position.start(rs), rnd, PLIES, out);
            }
            for (String fen : EXTRA_STARTS.getOrDefault(k, List.of())) {
                walk(Position.fromFen(rs, fen), rnd, PLIES / 2, out);
            }
            return List.copyOf(out);
        });
    }

    /** Plays up to {@code plies} random legal moves, adding a copy of every position met (the first included). */
    static void walk(Position p, Random rnd, int plies, List<Position> out) {
        for (int ply = 0; ; ply++) {
            out.add(p.copy());
            int[] moves = p.legalMoves();
            if (ply == plies || moves.length == 0) {
                return;
            }
            p.doMove(pick(p, moves, rnd));
        }
    }

    static int pick(Position p, int[] moves, Random rnd) {
        if (rnd.nextBoolean()) {
            List<Integer> special = new ArrayList<>();
            for (int m : moves) {
                if (Move.kind(m) != Move.NORMAL || !p.isEmpty(Move.to(m))) {
                    special.add(m);
                }
            }
            if (!special.isEmpty()) {
                return special.get(rnd.nextInt(special.size()));
            }
        }
        return moves[rnd.nextInt(moves.length)];
    }
}
