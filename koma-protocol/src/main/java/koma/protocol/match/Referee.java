package koma.protocol.match;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/**
 * Plays one game between two engines with Koma's rules core as the referee. Every move string is parsed against
 * the current position ({@link MoveNotation}); a malformed or illegal move, {@code 0000}/{@code (none)} while
 * legal moves exist, or an unfounded declaration loses ({@code illegal move}). The referee keeps the clocks with
 * wall time: a move that takes longer than the player's time (plus byoyomi, or the fixed move time) plus the margin
 * loses on time, and the wait for a move never exceeds that, so a hung engine loses instead of hanging the match.
 * Under a Fischer clock time used beyond the clock within the margin is a debt, as in cutechess-cli: the clock
 * goes below zero (the engine is told 0) and the next move's allowance shrinks by it, so the margin forgives a late
 * reply once and not on every move.
 * Every end rule comes from {@link Game} in engine mode (chess threefold repetition and the 50-move rule end the
 * game). One adjudication that is not a rule: after {@code maxPlies} plies the game is drawn; in shogi, with both
 * kings in their zones, the 24-point impasse count (RULES.md 2.7.4) decides instead.
 */
public final class Referee {
    private Referee() {
    }

    /**
     * Plays a game; {@code byColor[0]} moves first, each colour under its own time control ({@code tcByColor}: the
     * same twice, or node odds); the record's time control is the first mover's. Never throws for engine
     * misbehaviour: that is a result.
     */
    public static RefereedGame play(int round, RuleSet rs, Opening opening, EngineClient[] byColor,
                                  TimeControl[] tcByColor, long marginMs, int maxPlies) {
        ZonedDateTime started = ZonedDateTime.now();
        List<String> names = List.of(byColor[0].name(), byColor[1].name());
        Game game = new Game(opening.root(), Match.gameOptions(rs));
        Position pos = opening.root().copy();
        boolean fromStart = opening.fromStart();
        List<Integer> moves = new ArrayList<>();
        List<String> comments = new ArrayList<>(), uci = new ArrayList<>(), usi = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int m : opening.moves()) {
            uci.add(MoveNotation.format(pos, m, MoveNotation.Style.UCI));
            usi.add(MoveNotation.format(pos, m, MoveNotation.Style.USI));
            pos.doMove(m);
            game.play(m);
            moves.add(m);
            comments.add("book");
            times.add(0L);
        }
        int bookPlies = moves.size();
        long[] left = {tcByColor[0].baseMs(), tcByColor[1].baseMs()};
        GameResult result = null;
        for (int c = 0; c < 2 && result == null; c++) {
            try {
                byColor[c].newGame();
            } catch (EngineException e) {
                result = new GameResult(c ^ 1, GameResult.ENGINE_CRASH, names.get(c) + " failed to start a game: "
                        + e.getMessage());
            }
        }
        while (result == null) {
            if (game.isOver()) {
                result = fromRules(game.result().orElseThrow(), names);
                break;
            }
            if (moves.size() >= maxPlies) {
                result = adjudicate(game, rs, maxPlies, names);
                break;
            }
            int side = pos.sideToMove();
            EngineClient engine = byColor[side];
            String who = names.get(side);
            TimeControl tc = tcByColor[side];
            long allowed = switch (tc.kind()) {
                case CLOCK -> left[side] + marginMs;
                case BYOYOMI -> left[side] + tc.byoyomiMs() + marginMs;
                case MOVETIME -> tc.moveTimeMs() + marginMs;
                case DEPTH, NODES -> tc.moveTimeoutMs();
            };
            ThinkRequest request = new ThinkRequest(opening.root(), fromStart, Collections.unmodifiableList(uci),
                    Collections.unmodifiableList(usi), side, tc, told(left));
            Reply r = engine.think(request, allowed);
            if (r.kind() == Reply.Kind.CRASH) {
                result = new GameResult(side ^ 1, GameResult.ENGINE_CRASH, who + " crashed: " + r.detail());
                break;
            }
            if (r.kind() == Reply.Kind.TIMEOUT || r.elapsedMs() > allowed) {
                result = new GameResult(side ^ 1, GameResult.TIME_FORFEIT, who + " loses on time: "
                        + (r.kind() == Reply.Kind.TIMEOUT ? "no move within " + allowed + " ms"
                        : r.elapsedMs() + " ms used, " + allowed + " ms allowed"));
                break;
            }
            switch (r.kind()) {
                case RESIGN -> result = new GameResult(side ^ 1, GameResult.RESIGNATION, who + " resigns");
                case NO_MOVE -> result = new GameResult(side ^ 1, GameResult.ILLEGAL_MOVE, who + " answered 'bestmove "
                        + r.move() + "' although it has legal moves");
                case DECLARE -> {
                    if (rs.endRules.impasse().declaration27()) {
                        Game.Result res = game.declare();
                        result = new GameResult(res.winner(), GameResult.label(res.termination()),
                                who + " declares (27-point rule) and " + (res.winner() == side ? "wins" : "loses"));
                    } else {
                        result = new GameResult(side ^ 1, GameResult.ILLEGAL_MOVE, who + " declared a win, but "
                                + rs.id + " has no declaration rule");
                    }
                }
                default -> {
                    int move;
                    try {
                        move = parseMove(pos, r.move(), engine.style());
                    } catch (IllegalArgumentException e) {
                        result = new GameResult(side ^ 1, GameResult.ILLEGAL_MOVE, who + " plays an illegal move: "
                                + e.getMessage());
                        break;
                    }
                    left[side] = afterMove(tc, left[side], r.elapsedMs());
                    uci.add(MoveNotation.format(pos, move, MoveNotation.Style.UCI));
                    usi.add(MoveNotation.format(pos, move, MoveNotation.Style.USI));
                    pos.doMove(move);
                    game.play(move);
                    moves.add(move);
                    times.add(r.elapsedMs());
                    comments.add(comment(r));
                }
            }
        }
        for (int c = 0; c < 2; c++) {
            byColor[c].gameOver(result.isDraw() ? 0 : result.winner() == c ? 1 : -1);
        }
        return new RefereedGame(round, rs, names, opening.root(), fromStart, moves, comments, times, bookPlies, result,
                List.of(tcByColor), opening.source(), started);
    }

    /**
     * Parses an engine's move string. One leniency: in rule sets with chess-style promotion (a letter suffix, UCI),
     * a promotion written with {@code +} (Fairy-Stockfish's way for a Shodo defined in a VariantPath file) is read
     * as the promotion between the same squares when there is exactly one.
     */
    static int parseMove(Position pos, String text, MoveNotation.Style style) {
        try {
            return MoveNotation.parse(pos, text, style);
        } catch (IllegalArgumentException e) {
            RuleSet rs = pos.ruleSet();
            if (style == MoveNotation.Style.UCI && text != null && text.matches("[a-z]\\d{1,2}[a-z]\\d{1,2}\\+")
                    && rs.promotion.trigger() == RuleSet.PromotionTrigger.ARRIVAL) {
                String base = text.substring(0, text.length() - 1);
                int found = -1, count = 0;
                for (int m : pos.legalMoves()) {
                    String s = MoveNotation.format(pos, m, style);
                    if (Move.isPromotion(m) && s.length() == base.length() + 1 && s.startsWith(base)) {
                        found = m;
                        count++;
                    }
                }
                if (count == 1) {
                    return found;
                }
            }
            throw e;
        }
    }

    /**
     * A player's clock after a move that took {@code elapsedMs}: under a Fischer clock the time used is taken off
     * and the increment added, below zero when the move ran into the margin (a debt that the next allowance,
     * clock plus margin, carries); with byoyomi the main time runs down to zero and the period is fresh each move.
     */
    static long afterMove(TimeControl tc, long leftMs, long elapsedMs) {
        return switch (tc.kind()) {
            case CLOCK -> leftMs - elapsedMs + tc.incMs();
            case BYOYOMI -> Math.max(0, leftMs - elapsedMs);
            default -> leftMs;
        };
    }

    /** The clocks as the engines are told them: a clock in debt (below zero) reads 0. */
    static long[] told(long[] left) {
        return new long[] {Math.max(0, left[0]), Math.max(0, left[1])};
    }

    /** {@code +0.35/12 0.051s}: the last score and depth the engine reported, and its time. */
    static String comment(Reply r) {
        String time = String.format(Locale.ROOT, "%.3fs", r.elapsedMs() / 1000.0);
        return r.score() == null ? time : r.score().format() + "/" + r.depth() + " " + time;
    }

    private static GameResult fromRules(Game.Result res, List<String> names) {
        String label = GameResult.label(res.termination());
        String reason = res.isDraw() ? "draw by " + label : names.get(res.winner()) + " wins by " + label;
        return new GameResult(res.isDraw() ? GameResult.DRAW : res.winner(), label, reason);
    }

    /** The non-rule ply cap: a draw, or in shogi with both kings in their zones the 24-point impasse count. */
    private static GameResult adjudicate(Game game, RuleSet rs, int maxPlies, List<String> names) {
        if (rs.endRules.impasse().count24() && game.bothKingsInZone()) {
            Game.Result res = game.impasse();
            return new GameResult(res.isDraw() ? GameResult.DRAW : res.winner(), GameResult.ADJUDICATION,
                    "ply cap of " + maxPlies + " reached with both kings in their zones: 24-point count ("
                            + game.impassePoints(0, false) + " to " + game.impassePoints(1, false) + "), "
                            + (res.isDraw() ? "draw" : names.get(res.winner()) + " wins"));
        }
        return new GameResult(GameResult.DRAW, GameResult.ADJUDICATION, "draw: ply cap of " + maxPlies
                + " reached (adjudication, not a rule)");
    }
}
