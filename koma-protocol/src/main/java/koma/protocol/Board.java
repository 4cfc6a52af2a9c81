package koma.protocol;

import koma.rules.Geometry;
import koma.rules.Position;
import koma.rules.RuleSet;

/** Text drawing of a position for the {@code d} command and the terminal: a grid with coordinates and hands. */
public final class Board {
    private Board() {
    }

    /**
     * Draws the board from the first player's side. {@code shogiCoordinates} labels files right to left with
     * numbers and ranks with letters (USI); otherwise files are letters and ranks numbers.
     */
    public static String draw(Position p, boolean shogiCoordinates) {
        Geometry g = p.geometry();
        RuleSet rs = p.ruleSet();
        StringBuilder sb = new StringBuilder();
        String sep = " +" + "----+".repeat(g.files) + "\n";
        sb.append(hand(p, 1));
        sb.append(sep);
        for (int rank = g.ranks - 1; rank >= 0; rank--) {
            sb.append(" |");
            for (int file = 0; file < g.files; file++) {
                int sq = g.square(file, rank);
                String cell = "";
                if (!p.isEmpty(sq)) {
                    String l = rs.piece(p.typeAt(sq)).letter();
                    cell = p.colorAt(sq) == 0 ? l : l.toLowerCase();
                }
                sb.append(String.format("%3s |", cell));
            }
            sb.append(' ').append(shogiCoordinates ? String.valueOf((char) ('a' + g.ranks - 1 - rank)) : String.valueOf(rank + 1));
            sb.append('\n').append(sep);
        }
        sb.append(' ');
        for (int file = 0; file < g.files; file++) {
            sb.append(String.format("%4s ", shogiCoordinates ? String.valueOf(g.files - file) : String.valueOf((char) ('a' + file))));
        }
        sb.append('\n').append(hand(p, 0));
        return sb.toString();
    }

    private static String hand(Position p, int color) {
        if (!p.ruleSet().drops) {
            return "";
        }
        StringBuilder sb = new StringBuilder(color == 0 ? " First player's hand:" : " Second player's hand:");
        boolean any = false;
        for (int type : p.handTypes()) {
            int n = p.handCount(color, type);
            if (n > 0) {
                String l = p.ruleSet().piece(type).letter();
                sb.append(' ').append(color == 0 ? l : l.toLowerCase()).append(n > 1 ? "x" + n : "");
                any = true;
            }
        }
        return sb.append(any ? "" : " -").append('\n').toString();
    }
}
