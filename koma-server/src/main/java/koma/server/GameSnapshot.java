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
 * its creation time), a view of the same log, for the game records' move times. {@code accounts} holds the
 * account seated on each side (null for a guest or the computer); {@code rated} says whether the game's result
 * moves their ratings.
 */
record GameSnapshot(String id, RuleSet rules, LiveGame.Mode mode, String status, String initialFen, Position start,
                    List<String> players, List<String> tokens, Clock clock, Position current, List<String> legalMoves,
                    List<Map<String, Object>> history, List<Long> playedAt, int drawOffer, Integer winner,
                    String termination, int version, long createdAt, long updatedAt, List<PlayerAccount> accounts,
                    boolean rated) {

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
