package koma.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Static evaluation for any rule set, from the side to move's point of view in centipawns: material on the
 * board and in hand, piece-square terms (advance toward promotion, centralisation, the promotion zone, the royal
 * piece's place) and, for royal games, king safety (friendly guards next to the king, enemy pieces near it, and in
 * drop games the enemy's pieces in hand against the open squares around it, the decisive term in shogi); for
 * extinction games (Shodo deathmatch) a penalty for being down to the last few stones.
 *
 * <p>The evaluation is linear in its weights, a parameter vector named by the keys of an .eval file
 * ({@link EvalWeights}). Each term is declared once in the table {@link EvalTerm#ALL}, with its key, default, meaning
 * and how it computes its coefficient; this class lays the terms' weights out as the vector and runs the same
 * declarations both in {@link #evaluate} (weight x coefficient over the terms switched on; the piece-square terms
 * summed into a table when the evaluation is built) and in {@link #trace} (each weight's coefficient, what the tuner
 * {@code koma.engine.tune} fits). A piece without a value gets one estimated from its mobility on an empty board,
 * so every rule set has an evaluation from its definition alone.
 */
public final class Evaluation {
    /**
     * The named keys (single-key terms and settings, as opposed to per piece type keys) and their defaults, from
     * {@link EvalTerm#ALL}, where each is documented; a default of 0 switches the term off.
     */
    static final Map<String, Integer> NAMED;

    static {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (EvalTerm t : EvalTerm.ALL) {
            if (!t.perType && m.put(t.key, t.defaultWeight) != null) {
                throw new IllegalStateException("two evaluation terms have the key " + t.key);
            }
        }
        NAMED = Collections.unmodifiableMap(m);
    }

    /**
     * Prefix of the .eval keys that weigh a term added to a learned net's output ({@code net king-danger2 = 6}): the
     * hand-written evaluation ignores them, {@link #netTerms} builds from them.
     */
    public static final String NET_PREFIX = "net ";

    private final RuleSet rs;
    /** The weights given under {@link #NET_PREFIX}, by the term's own key. */
    private final Map<String, Integer> netGiven = new LinkedHashMap<>();
    /** The board's squares (the stride of {@link #psq}). */
    private final int squares;
    /** What the terms read besides the position, and the scratch of their shared analyses. */
    private final EvalContext x;
    /** The parameter vector: keys in a fixed order and their values. */
    private final List<String> keys;
    private final int[] w;
    /** The terms with a weight in this rule set, and for each the parameter index per type (index 0 for one key). */
    private final EvalTerm[] terms;
    private final int[][] params;
    /**
     * For the fast path, the terms with a weight other than 0: per-type terms (all of scope SIDE) with their weights
     * per type, and single-key terms of each scope with their weight.
     */
    private final EvalTerm[] typeTerms, sideTerms, boardTerms, moverTerms;
    private final int[][] typeWeights;
    private final int[] sideWeight, boardWeight, moverWeight;
    /** Whether the fast path, and the trace, must scan the pawns or measure the phase first. */
    private final boolean fastPawns, fastPhase, tracePawns, tracePhase;
    /** Whether the fast path sums each side's material on its way over the pieces (a term reads it). */
    private final boolean fastMaterial;
    /** Whether a piece-square term that grows toward the endgame is switched on (fast path) or present (trace). */
    private final boolean fastEndgame, traceEndgame;
    /** psq[code * squares + sq]: the piece-square terms of that piece on that square, rounded, for its owner. */
    private final int[] psq;
    /** Whether any entry of {@link #psq} is not 0 (with none, evaluate skips the walk over the pieces). */
    private final boolean psqUsed;
    /** psqEg[code * squares + sq]: the same for the terms weighed by the endgame share (empty when none is on). */
    private final int[] psqEg;
    /** value[type]: plain material value, for move ordering and exchange estimates. */
    private final int[] value;
    /** Scratch for the trace: a weight of 1 for one piece type, 0 for the others. */
    private final int[] unit;

    /** The built-in weights of the rule set, or those in the directory named by {@link EvalWeights#DIR_PROPERTY}. */
    public Evaluation(RuleSet rs) {
        this(rs, EvalWeights.forRuleSet(rs.id));
    }

    /**
     * An evaluation with the given weights; keys not given take their defaults. Throws IllegalArgumentException
     * naming a key the rule set does not know.
     */
    public Evaluation(RuleSet rs, Map<String, Integer> given) {
        this.rs = rs;
        this.squares = rs.geometry.squares;
        this.x = new EvalContext(rs);
        int n = rs.pieceCount();
        unit = new int[n];
        for (String key : given.keySet()) {
            if (key.startsWith(NET_PREFIX)) {
                netGiven.put(key.substring(NET_PREFIX.length()), given.get(key));
                continue;
            }
            if (!NAMED.containsKey(key) && !isPieceKey(key)) {
                throw new IllegalArgumentException("unknown evaluation weight '" + key + "' for " + rs.id
                        + " (known: piece letters, 'hand X' for a droppable piece, 'mobility X' for a piece that is "
                        + "neither royal nor a pawn, 'psq X SQ' and 'psq-eg X SQ' for the piece-square tables, "
                        + NAMED.keySet() + ")");
            }
        }
        // Lay the weights out in table order; the per-type keys of alternating terms interleave type by type.
        Map<String, Integer> laidOut = new LinkedHashMap<>();
        List<EvalTerm> present = new ArrayList<>();
        List<int[]> presentParams = new ArrayList<>();
        List<EvalTerm> all = EvalTerm.ALL;
        for (int i = 0; i < all.size(); i++) {
            EvalTerm t = all.get(i);
            if (t.scope == EvalTerm.Scope.SETTING) {
                continue;
            }
            if (t.perSquare) {
                String prefix = t.key + " ";
                if (given.keySet().stream().anyMatch(key -> key.startsWith(prefix))) {
                    int[] param = new int[n * squares];
                    Arrays.fill(param, -1);
                    for (PieceType p : rs.pieces) {
                        if (t.appliesTo(x, p)) {
                            for (int sq = 0; sq < squares; sq++) {
                                String key = t.key(p, rs.geometry.squareName(sq));
                                param[p.index() * squares + sq] = add(key, given.getOrDefault(key, 0), laidOut);
                            }
                        }
                    }
                    present.add(t);
                    presentParams.add(param);
                }
                continue;
            }
            if (!t.perType) {
                if (t.appliesTo(x)) {
                    present.add(t);
                    presentParams.add(new int[] {add(t.key, given.getOrDefault(t.key, t.defaultWeight), laidOut)});
                }
                continue;
            }
            List<EvalTerm> group = new ArrayList<>(List.of(t));
            while (i + 1 < all.size() && all.get(i + 1).alternates) {
                group.add(all.get(++i));
            }
            List<int[]> groupParams = new ArrayList<>();
            for (int j = 0; j < group.size(); j++) {
                int[] param = new int[n];
                Arrays.fill(param, -1);
                groupParams.add(param);
            }
            for (int type : t.types(x)) {
                PieceType p = rs.piece(type);
                for (int j = 0; j < group.size(); j++) {
                    EvalTerm member = group.get(j);
                    if (member.appliesTo(x, p)) {
                        String key = member.key(p);
                        Integer v = given.get(key);
                        int setting = member.setting == null ? 0
                                : given.getOrDefault(member.setting.key, member.setting.defaultWeight);
                        groupParams.get(j)[type] = add(key, v != null ? v
                                : member.defaultWeight(x, p, setting, laidOut), laidOut);
                    }
                }
            }
            for (int j = 0; j < group.size(); j++) {
                if (Arrays.stream(groupParams.get(j)).anyMatch(k -> k >= 0)) {
                    present.add(group.get(j));
                    presentParams.add(groupParams.get(j));
                }
            }
        }
        keys = List.copyOf(laidOut.keySet());
        w = laidOut.values().stream().mapToInt(Integer::intValue).toArray();
        terms = present.toArray(new EvalTerm[0]);
        params = presentParams.toArray(new int[0][]);

        value = new int[n];
        for (int k = 0; k < terms.length; k++) {
            if (terms[k].perType && terms[k].key.isEmpty()) {
                for (int t = 0; t < n; t++) {
                    value[t] = weight(params[k][t]);
                }
            }
        }
        x.setValues(value);

        List<EvalTerm> perType = new ArrayList<>(), side = new ArrayList<>(), board = new ArrayList<>(),
                mover = new ArrayList<>();
        List<int[]> perTypeW = new ArrayList<>();
        List<Integer> sideW = new ArrayList<>(), boardW = new ArrayList<>(), moverW = new ArrayList<>();
        boolean pawns = false, phase = false, material = false, endgame = false, anyPawns = false, anyPhase = false,
                anyEndgame = false;
        for (int k = 0; k < terms.length; k++) {
            EvalTerm t = terms[k];
            anyPawns |= t.needsPawns;
            anyPhase |= t.needsPhase || t.endgame;
            anyEndgame |= t.endgame;
            int[] weights = new int[params[k].length];
            boolean on = false;
            for (int j = 0; j < weights.length; j++) {
                weights[j] = weight(params[k][j]);
                on |= weights[j] != 0;
            }
            if (on && t.endgame) {
                endgame = true;
                phase = true;
            }
            if (!on || t.scope == EvalTerm.Scope.SQUARE) {
                continue;
            }
            pawns |= t.needsPawns;
            phase |= t.needsPhase;
            material |= t.needsMaterial;
            if (t.perType) {
                if (t.scope != EvalTerm.Scope.SIDE || t.divisor != 1) {
                    throw new IllegalStateException("per-type term " + t.key + " must be of scope SIDE, divisor 1");
                }
                perType.add(t);
                perTypeW.add(weights);
                continue;
            }
            switch (t.scope) {
                case SIDE -> {
                    side.add(t);
                    sideW.add(weights[0]);
                }
                case BOARD -> {
                    board.add(t);
                    boardW.add(weights[0]);
                }
                case MOVER -> {
                    mover.add(t);
                    moverW.add(weights[0]);
                }
                default -> throw new IllegalStateException("term " + t.key + " has no coefficient");
            }
        }
        typeTerms = perType.toArray(new EvalTerm[0]);
        typeWeights = perTypeW.toArray(new int[0][]);
        sideTerms = side.toArray(new EvalTerm[0]);
        boardTerms = board.toArray(new EvalTerm[0]);
        moverTerms = mover.toArray(new EvalTerm[0]);
        sideWeight = sideW.stream().mapToInt(Integer::intValue).toArray();
        boardWeight = boardW.stream().mapToInt(Integer::intValue).toArray();
        moverWeight = moverW.stream().mapToInt(Integer::intValue).toArray();
        fastPawns = pawns;
        fastPhase = phase;
        fastMaterial = material;
        fastEndgame = endgame;
        tracePawns = anyPawns;
        tracePhase = anyPhase;
        traceEndgame = anyEndgame;

        psq = table(false);
        psqEg = endgame ? table(true) : new int[0];
        psqUsed = java.util.Arrays.stream(psq).anyMatch(v -> v != 0);
    }

    /**
     * The piece-square table of the terms that grow toward the endgame or of the others: per piece code and square,
     * the weighted sum of those terms' coefficients, rounded.
     */
    private int[] table(boolean endgame) {
        int[] table = new int[Position.pieceCodeCount(rs) * squares];
        double[] coef = new double[w.length];
        for (PieceType p : rs.pieces) {
            for (int color = 0; color < 2; color++) {
                int code = Position.pieceCode(color, p.index());
                for (int sq = 0; sq < squares; sq++) {
                    Arrays.fill(coef, 0);
                    squareTerms(p, color, sq, 1, coef, endgame);
                    double v = 0;
                    for (int k = 0; k < w.length; k++) {
                        v += coef[k] * w[k];
                    }
                    table[code * squares + sq] = (int) Math.round(v);
                }
            }
        }
        return table;
    }

    /** Whether key is a per-type key ({@code X}, {@code hand X}, ...) some term accepts for a type of the rule set. */
    private boolean isPieceKey(String key) {
        String[] parts = key.split(" ");
        if (parts.length == 3) {
            int t = rs.typeOf(parts[1]);
            return t >= 0 && rs.piece(t).letter().equals(parts[1]) && x.squareByName.containsKey(parts[2])
                    && EvalTerm.ALL.stream().anyMatch(term -> term.perSquare && term.key.equals(parts[0])
                            && term.appliesTo(x, rs.piece(t)));
        }
        int space = key.indexOf(' ');
        String prefix = space < 0 ? "" : key.substring(0, space);
        String letter = space < 0 ? key : key.substring(space + 1).strip();
        int t = rs.typeOf(letter);
        if (t < 0 || !rs.piece(t).letter().equals(letter)) {
            return false;
        }
        for (EvalTerm term : EvalTerm.ALL) {
            if (term.perType && term.key.equals(prefix) && term.accepts(x, rs.piece(t))) {
                return true;
            }
        }
        return false;
    }

    /** Appends a key and its weight to the parameter vector; returns its index. */
    private static int add(String key, int v, Map<String, Integer> laidOut) {
        laidOut.put(key, v);
        return laidOut.size() - 1;
    }

    private int weight(int param) {
        return param < 0 ? 0 : w[param];
    }

    /**
     * Adds {@code sign} times the coefficients of the piece-square terms of a piece of type p and {@code color} on
     * {@code sq} to {@code coef}, of the terms weighed by the endgame share or of the others: the one definition
     * behind {@link #psq}, {@link #psqEg} and {@link #trace}.
     */
    private void squareTerms(PieceType p, int color, int sq, double sign, double[] coef, boolean endgame) {
        for (int k = 0; k < terms.length; k++) {
            EvalTerm t = terms[k];
            if (t.scope == EvalTerm.Scope.SQUARE && t.endgame == endgame) {
                int param = params[k][t.perSquare ? p.index() * squares + x.ownView[color][sq]
                        : t.perType ? p.index() : 0];
                if (param >= 0) {
                    coef[param] += sign * t.square(x, p, color, sq);
                }
            }
        }
    }

    /**
     * The terms the rule set adds to a learned net's output (its {@code net KEY = W} weights) as an evaluation with
     * every other weight 0, or null when it names none. Its terms still weigh pieces by this evaluation's values (the
     * material mop-up compares, the phase, which piece is worth less): only the score leaves material to the net.
     * Throws IllegalArgumentException naming a key that is not a single-key term of this rule set.
     */
    public Evaluation netTerms() {
        if (netGiven.isEmpty()) {
            return null;
        }
        Map<String, Integer> only = new LinkedHashMap<>();
        for (String key : keys) {
            only.put(key, 0);
        }
        for (Map.Entry<String, Integer> e : netGiven.entrySet()) {
            if (!NAMED.containsKey(e.getKey()) || !keys.contains(e.getKey())) {
                throw new IllegalArgumentException("unknown evaluation weight '" + NET_PREFIX + e.getKey() + "' for "
                        + rs.id + " (a net adds single-key terms of the rule set: " + keys.stream()
                                .filter(NAMED::containsKey).toList() + ")");
            }
            only.put(e.getKey(), e.getValue());
        }
        Evaluation terms = new Evaluation(rs, only);
        terms.x.setValues(value);
        return terms;
    }

    /**
     * Side c's material on the board at {@link #value} (royal pieces apart) when it has no pawn there, else -1: the
     * search's pawnless-scale measure of the side ahead.
     */
    int pawnlessMaterial(Position p, int c) {
        return x.pawnlessMaterial(p, c);
    }

    /** Side c's material on the board at {@link #value}, pawns and royal pieces apart. */
    int boardMaterial(Position p, int c) {
        return x.boardMaterial(p, c);
    }

    /** Material value of a piece type (0 for the royal piece). */
    public int value(int type) {
        return value[type];
    }

    /** The parameter vector's keys, in a fixed order (piece values, hand values, named weights). */
    public List<String> keys() {
        return keys;
    }

    /** Every weight by key, in {@link #keys()} order: what an .eval file for these weights holds. */
    public Map<String, Integer> weights() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int k = 0; k < w.length; k++) {
            m.put(keys.get(k), w[k]);
        }
        return m;
    }

    /** Evaluation of the position for the side to move: weight x coefficient over the terms switched on. */
    public int evaluate(Position p) {
        int s = 0, endgame = 0;
        x.newPosition();
        if (fastMaterial || fastPhase) {
            // each side's material from the pieces' counts, before the walk (the phase weighs the endgame sum)
            int board0 = x.boardMaterial(p, 0), board1 = x.boardMaterial(p, 1);
            if (fastMaterial) {
                x.setBoardMaterial(p, board0, board1);
            }
            if (fastPhase) {
                x.setPhase(board0 + board1);
            }
        }
        for (int c = 0; c < 2 && (psqUsed || fastEndgame); c++) {
            int sum = 0, egSum = 0;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                int code = p.codeAt(sq);
                sum += psq[code * squares + sq];
                if (fastEndgame) {
                    egSum += psqEg[code * squares + sq];
                }
            }
            s += c == 0 ? sum : -sum;
            endgame += c == 0 ? egSum : -egSum;
        }
        if (fastEndgame) {
            s += endgame * x.eg / 256;
        }
        if (fastPawns) {
            x.scanPawns(p);
        }
        for (int i = 0; i < typeTerms.length; i++) {
            EvalTerm t = typeTerms[i];
            s += t.weighted(x, p, 0, typeWeights[i]) - t.weighted(x, p, 1, typeWeights[i]);
        }
        for (int i = 0; i < sideTerms.length; i++) {
            EvalTerm t = sideTerms[i];
            s += weigh(sideWeight[i], t.count(x, p, 0), t.divisor) - weigh(sideWeight[i], t.count(x, p, 1), t.divisor);
        }
        for (int i = 0; i < boardTerms.length; i++) {
            EvalTerm t = boardTerms[i];
            s += weigh(boardWeight[i], t.count(x, p, 0), t.divisor);
        }
        int us = p.sideToMove();
        s = us == 0 ? s : -s;
        for (int i = 0; i < moverTerms.length; i++) {
            EvalTerm t = moverTerms[i];
            s += weigh(moverWeight[i], t.count(x, p, us), t.divisor);
        }
        return s;
    }

    /** weight x numerator / divisor, in integers (the division truncates, as the fast path always has). */
    private static int weigh(int weight, int numerator, int divisor) {
        return divisor == 1 ? weight * numerator : weight * numerator / divisor;
    }

    /**
     * Writes into {@code coef} (length {@code keys().size()}) each weight's coefficient in the position, for the
     * side to move, so that {@code evaluate(p)} equals the dot product of coefficients and weights up to rounding.
     */
    public void trace(Position p, double[] coef) {
        Arrays.fill(coef, 0);
        int us = p.sideToMove();
        x.newPosition();
        if (tracePawns) {
            x.scanPawns(p);
        }
        if (tracePhase) {
            x.measurePhase(p);
        }
        for (int c = 0; c < 2; c++) {
            double sign = c == us ? 1 : -1;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                PieceType type = rs.piece(p.typeAt(sq));
                squareTerms(type, c, sq, sign, coef, false);
                if (traceEndgame) {
                    squareTerms(type, c, sq, sign * x.eg / 256.0, coef, true);
                }
            }
        }
        for (int k = 0; k < terms.length; k++) {
            EvalTerm t = terms[k];
            int param = params[k][0];
            switch (t.scope) {
                case SIDE -> {
                    for (int c = 0; c < 2; c++) {
                        double sign = c == us ? 1 : -1;
                        if (t.perType) {
                            for (int type = 0; type < unit.length; type++) {
                                if (params[k][type] >= 0) {
                                    unit[type] = 1;
                                    coef[params[k][type]] += sign * t.weighted(x, p, c, unit);
                                    unit[type] = 0;
                                }
                            }
                        } else {
                            coef[param] += sign * t.count(x, p, c) / t.divisor;
                        }
                    }
                }
                case BOARD -> coef[param] += (us == 0 ? 1.0 : -1.0) * t.count(x, p, 0) / t.divisor;
                case MOVER -> coef[param] += (double) t.count(x, p, us) / t.divisor;
                default -> {
                }
            }
        }
    }
}
