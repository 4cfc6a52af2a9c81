package koma.protocol.match;

import java.util.List;

import koma.rules.Position;
import koma.rules.notation.MoveNotation;

/**
 * Everything an engine needs to choose a move: the game's root position (and whether it is the rule set's start
 * position, so UCI/USI can say {@code startpos}), the moves since the root in both coordinate styles, the side to
 * move, the time control and both players' remaining main time. A stateful protocol (XBoard) can send just the
 * moves it has not sent yet.
 */
public record ThinkRequest(Position root, boolean fromStart, List<String> uciMoves, List<String> usiMoves, int side,
                           TimeControl timeControl, long[] timeLeftMs) {
    public List<String> moves(MoveNotation.Style style) {
        return style == MoveNotation.Style.USI ? usiMoves : uciMoves;
    }
}
