package koma.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * The analysis board's positions (the page {@code /analysis}): any start position and moves played freely for
 * both sides, answered as the game page's JSON shapes (board, hands, legal moves, the move list with readable
 * texts) without a game being created or stored. Every end rule of the rule set applies, as in a game.
 */
final class AnalysisBoard {
    /** Moves an analysis line may have at most (a longer list is refused). */
    static final int MAX_MOVES = 1000;

    private AnalysisBoard() {
    }

    /**
     * The legal move a typed text names in {@code p}: a move string (UCI/USI style), or the rule set's readable
     * notations (SAN; Western or Japanese shogi notation), tried in that order; {@code {"move", "text"}} with the
     * move string and its readable text. A text that names no legal move is refused with the first reader's reason.
     */
    static Map<String, Object> parseTyped(Position p, String text) {
        String t = text.strip();
        java.util.List<String> reasons = new ArrayList<>();
        int m = Move.NONE;
        try {
            m = MoveNotation.parseUci(p, t);
        } catch (IllegalArgumentException e) {
            reasons.add(e.getMessage());
        }
        if (m == Move.NONE && "usi".equals(p.ruleSet().conventions.moveStyle())) {
            try {
                m = MoveNotation.parseUsi(p, t);
            } catch (IllegalArgumentException e) {
                reasons.add(e.getMessage());
            }
        }
        var conventions = p.ruleSet().conventions;
        if (m == Move.NONE && conventions.has("san")) {
            try {
                m = koma.rules.notation.San.parse(p, t);
            } catch (IllegalArgumentException e) {
                reasons.add(e.getMessage());
            }
        }
        if (m == Move.NONE && conventions.has("western")) {
            try {
                m = koma.rules.notation.ShogiNotation.parseWestern(p, t);
            } catch (IllegalArgumentException e) {
                reasons.add(e.getMessage());
            }
        }
        if (m == Move.NONE && koma.rules.notation.ShogiNotation.hasJapanese(p.ruleSet())) {
            try {
                m = koma.rules.notation.ShogiNotation.parseJapanese(p, t, -1);
            } catch (IllegalArgumentException e) {
                reasons.add(e.getMessage());
            }
        }
        if (m == Move.NONE || !p.isLegal(m)) {
            throw GameError.invalid("text: no legal move is named by '" + (t.length() > 20 ? t.substring(0, 20) + "..." : t)
                    + "'" + (reasons.isEmpty() ? "" : " (" + reasons.get(reasons.size() - 1) + ")"))
                            .coded("noSuchMove");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("move", MoveNotation.formatUci(p, m));
        out.put("text", GameView.readable(p, new int[]{m}).get(0));
        return out;
    }

    /**
     * The position after {@code moves} from {@code start}: {@code initialFen, fen, ply, sideToMove, board, hands,
     * check, lastMove, legalMoves, moves (entries as in a game), result}. A move that is malformed or not legal there
     * is refused naming its index.
     */
    static Map<String, Object> position(Position start, List<String> moves) {
        if (moves.size() > MAX_MOVES) {
            throw GameError.invalid("moves: " + MAX_MOVES + " at most, got " + moves.size());
        }
        Game game = new Game(start, Game.Options.DEFAULT);
        List<Map<String, Object>> entries = new ArrayList<>();
        int previousTo = -1;
        for (int i = 0; i < moves.size(); i++) {
            if (game.isOver()) {
                throw GameError.invalid("moves[" + i + "]: the game is over after move " + i).coded("lineOver");
            }
            Position before = game.position();
            String text = moves.get(i);
            int m;
            try {
                m = MoveNotation.parseUci(before, text);
            } catch (IllegalArgumentException e) {
                throw GameError.invalid("moves[" + i + "]: " + e.getMessage());
            }
            if (m == Move.NONE || !before.isLegal(m)) {
                throw GameError.invalid("moves[" + i + "]: '" + text + "' is not a legal move there")
                        .coded("illegalMove", "move", text);
            }
            Map<String, Object> e = LiveGame.moveEntry(before, m, MoveNotation.formatUci(before, m), previousTo);
            game.play(m);
            e.put("fen", Fen.format(game.position()));
            entries.add(e);
            previousTo = Move.to(m);
        }
        Position p = game.position();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("variant", start.ruleSet().id);
        out.put("initialFen", Fen.format(start));
        out.put("fen", Fen.format(p));
        out.put("ply", entries.size());
        out.put("sideToMove", LiveGame.side(p.sideToMove()));
        out.put("board", GameView.board(p));
        out.put("hands", GameView.hands(p));
        out.put("check", p.inCheck());
        out.put("lastMove", entries.isEmpty() ? null : entries.get(entries.size() - 1).get("move"));
        out.put("legalMoves", game.isOver() ? List.of() : LiveGame.legalOf(p));
        out.put("moves", entries);
        out.put("result", game.result().map(r -> GameView.result(r.winner(),
                r.termination().name().toLowerCase().replace('_', ' '))).orElse(null));
        return out;
    }
}
