package koma.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import koma.rules.notation.MoveNotation;

/**
 * A game: a start position, the moves played, and every end-of-game rule of the rule set (RULES.md 1.7, 2.7,
 * 3.6, 5.7, 6.6). After each move the automatic rules are applied in the rule book's order; claims,
 * resignation, agreement and the impasse rules are explicit calls. A finished game accepts no more moves.
 */
public final class Game {
    /** Why a game ended. */
    public enum Termination {
        CHECKMATE, STALEMATE, NO_LEGAL_MOVE, REPETITION, PERPETUAL_CHECK, FIFTY_MOVES, SEVENTY_FIVE_MOVES,
        INSUFFICIENT_MATERIAL, EXTINCTION, IMPASSE, DECLARATION, RESIGNATION, AGREEMENT, TIME_FORFEIT
    }

    /**
     * The outcome: {@code winner} is 0 (first player), 1 (second player) or {@link #DRAW}, and why.
     */
    public record Result(int winner, Termination termination) {
        public static final int DRAW = -1;

        public boolean isDraw() {
            return winner == DRAW;
        }

        /** "1-0", "0-1" or "1/2-1/2" from the first player's point of view, as PGN writes it. */
        public String score() {
            return winner == 0 ? "1-0" : winner == 1 ? "0-1" : "1/2-1/2";
        }

        @Override
        public String toString() {
            return score() + " (" + termination.name().toLowerCase().replace('_', ' ') + ")";
        }
    }

    /**
     * Options of a game. {@code engineMode}: chess threefold repetition and the 50-move rule end the game
     * automatically (RULES.md 1.7). {@code declaration27}: the optional 27-point declaration of shogi.
     */
    public record Options(boolean engineMode, boolean declaration27) {
        public static final Options DEFAULT = new Options(false, false);
    }

    private final RuleSet rs;
    private final Position pos;
    private final Options options;
    private final String startFen;
    private final List<Integer> moves = new ArrayList<>();
    /** Repetition keys of every position so far, the start position first. */
    private final List<Long> keys = new ArrayList<>();
    /** How often each repetition key occurred so far: {@link #occurrences} in constant time. */
    private final java.util.HashMap<Long, Integer> counts = new java.util.HashMap<>();
    /** Whether the side to move was in check in each position so far. */
    private final List<Boolean> inCheck = new ArrayList<>();
    private Result result;

    public Game(RuleSet rs) {
        this(Position.start(rs), Options.DEFAULT);
    }

    /** A game from the given position (copied), with options. */
    public Game(Position start, Options options) {
        this.rs = start.ruleSet();
        this.pos = start.copy();
        this.options = options;
        this.startFen = start.toString();
        addKey(pos.repetitionKey());
        inCheck.add(pos.inCheck());
        result = automaticResult();
    }

    private void addKey(long k) {
        keys.add(k);
        counts.merge(k, 1, Integer::sum);
    }

    public RuleSet ruleSet() {
        return rs;
    }

    /** A copy of the current position. */
    public Position position() {
        return pos.copy();
    }

    public String startFen() {
        return startFen;
    }

    public List<Integer> moves() {
        return List.copyOf(moves);
    }

    public Optional<Result> result() {
        return Optional.ofNullable(result);
    }

    public boolean isOver() {
        return result != null;
    }

    /** Plays a move given in engine notation; throws IllegalArgumentException (NotationException) when bad. */
    public void play(String move, MoveNotation.Style style) {
        requireNotOver();
        play(MoveNotation.parse(pos, move, style));
    }

    /** Plays a legal move and applies the automatic end rules. */
    public void play(int move) {
        requireNotOver();
        if (!pos.isLegal(move)) {
            throw new IllegalArgumentException("illegal move in " + pos);
        }
        pos.doMove(move);
        moves.add(move);
        addKey(pos.repetitionKey());
        inCheck.add(pos.inCheck());
        result = automaticResult();
    }

    /**
     * Takes back the last move (a takeback in a live game): the position, the repetition counts and the check
     * history go back to what they were before it, and the game is not over any more (the position before a move
     * was never a finished one). Throws when no move was played.
     */
    public void undo() {
        if (moves.isEmpty()) {
            throw new IllegalStateException("no move to take back");
        }
        pos.undoMove();
        moves.remove(moves.size() - 1);
        long k = keys.remove(keys.size() - 1);
        counts.merge(k, -1, (a, b) -> a + b == 0 ? null : a + b);
        inCheck.remove(inCheck.size() - 1);
        result = null;
    }

    private void requireNotOver() {
        if (result != null) {
            throw new IllegalStateException("the game is over: " + result);
        }
    }

    /** How many times the current position has occurred, this time included. */
    public int occurrences() {
        return counts.get(keys.get(keys.size() - 1));
    }

    /** The rules that end the game by themselves, in the rule book's order of precedence. */
    private Result automaticResult() {
        RuleSet.EndRules end = rs.endRules;
        int stm = pos.sideToMove();
        if (end.extinction() && pos.pieceCount(stm) == 0) {
            return new Result(stm ^ 1, Termination.EXTINCTION);
        }
        if (!pos.hasLegalMove()) {
            boolean check = pos.inCheck();
            if (check) {
                return new Result(stm ^ 1, Termination.CHECKMATE);
            }
            return end.stalemate() == Outcome.LOSS ? new Result(stm ^ 1, Termination.NO_LEGAL_MOVE)
                    : new Result(Result.DRAW, Termination.STALEMATE);
        }
        RuleSet.MoveRule mr = end.moveRule();
        if (mr.autoPlies() > 0 && pos.halfmoveClock() >= mr.autoPlies()) {
            return new Result(Result.DRAW, Termination.SEVENTY_FIVE_MOVES);
        }
        RuleSet.Repetition rep = end.repetition();
        int occ = occurrences();
        if (rep.autoAt() > 0 && occ >= rep.autoAt()) {
            if (rep.perpetualCheckLoses()) {
                int checker = perpetualChecker();
                if (checker >= 0) {
                    return new Result(checker ^ 1, Termination.PERPETUAL_CHECK);
                }
            }
            return new Result(Result.DRAW, Termination.REPETITION);
        }
        if (Material.insufficient(pos, end.material())) {
            return new Result(Result.DRAW, Termination.INSUFFICIENT_MATERIAL);
        }
        if (options.engineMode()) {
            if (rep.claimAt() > 0 && occ >= rep.claimAt()) {
                return new Result(Result.DRAW, Termination.REPETITION);
            }
            if (mr.claimPlies() > 0 && pos.halfmoveClock() >= mr.claimPlies()) {
                return new Result(Result.DRAW, Termination.FIFTY_MOVES);
            }
        }
        return null;
    }

    /**
     * The player who gave check with every one of their moves from the first occurrence of the current position
     * to now, or -1. A move "gave check" when the position after it has the opponent in check.
     */
    private int perpetualChecker() {
        int last = keys.size() - 1;
        long k = keys.get(last);
        int first = keys.indexOf(k);
        boolean[] allChecks = {true, true};
        boolean[] moved = {false, false};
        int sideAtLast = pos.sideToMove();
        for (int i = first + 1; i <= last; i++) {
            // position i was reached by a move of the side not to move in position i
            int sideToMoveAtI = (sideAtLast + (last - i)) & 1;
            int mover = sideToMoveAtI ^ 1;
            moved[mover] = true;
            if (!inCheck.get(i)) {
                allChecks[mover] = false;
            }
        }
        boolean first0 = moved[0] && allChecks[0], first1 = moved[1] && allChecks[1];
        if (first0 == first1) {
            return -1;
        }
        return first0 ? 0 : 1;
    }

    /** True when the player to move may claim a draw now (chess threefold repetition or the 50-move rule). */
    public boolean canClaimDraw() {
        if (result != null) {
            return false;
        }
        RuleSet.EndRules end = rs.endRules;
        return (end.repetition().claimAt() > 0 && occurrences() >= end.repetition().claimAt())
                || (end.moveRule().claimPlies() > 0 && pos.halfmoveClock() >= end.moveRule().claimPlies());
    }

    /** Claims a draw by threefold repetition or the 50-move rule; throws when no claim is valid. */
    public Result claimDraw() {
        requireNotOver();
        RuleSet.EndRules end = rs.endRules;
        if (end.repetition().claimAt() > 0 && occurrences() >= end.repetition().claimAt()) {
            return result = new Result(Result.DRAW, Termination.REPETITION);
        }
        if (end.moveRule().claimPlies() > 0 && pos.halfmoveClock() >= end.moveRule().claimPlies()) {
            return result = new Result(Result.DRAW, Termination.FIFTY_MOVES);
        }
        throw new IllegalStateException("no draw can be claimed: the position occurred " + occurrences()
                + " time(s) and " + pos.halfmoveClock() + " plies passed without capture or pawn move");
    }

    /** The player of {@code color} resigns. */
    public Result resign(int color) {
        requireNotOver();
        return result = new Result(color ^ 1, Termination.RESIGNATION);
    }

    /**
     * The player of {@code color} runs out of time: the opponent wins, unless the opponent could not mate by any
     * series of legal moves (FIDE 6.9; RULES.md): the position is already dead by the rule set's material list, or
     * the opponent has nothing but a royal piece and no drops to bring more.
     */
    public Result flag(int color) {
        requireNotOver();
        int winner = color ^ 1;
        boolean loneRoyal = rs.royalType >= 0 && pos.pieceCount(winner) == 1 && !rs.drops;
        boolean dead = Material.insufficient(pos, rs.endRules.material());
        return result = new Result(loneRoyal || dead ? Result.DRAW : winner, Termination.TIME_FORFEIT);
    }

    /** Both players agree to a draw. */
    public Result agreeDraw() {
        requireNotOver();
        return result = new Result(Result.DRAW, Termination.AGREEMENT);
    }

    /** Whether both royal pieces stand in their promotion zones (the precondition of the impasse rules). */
    public boolean bothKingsInZone() {
        int k0 = pos.kingSquare(0), k1 = pos.kingSquare(1);
        return k0 >= 0 && k1 >= 0 && rs.inZone(0, k0) && rs.inZone(1, k1);
    }

    /**
     * The 24-point impasse count (RULES.md 2.7.4), invoked by agreement while both kings are in their zones:
     * a player with fewer than 24 points loses, otherwise the game is drawn.
     */
    public Result impasse() {
        requireNotOver();
        if (!rs.endRules.impasse().count24()) {
            throw new IllegalStateException(rs.id + " has no impasse rule");
        }
        if (!bothKingsInZone()) {
            throw new IllegalStateException("impasse needs both kings in their promotion zones");
        }
        int p0 = impassePoints(0, false), p1 = impassePoints(1, false);
        if (p0 < 24) {
            return result = new Result(1, Termination.IMPASSE);
        }
        if (p1 < 24) {
            return result = new Result(0, Termination.IMPASSE);
        }
        return result = new Result(Result.DRAW, Termination.IMPASSE);
    }

    /**
     * Points of a player for the impasse rules: pieces in hand plus pieces on the board (only those in the
     * player's promotion zone when {@code zoneOnly}), kings excluded, promoted pieces at their base value.
     */
    public int impassePoints(int color, boolean zoneOnly) {
        int points = 0;
        for (int i = 0; i < pos.pieceCount(color); i++) {
            int sq = pos.pieceSquare(color, i);
            PieceType p = rs.piece(pos.typeAt(sq));
            if (!p.royal() && (!zoneOnly || rs.inZone(color, sq))) {
                points += p.points();
            }
        }
        for (int type : pos.handTypes()) {
            points += pos.handCount(color, type) * rs.piece(type).points();
        }
        return points;
    }

    /**
     * The optional 27-point declaration (RULES.md 2.7.5) by the player to move: wins when the king is in the
     * zone and not in check, at least 10 other pieces are in the zone, and the points reach 28 (first player)
     * or 27 (second player); otherwise the declarer loses. The time condition is the caller's (clock) concern.
     */
    public Result declare() {
        requireNotOver();
        if (!options.declaration27() || !rs.endRules.impasse().declaration27()) {
            throw new IllegalStateException("the 27-point declaration is not enabled for this game");
        }
        int us = pos.sideToMove();
        int ksq = pos.kingSquare(us);
        int inZone = 0;
        for (int i = 0; i < pos.pieceCount(us); i++) {
            int sq = pos.pieceSquare(us, i);
            if (sq != ksq && rs.inZone(us, sq)) {
                inZone++;
            }
        }
        boolean wins = rs.inZone(us, ksq) && inZone >= 10 && !pos.inCheck()
                && impassePoints(us, true) >= (us == 0 ? 28 : 27);
        return result = new Result(wins ? us : us ^ 1, Termination.DECLARATION);
    }
}
