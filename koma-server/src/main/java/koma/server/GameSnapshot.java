package koma.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/**
 * A live game's state after one change, immutable: what the database stores, what the JSON view shows and what a
 * feed sends on connect. Taken by {@link LiveGame} under its lock at no cost proportional to the game's length
 * ({@code history} is a view of an append-only log; {@code current} and {@code clock} are never changed after).
 * {@code playedAt} holds the epoch ms of each move ({@code moves.played_at}; the moves a game was created with have
 * its creation time), a view of the same log, for the game records' move times. {@code actions} holds the state of
 * the in-game actions (takeback and rematch offers, the chat rooms' last messages). {@code accounts} holds the
 * account seated on each side (null for a guest or the computer); {@code rated} says whether the game's result
 * moves their ratings.
 */
record GameSnapshot(String id, RuleSet rules, LiveGame.Mode mode, String status, String initialFen, Position start,
                    List<String> players, List<String> tokens, Clock clock, Position current, List<String> legalMoves,
                    List<Map<String, Object>> history, List<Long> playedAt, int drawOffer, Integer winner,
                    String termination, int version, long createdAt, long updatedAt, Actions actions,
                    List<PlayerAccount> accounts, boolean rated, boolean drawClaimable) {

    /**
     * The in-game actions' state, immutable: the standing takeback request (-1 or the asking side), each side's
     * refused takeback requests, the rematch offer (-1, the offering side, or {@link #REMATCH_DECLINED}), the
     * rematch game's id once agreed, and the last messages of the players' and the spectators' chat rooms.
     */
    record Actions(int takebackOffer, int refusedFirst, int refusedSecond, int rematchOffer, String rematchId,
                   List<Map<String, Object>> playersChat, List<Map<String, Object>> spectatorsChat) {
        /** {@link #rematchOffer} once an offer was declined: no more offers in this game. */
        static final int REMATCH_DECLINED = 2;
        static final Actions NONE = new Actions(-1, 0, 0, -1, null, List.of(), List.of());

        /** The rematch object of the game JSON: {offer, declined, gameId}. */
        Map<String, Object> rematchView() {
            Map<String, Object> r = new java.util.LinkedHashMap<>();
            r.put("offer", rematchOffer == REMATCH_DECLINED ? null : LiveGame.side(rematchOffer));
            r.put("declined", rematchOffer == REMATCH_DECLINED);
            r.put("gameId", rematchId);
            return r;
        }
    }

    int ply() {
        return history.size();
    }

    boolean finished() {
        return termination != null;
    }

    boolean active() {
        return "active".equals(status);
    }

    /** The moves as UCI strings (RULES.md 9.3). */
    List<String> moves() {
        List<String> out = new ArrayList<>(history.size());
        for (Map<String, Object> e : history) {
            out.add((String) e.get("move"));
        }
        return out;
    }

    /** The position after the first {@code ply} moves (a new object). */
    Position positionAt(int ply) {
        Position p = start.copy();
        for (int i = 0; i < ply; i++) {
            p.doMove(MoveNotation.parseUci(p, (String) history.get(i).get("move")));
        }
        return p;
    }
}
