package koma.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import koma.rules.Betza;
import koma.rules.Geometry;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Static evaluation for any rule set, from the side to move's point of view in centipawns: material on the
 * board and in hand, piece-square terms (advance toward promotion, centralisation) and, for royal games, a
 * king-safety term (friendly guards next to the king, enemy pieces near it), the decisive one in shogi.
 *
 * <p>Weights come from {@code /koma/engine/<rule set>.eval} ({@code KEY = VALUE} lines: a piece letter for its
 * value, {@code hand X} for its value in hand, and the named weights below). A piece without a value gets one
 * estimated from its mobility on an empty board, so every rule set has an evaluation from its definition.
 */
public final class Evaluation {
    private final RuleSet rs;
    private final int squares;
    /** psq[code * squares + sq]: value of that piece on that square, for its owner. */
    private final int[] psq;
    /** handValue[type]: value of one piece of that type in hand. */
    private final int[] handValue;
    /** value[type]: plain material value, for move ordering and exchange estimates. */
    private final int[] value;
    private final int kingShelter, kingDanger, tempo;
    private final boolean royal;

    /** The named weights of an .eval file and their defaults. */
    private static final Map<String, Integer> DEFAULTS = Map.of(
            "advance", 4, "center", 3, "king-shelter", 0, "king-danger", 0, "tempo", 10, "hand-bonus-percent", 10);

    public Evaluation(RuleSet rs) {
        this.rs = rs;
        this.squares = rs.geometry.squares;
        Map<String, Integer> w = load(rs.id);
        int n = rs.pieceCount();
        value = new int[n];
        handValue = new int[n];
        for (PieceType p : rs.pieces) {
            Integer v = w.get(p.letter());
            value[p.index()] = p.royal() ? 0 : v != null ? v : estimate(rs, p);
        }
        int handBonus = w.get("hand-bonus-percent");
        for (PieceType p : rs.pieces) {
            Integer hv = w.get("hand " + p.letter());
            handValue[p.index()] = hv != null ? hv : value[p.index()] * (100 + handBonus) / 100;
        }
        int advance = w.get("advance"), center = w.get("center");
        kingShelter = w.get("king-shelter");
        kingDanger = w.get("king-danger");
        tempo = w.get("tempo");
        royal = rs.royalType >= 0;
        Geometry g = rs.geometry;
        psq = new int[(n + 1) * 2 * squares];
        for (PieceType p : rs.pieces) {
            boolean forwardOnly = p.canPromote() && p.forcedRanks() > 0;
            for (int color = 0; color < 2; color++) {
                int code = ((p.index() + 1) << 1) | color;
                for (int sq = 0; sq < squares; sq++) {
                    int rel = g.relativeRank(color, sq);
                    double df = Math.abs(g.file(sq) - (g.files - 1) / 2.0), dr = Math.abs(g.rank(sq) - (g.ranks - 1) / 2.0);
                    int central = (int) Math.round(center * (g.files / 2.0 - Math.max(df, dr)));
                    int v = value[p.index()];
                    if (forwardOnly) {
                        v += advance * rel;
                    } else if (!p.royal()) {
                        v += central;
                    }
                    psq[code * squares + sq] = v;
                }
            }
        }
    }

    /** A value from mobility: average number of destinations on an empty board, scaled so a 1-step piece ~100. */
    static int estimate(RuleSet rs, PieceType p) {
        Geometry g = rs.geometry;
        double total = 0;
        for (int sq = 0; sq < g.squares; sq++) {
            for (Betza.Move m : p.moves()) {
                if (!m.canCapture() && !m.canMove()) {
                    continue;
                }
                int f = g.file(sq), r = g.rank(sq);
                int reach = 0;
                for (int k = 1; k <= Math.min(m.range(), Math.max(g.files, g.ranks)); k++) {
                    f += m.dx();
                    r += m.dy();
                    if (!g.onBoard(f, r)) {
                        break;
                    }
                    reach++;
                }
                total += m.initialOnly() ? 0 : reach;
            }
        }
        double mobility = total / g.squares;
        return (int) Math.round(60 + 40 * Math.pow(mobility, 0.85));
    }

    private static Map<String, Integer> load(String id) {
        Map<String, Integer> w = new HashMap<>(DEFAULTS);
        String file = "/koma/engine/" + id + ".eval";
        try (InputStream in = Evaluation.class.getResourceAsStream(file)) {
            if (in == null) {
                return w;
            }
            int ln = 0;
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                ln++;
                String line = raw.replaceAll("#.*", "").strip();
                if (line.isEmpty()) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq < 0) {
                    throw new IllegalStateException(file + ":" + ln + ": expected KEY = VALUE");
                }
                w.put(line.substring(0, eq).strip(), Integer.parseInt(line.substring(eq + 1).strip()));
            }
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException(file + ": " + e.getMessage(), e);
        }
        return w;
    }

    /** Material value of a piece type (0 for the royal piece). */
    public int value(int type) {
        return value[type];
    }

    /** Evaluation of the position for the side to move. */
    public int evaluate(Position p) {
        int[] score = {0, 0};
        for (int c = 0; c < 2; c++) {
            int s = 0;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                s += psq[(((p.typeAt(sq) + 1) << 1) | c) * squares + sq];
            }
            if (rs.drops) {
                for (int type : p.handTypes()) {
                    s += p.handCount(c, type) * handValue[type];
                }
            }
            score[c] = s;
        }
        if (royal && (kingShelter != 0 || kingDanger != 0)) {
            for (int c = 0; c < 2; c++) {
                score[c] += kingSafety(p, c);
            }
        }
        int us = p.sideToMove();
        return score[us] - score[us ^ 1] + tempo;
    }

    /** Friendly pieces next to the king count for it, enemy pieces within two squares against it. */
    private int kingSafety(Position p, int c) {
        int k = p.kingSquare(c);
        if (k < 0) {
            return 0;
        }
        Geometry g = rs.geometry;
        int kf = g.file(k), kr = g.rank(k);
        int s = 0;
        for (int df = -2; df <= 2; df++) {
            for (int dr = -2; dr <= 2; dr++) {
                int f = kf + df, r = kr + dr;
                if ((df == 0 && dr == 0) || !g.onBoard(f, r)) {
                    continue;
                }
                int sq = g.square(f, r);
                if (p.isEmpty(sq)) {
                    continue;
                }
                boolean near = Math.abs(df) <= 1 && Math.abs(dr) <= 1;
                if (p.colorAt(sq) == c) {
                    if (near) {
                        s += kingShelter;
                    }
                } else {
                    s -= near ? 2 * kingDanger : kingDanger;
                }
            }
        }
        return s;
    }
}
