package koma.rules.notation;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Standard algebraic notation (SAN) for chess and Shodo, paired parse and format: {@code Nf3}, {@code exd5},
 * {@code e8=Q+}, {@code O-O-O}, {@code Nbd7}, with '#' for mate. Parsing accepts over-disambiguated moves,
 * missing or extra check marks, {@code 0-0} and a promotion without '='.
 */
public final class San {
    private static final Pattern MOVE = Pattern.compile(
            "([A-Z])?([a-p])?(\\d{1,2})?(x)?([a-p]\\d{1,2})(?:=?([A-Z]))?");

    private San() {
    }

    public static String format(Position p, int move) {
        String s = formatWithoutCheck(p, move);
        p.doMove(move);
        if (p.inCheck()) {
            s += p.hasLegalMove() ? "+" : "#";
        }
        p.undoMove();
        return s;
    }

    private static String formatWithoutCheck(Position p, int move) {
        RuleSet rs = p.ruleSet();
        Geometry g = rs.geometry;
        int to = Move.to(move);
        if (Move.isDrop(move)) {
            return rs.piece(Move.type(move)).letter() + "@" + Fen.squareName(g, to);
        }
        int from = Move.from(move);
        if (Move.kind(move) == Move.CASTLING) {
            return to > from ? "O-O" : "O-O-O";
        }
        PieceType piece = rs.piece(p.typeAt(from));
        boolean capture = !p.isEmpty(to) || Move.kind(move) == Move.EN_PASSANT;
        StringBuilder sb = new StringBuilder();
        if (piece.pawn()) {
            if (capture) {
                sb.append(Fen.fileName(g, g.file(from)));
            }
        } else {
            sb.append(piece.letter());
            boolean clash = false, sameFile = false, sameRank = false;
            for (int m : p.legalMoves()) {
                int f = Move.from(m);
                if (Move.isDrop(m) || f == from || Move.to(m) != to || p.typeAt(f) != piece.index()) {
                    continue;
                }
                clash = true;
                sameFile |= g.file(f) == g.file(from);
                sameRank |= g.rank(f) == g.rank(from);
            }
            if (clash) {
                if (!sameFile) {
                    sb.append(Fen.fileName(g, g.file(from)));
                } else if (!sameRank) {
                    sb.append(g.rank(from) + 1);
                } else {
                    sb.append(Fen.squareName(g, from));
                }
            }
        }
        if (capture) {
            sb.append('x');
        }
        sb.append(Fen.squareName(g, to));
        if (Move.isPromotion(move)) {
            sb.append('=').append(rs.piece(Move.type(move)).letter());
        }
        return sb.toString();
    }

    /** Reads SAN and returns the legal move it names; errors say whether it is malformed, illegal or ambiguous. */
    public static int parse(Position p, String text) {
        String field = "SAN move '" + (text == null ? "" : text.length() > 20 ? text.substring(0, 20) + "..." : text) + "'";
        if (text == null || text.isBlank() || text.length() > 16) {
            throw new NotationException(field, "expected a move such as 'Nf3', 'exd5', 'e8=Q' or 'O-O'");
        }
        String s = text.strip().replaceAll("[+#!?]+$", "");
        if (s.equals("O-O") || s.equals("0-0") || s.equals("O-O-O") || s.equals("0-0-0")) {
            boolean king = s.length() == 3;
            for (int m : p.legalMoves()) {
                if (Move.kind(m) == Move.CASTLING && (Move.to(m) > Move.from(m)) == king) {
                    return m;
                }
            }
            throw new NotationException(field, "castling is not legal in " + Fen.format(p));
        }
        Matcher mt = MOVE.matcher(s);
        if (!mt.matches()) {
            throw new NotationException(field, "malformed; expected a move such as 'Nf3', 'exd5', 'e8=Q' or 'O-O'");
        }
        RuleSet rs = p.ruleSet();
        Geometry g = rs.geometry;
        String pieceLetter = mt.group(1);
        int fromFile = mt.group(2) == null ? -1 : mt.group(2).charAt(0) - 'a';
        int fromRank = mt.group(3) == null ? -1 : Integer.parseInt(mt.group(3)) - 1;
        int to = Fen.parseSquare(g, mt.group(5), field);
        String promo = mt.group(6);
        int found = Move.NONE, count = 0;
        for (int m : p.legalMoves()) {
            if (Move.isDrop(m) || Move.to(m) != to || Move.kind(m) == Move.CASTLING) {
                continue;
            }
            int from = Move.from(m);
            PieceType piece = rs.piece(p.typeAt(from));
            if (pieceLetter == null ? !piece.pawn() : piece.pawn() || !piece.letter().equals(pieceLetter)) {
                continue;
            }
            if ((fromFile >= 0 && g.file(from) != fromFile) || (fromRank >= 0 && g.rank(from) != fromRank)) {
                continue;
            }
            boolean capture = !p.isEmpty(to) || Move.kind(m) == Move.EN_PASSANT;
            if (mt.group(4) != null && !capture) {
                continue;
            }
            if (Move.isPromotion(m) ? promo == null || !rs.piece(Move.type(m)).letter().equals(promo) : promo != null) {
                continue;
            }
            found = m;
            count++;
        }
        if (count == 0) {
            throw new NotationException(field, "not a legal move in " + Fen.format(p));
        }
        if (count > 1) {
            throw new NotationException(field, "ambiguous: " + count + " legal moves match; add the file or rank of the piece");
        }
        return found;
    }
}
