package koma.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.Pgn;
import koma.rules.notation.San;
import koma.rules.notation.ShogiNotation;

/**
 * One game as the server holds it in memory: the stored fields (see the {@code games} table) and a
 * {@link Game} of the rules core replayed from the moves. Every access goes through the object's monitor.
 */
final class LiveGame {
    /** The game modes of the API. */
    enum Mode { COMPUTER, FRIEND, HOTSEAT }

    final String id;
    final RuleSet rules;
    final Mode mode;
    final String initialFen;
    final Position start;
    /** "human" or "computer:LEVEL" per side. */
    final String[] players = new String[2];
    /** SHA-256 hex of each seat's token, null while free. */
    final String[] tokens = new String[2];
    final Clock clock;
    final long createdAt;
    Game game;
    /** The current position (a copy of the game's, renewed after each move): read it, never change it. */
    Position current;
    /** The moves as UCI strings (RULES.md 9.3). */
    final List<String> moves = new ArrayList<>();
    /** Per move: its notations and the position after it, as the game JSON lists them (computed once). */
    final List<Map<String, Object>> history = new ArrayList<>();
    /** The destination of the last move (for Japanese notation's 同), -1 before the first. */
    private int previousTo = -1;
    String status;
    /** -1 none, else the side that offered a draw. */
    int drawOffer = -1;
    /** Result: winner 0/1, -1 draw; termination label; null while playing. */
    Integer resultWinner;
    String resultTermination;
    /** The pending flag-fall check, if any. */
    ScheduledFuture<?> flagTimer;
    /** True while a computer move is being searched for this game. */
    boolean engineBusy;

    LiveGame(String id, RuleSet rules, Mode mode, Position start, Clock clock, long createdAt) {
        this.id = id;
        this.rules = rules;
        this.mode = mode;
        this.start = start.copy();
        this.initialFen = start.toString();
        this.clock = clock;
        this.createdAt = createdAt;
        this.game = new Game(start, Game.Options.DEFAULT);
        this.current = game.position();
    }

    int ply() {
        return moves.size();
    }

    int sideToMove() {
        return current.sideToMove();
    }

    boolean finished() {
        return resultTermination != null;
    }

    boolean active() {
        return "active".equals(status);
    }

    boolean isComputer(int side) {
        return players[side].startsWith("computer");
    }

    int computerLevel(int side) {
        return Integer.parseInt(players[side].substring(players[side].indexOf(':') + 1));
    }

    /** Plays a UCI move on the rules core's game (already validated) and records its history entry. */
    void playOnBoard(String uci) {
        Position before = current;
        int m = MoveNotation.parseUci(before, uci);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("move", uci);
        e.put("san", Pgn.usesSan(rules) ? San.format(before, m) : null);
        e.put("western", Pgn.usesSan(rules) ? null : ShogiNotation.western(before, m));
        e.put("japanese", ShogiNotation.hasJapanese(rules) ? ShogiNotation.japanese(before, m, previousTo) : null);
        game.play(m);
        current = game.position();
        e.put("fen", Fen.format(current));
        previousTo = Move.to(m);
        moves.add(uci);
        history.add(Collections.unmodifiableMap(e));
    }

    /** Takes the rules core's result, if the last move ended the game. */
    void takeAutomaticResult() {
        game.result().ifPresent(this::setResult);
    }

    void setResult(Game.Result r) {
        resultWinner = r.winner();
        resultTermination = r.termination().name().toLowerCase().replace('_', ' ');
        status = "finished";
        drawOffer = -1;
        clock.turnStartedAt = 0;
    }

    static String side(int s) {
        return s == 0 ? "first" : s == 1 ? "second" : null;
    }
}
