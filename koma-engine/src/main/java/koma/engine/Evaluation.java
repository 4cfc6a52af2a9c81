package koma.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Betza;
import koma.rules.Geometry;
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
 * ({@link EvalWeights}): a piece letter for its value, {@code hand X} for its value in hand, and the named weights
 * in {@link #NAMED}. {@link #trace} gives each weight's coefficient in a position, which is what the tuner
 * ({@code koma.engine.tune}) fits. A piece without a value gets one estimated from its mobility on an empty
 * board, so every rule set has an evaluation from its definition alone.
 */
public final class Evaluation {
    /**
     * The named weights and their defaults (a default of 0 switches the term off):
     * advance / advance2: per rank (and per rank squared over the board's ranks) for pieces that must promote on
     * the last ranks (pawns, lances, shogi knights); pawn-center: their centralisation; center: centralisation of
     * the other pieces; promo-zone: a promotable piece standing in the promotion zone; king-center / king-advance:
     * the royal piece's centralisation and rank; king-shelter: a friendly piece next to the king; king-danger: an
     * enemy piece within two squares (twice when adjacent); king-hand-danger: per eighth of (enemy non-pawn pieces in
     * hand, at most 8) x (empty squares next to the king); scarcity: (4 - stones left)^2 in extinction games;
     * tempo: the side to move's bonus; hand-bonus-percent: only the default of a missing {@code hand X} value;
     * mobility: only the default of a missing {@code mobility X} (per square a piece of type X can move to or capture
     * on); passed / passed-eg: per squared relative rank of a passed pawn (no enemy pawn ahead on its own or the next
     * files), the second scaled by the endgame share 1 - phase; doubled: per pawn beyond the first on a file;
     * isolated: per pawn without friendly pawns on the next files; king-center-eg: the royal piece's
     * centralisation times the endgame share. Per piece type X (neither royal nor a pawn), besides {@code mobility X}:
     * {@code pair X}, a side owning two or more on the board (the bishop pair); {@code open-file X}, per piece on a
     * file without a pawn of its own (rook on an open or half-open file; rule sets with pawns only). The phase is the
     * non-pawn material on the board over that of the start position (1 at the start, 0 with pawns and kings only).
     */
    static final Map<String, Integer> NAMED;

    static {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("advance", 4);
        m.put("advance2", 0);
        m.put("pawn-center", 0);
        m.put("center", 3);
        m.put("promo-zone", 0);
        m.put("king-center", 0);
        m.put("king-advance", 0);
        m.put("king-shelter", 0);
        m.put("king-danger", 0);
        m.put("king-hand-danger", 0);
        m.put("scarcity", 0);
        m.put("tempo", 10);
        m.put("hand-bonus-percent", 10);
        m.put("mobility", 0);
        m.put("passed", 0);
        m.put("passed-eg", 0);
        m.put("doubled", 0);
        m.put("isolated", 0);
        m.put("king-center-eg", 0);
        NAMED = Collections.unmodifiableMap(m);
    }

    private final RuleSet rs;
    private final int squares;
    /** The parameter vector: keys in a fixed order and their values. */
    private final List<String> keys = new ArrayList<>();
    private final int[] w;
    /** Parameter index of each piece type's board value (-1 for the royal piece) and hand value (-1: none). */
    private final int[] valueParam, handParam;
    private final int pAdvance, pAdvance2, pPawnCenter, pCenter, pZone, pKingCenter, pKingAdvance, pShelter,
            pDanger, pHandDanger, pScarcity, pTempo, pPassed, pPassedEg, pDoubled, pIsolated, pKingEg;
    /** Parameter index of each piece type's mobility weight (-1: none, for royal pieces and pawns). */
    private final int[] mobilityParam;
    /** mobilityWeight[type]: its weight. */
    private final int[] mobilityWeight;
    /** Whether any pawn-structure weight, or any per-type piece weight (mobility, pair, open file), is not zero. */
    private final boolean pawnTermsOn, pieceTermsOn;
    /** Parameter index and weight per piece type of {@code pair X} and {@code open-file X} (-1 / 0: none). */
    private final int[] pairParam, openFileParam, pairWeight, openFileWeight;
    /** Scratch: pieces of each type of one side, for the pair term. */
    private final int[] typeCount;
    private final boolean hasPawns;
    private final int passed, passedEg, doubled, isolated, kingEg;
    /** Phase: non-pawn, non-royal material on the board at the start ({@link #phase} is 256 there). */
    private final int phaseMaterial;
    /** kingCentral2[sq]: twice the centralisation of a square (the king-center coefficient). */
    private final int[] kingCentral2;
    /**
     * Scratch for the pawn-structure pass (per file: pawn counts of each colour, the highest rank of the second
     * player's pawns, the lowest of the first's) and its result; preallocated, one Evaluation per search thread.
     */
    private final int[] pawnsOnFile0, pawnsOnFile1, maxRank1, minRank0;
    private final int[] structure = new int[3];
    /** psq[code * squares + sq]: value of that piece on that square, for its owner. */
    private final int[] psq;
    /** handValue[type]: value of one piece of that type in hand. */
    private final int[] handValue;
    /** value[type]: plain material value, for move ordering and exchange estimates. */
    private final int[] value;
    /** Types that can be held in hand, and whether each counts as an attacker for king-hand-danger. */
    private final int[] handTypes;
    private final boolean[] handAttacker;
    private final boolean royal, extinction;
    private final int kingShelter, kingDanger, kingHandDanger, scarcity, tempo;

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
        int n = rs.pieceCount();
        royal = rs.royalType >= 0;
        extinction = rs.endRules.extinction();
        handTypes = rs.drops ? Position.start(rs).handTypes() : new int[0];
        handAttacker = new boolean[n];
        for (int t : handTypes) {
            handAttacker[t] = !rs.piece(t).pawn();
        }
        for (String key : given.keySet()) {
            if (!NAMED.containsKey(key) && !isPieceKey(rs, key)) {
                throw new IllegalArgumentException("unknown evaluation weight '" + key + "' for " + rs.id
                        + " (known: piece letters, 'hand X' for a droppable piece, 'mobility X' for a piece that is "
                        + "neither royal nor a pawn, " + NAMED.keySet() + ")");
            }
        }
        List<Integer> values = new ArrayList<>();
        valueParam = new int[n];
        handParam = new int[n];
        java.util.Arrays.fill(valueParam, -1);
        java.util.Arrays.fill(handParam, -1);
        for (PieceType p : rs.pieces) {
            if (!p.royal()) {
                Integer v = given.get(p.letter());
                valueParam[p.index()] = add(p.letter(), v != null ? v : estimate(rs, p), values);
            }
        }
        int handBonus = given.getOrDefault("hand-bonus-percent", NAMED.get("hand-bonus-percent"));
        for (int t : handTypes) {
            String key = "hand " + rs.piece(t).letter();
            Integer hv = given.get(key);
            int board = valueParam[t] < 0 ? 0 : values.get(valueParam[t]);
            handParam[t] = add(key, hv != null ? hv : board * (100 + handBonus) / 100, values);
        }
        pAdvance = named("advance", given, values);
        pAdvance2 = named("advance2", given, values);
        pPawnCenter = named("pawn-center", given, values);
        pCenter = named("center", given, values);
        pZone = rs.promotion != null && rs.promotion.zoneDepth() > 0 ? named("promo-zone", given, values) : -1;
        pKingCenter = royal ? named("king-center", given, values) : -1;
        pKingAdvance = royal ? named("king-advance", given, values) : -1;
        pShelter = royal ? named("king-shelter", given, values) : -1;
        pDanger = royal ? named("king-danger", given, values) : -1;
        pHandDanger = royal && rs.drops ? named("king-hand-danger", given, values) : -1;
        pScarcity = extinction ? named("scarcity", given, values) : -1;
        pTempo = named("tempo", given, values);
        boolean pawns = hasPawns(rs);
        mobilityParam = new int[n];
        java.util.Arrays.fill(mobilityParam, -1);
        int mobilityDefault = given.getOrDefault("mobility", NAMED.get("mobility"));
        for (PieceType p : rs.pieces) {
            if (hasMobility(p)) {
                String key = "mobility " + p.letter();
                mobilityParam[p.index()] = add(key, given.getOrDefault(key, mobilityDefault), values);
            }
        }
        hasPawns = pawns;
        pairParam = new int[n];
        openFileParam = new int[n];
        java.util.Arrays.fill(pairParam, -1);
        java.util.Arrays.fill(openFileParam, -1);
        for (PieceType p : rs.pieces) {
            if (hasMobility(p)) {
                String key = "pair " + p.letter();
                pairParam[p.index()] = add(key, given.getOrDefault(key, 0), values);
                if (pawns) {
                    key = "open-file " + p.letter();
                    openFileParam[p.index()] = add(key, given.getOrDefault(key, 0), values);
                }
            }
        }
        typeCount = new int[n];
        pPassed = pawns ? named("passed", given, values) : -1;
        pPassedEg = pawns ? named("passed-eg", given, values) : -1;
        pDoubled = pawns ? named("doubled", given, values) : -1;
        pIsolated = pawns ? named("isolated", given, values) : -1;
        pKingEg = royal ? named("king-center-eg", given, values) : -1;
        w = values.stream().mapToInt(Integer::intValue).toArray();
        mobilityWeight = new int[n];
        pairWeight = new int[n];
        openFileWeight = new int[n];
        boolean pieceTerms = false;
        for (int t = 0; t < n; t++) {
            mobilityWeight[t] = weight(mobilityParam[t]);
            pairWeight[t] = weight(pairParam[t]);
            openFileWeight[t] = weight(openFileParam[t]);
            pieceTerms |= mobilityWeight[t] != 0 || pairWeight[t] != 0 || openFileWeight[t] != 0;
        }
        pieceTermsOn = pieceTerms;
        passed = weight(pPassed);
        passedEg = weight(pPassedEg);
        doubled = weight(pDoubled);
        isolated = weight(pIsolated);
        kingEg = weight(pKingEg);
        pawnTermsOn = passed != 0 || passedEg != 0 || doubled != 0 || isolated != 0;
        Geometry g = rs.geometry;
        pawnsOnFile0 = new int[g.files];
        pawnsOnFile1 = new int[g.files];
        maxRank1 = new int[g.files];
        minRank0 = new int[g.files];
        kingCentral2 = new int[squares];
        for (int sq = 0; sq < squares; sq++) {
            kingCentral2[sq] = (int) Math.round(2 * centralisation(g, sq));
        }

        value = new int[n];
        handValue = new int[n];
        for (int t = 0; t < n; t++) {
            value[t] = valueParam[t] < 0 ? 0 : w[valueParam[t]];
            handValue[t] = handParam[t] < 0 ? 0 : w[handParam[t]];
        }
        kingShelter = weight(pShelter);
        kingDanger = weight(pDanger);
        kingHandDanger = weight(pHandDanger);
        scarcity = weight(pScarcity);
        tempo = weight(pTempo);
        phaseMaterial = Math.max(1, phaseMaterial(Position.start(rs)));
        psq = new int[Position.pieceCodeCount(rs) * squares];
        double[] coef = new double[w.length];
        for (PieceType p : rs.pieces) {
            for (int color = 0; color < 2; color++) {
                int code = Position.pieceCode(color, p.index());
                for (int sq = 0; sq < squares; sq++) {
                    java.util.Arrays.fill(coef, 0);
                    psqTerms(p.index(), color, sq, 1, coef);
                    double v = 0;
                    for (int k = 0; k < w.length; k++) {
                        v += coef[k] * w[k];
                    }
                    psq[code * squares + sq] = (int) Math.round(v);
                }
            }
        }
    }

    private static boolean isPieceKey(RuleSet rs, String key) {
        int space = key.indexOf(' ');
        String prefix = space < 0 ? "" : key.substring(0, space);
        String letter = space < 0 ? key : key.substring(space + 1).strip();
        int t = rs.typeOf(letter);
        if (t < 0 || rs.piece(t).royal() || !rs.piece(t).letter().equals(letter)) {
            return false;
        }
        return switch (prefix) {
            case "" -> true;
            case "hand" -> rs.drops;
            case "mobility", "pair" -> hasMobility(rs.piece(t));
            case "open-file" -> hasMobility(rs.piece(t)) && hasPawns(rs);
            default -> false;
        };
    }

    /** Whether the rule set has pawns (the pawn-structure and open-file weights exist only then). */
    private static boolean hasPawns(RuleSet rs) {
        return rs.pieces.stream().anyMatch(p -> p.pawn() && !p.royal());
    }

    /** How central a square is: half the files minus its distance from the centre in the longer direction. */
    private static double centralisation(Geometry g, int sq) {
        double df = Math.abs(g.file(sq) - (g.files - 1) / 2.0), dr = Math.abs(g.rank(sq) - (g.ranks - 1) / 2.0);
        return g.files / 2.0 - Math.max(df, dr);
    }

    /** Pieces with a mobility weight: all but royal pieces and pawns. */
    private static boolean hasMobility(PieceType p) {
        return !p.royal() && !p.pawn();
    }

    /** A piece's share of the phase: its value when it is neither royal nor a pawn. */
    private int phaseValue(int type) {
        PieceType p = rs.piece(type);
        return p.royal() || p.pawn() ? 0 : value[type];
    }

    /** The game phase, 256 with the start position's non-pawn material on the board down to 0 with none. */
    private int phase(Position p) {
        return Math.min(256, phaseMaterial(p) * 256 / phaseMaterial);
    }

    /** The non-pawn, non-royal material of both sides on the board. */
    private int phaseMaterial(Position p) {
        int material = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                material += phaseValue(p.typeAt(p.pieceSquare(c, i)));
            }
        }
        return material;
    }

    /** Clears the {@link #typeCount} scratch after a pass over the pieces of side {@code c}. */
    private void clearTypeCount(Position p, int c) {
        for (int i = 0, n = p.pieceCount(c); i < n; i++) {
            typeCount[p.typeAt(p.pieceSquare(c, i))] = 0;
        }
    }

    /**
     * The pawn structure, first player minus second, into {@link #structure}: the sum of squared relative ranks of
     * passed pawns, the doubled pawns, the isolated pawns.
     */
    private void pawnStructure(Position p) {
        Geometry g = rs.geometry;
        int files = g.files;
        java.util.Arrays.fill(pawnsOnFile0, 0);
        java.util.Arrays.fill(pawnsOnFile1, 0);
        java.util.Arrays.fill(maxRank1, -1);
        java.util.Arrays.fill(minRank0, g.ranks);
        for (int c = 0; c < 2; c++) {
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                if (!rs.piece(p.typeAt(sq)).pawn()) {
                    continue;
                }
                int f = g.file(sq), r = g.rank(sq);
                if (c == 0) {
                    pawnsOnFile0[f]++;
                    minRank0[f] = Math.min(minRank0[f], r);
                } else {
                    pawnsOnFile1[f]++;
                    maxRank1[f] = Math.max(maxRank1[f], r);
                }
            }
        }
        int passedSum = 0, doubledSum = 0, isolatedSum = 0;
        for (int c = 0; c < 2; c++) {
            int sign = c == 0 ? 1 : -1;
            int[] own = c == 0 ? pawnsOnFile0 : pawnsOnFile1;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                if (!rs.piece(p.typeAt(sq)).pawn()) {
                    continue;
                }
                int f = g.file(sq), r = g.rank(sq);
                boolean free = true;
                boolean neighbours = false;
                for (int ff = Math.max(0, f - 1); ff <= Math.min(files - 1, f + 1); ff++) {
                    free &= c == 0 ? maxRank1[ff] <= r : minRank0[ff] >= r;
                    neighbours |= ff != f && own[ff] > 0;
                }
                if (free) {
                    int rel = g.relativeRank(c, sq);
                    passedSum += sign * rel * rel;
                }
                if (!neighbours) {
                    isolatedSum += sign;
                }
            }
            for (int f = 0; f < files; f++) {
                doubledSum += sign * Math.max(0, own[f] - 1);
            }
        }
        structure[0] = passedSum;
        structure[1] = doubledSum;
        structure[2] = isolatedSum;
    }

    /**
     * The per-type piece terms of one side: mobility, pairs, pieces on files without a pawn of their own. The
     * open-file term reads the pawn counts of {@link #pawnStructure}, which must have run on this position.
     */
    private int pieceTerms(Position p, int c) {
        int s = 0;
        int[] ownPawns = c == 0 ? pawnsOnFile0 : pawnsOnFile1;
        Geometry g = rs.geometry;
        for (int i = 0, n = p.pieceCount(c); i < n; i++) {
            int sq = p.pieceSquare(c, i);
            int type = p.typeAt(sq);
            int wt = mobilityWeight[type];
            if (wt != 0) {
                s += wt * p.mobility(sq);
            }
            if (openFileWeight[type] != 0 && ownPawns[g.file(sq)] == 0) {
                s += openFileWeight[type];
            }
            if (pairWeight[type] != 0 && ++typeCount[type] == 2) {
                s += pairWeight[type];
            }
        }
        clearTypeCount(p, c);
        return s;
    }

    private int add(String key, int v, List<Integer> values) {
        keys.add(key);
        values.add(v);
        return keys.size() - 1;
    }

    private int named(String key, Map<String, Integer> given, List<Integer> values) {
        return add(key, given.getOrDefault(key, NAMED.get(key)), values);
    }

    private int weight(int param) {
        return param < 0 ? 0 : w[param];
    }

    /**
     * Adds {@code sign} times the piece-square coefficients of a piece of {@code type} and {@code color} on
     * {@code sq} to {@code coef}: the one definition behind both {@link #psq} and {@link #trace}.
     */
    private void psqTerms(int type, int color, int sq, double sign, double[] coef) {
        PieceType p = rs.piece(type);
        Geometry g = rs.geometry;
        int rel = g.relativeRank(color, sq);
        double central = centralisation(g, sq);
        if (p.royal()) {
            coef[pKingCenter] += sign * central;
            coef[pKingAdvance] += sign * rel;
            return;
        }
        coef[valueParam[type]] += sign;
        if (p.canPromote() && p.forcedRanks() > 0) {
            coef[pAdvance] += sign * rel;
            coef[pAdvance2] += sign * rel * rel / (double) (g.ranks - 1);
            coef[pPawnCenter] += sign * central;
        } else {
            coef[pCenter] += sign * central;
        }
        if (pZone >= 0 && p.canPromote() && rs.inZone(color, sq)) {
            coef[pZone] += sign;
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

    /** Material value of a piece type (0 for the royal piece). */
    public int value(int type) {
        return value[type];
    }

    /** The parameter vector's keys, in a fixed order (piece values, hand values, named weights). */
    public List<String> keys() {
        return Collections.unmodifiableList(keys);
    }

    /** Every weight by key, in {@link #keys()} order: what an .eval file for these weights holds. */
    public Map<String, Integer> weights() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int k = 0; k < w.length; k++) {
            m.put(keys.get(k), w[k]);
        }
        return m;
    }

    /** Evaluation of the position for the side to move. */
    public int evaluate(Position p) {
        int s = side(p, 0) - side(p, 1);
        if (pawnTermsOn || (pieceTermsOn && hasPawns)) {
            pawnStructure(p);
        }
        if (pieceTermsOn) {
            s += pieceTerms(p, 0) - pieceTerms(p, 1);
        }
        if (pawnTermsOn || kingEg != 0) {
            int eg = 256 - phase(p);
            if (pawnTermsOn) {
                s += passed * structure[0] + passedEg * structure[0] * eg / 256 + doubled * structure[1]
                        + isolated * structure[2];
            }
            if (kingEg != 0 && p.kingSquare(0) >= 0 && p.kingSquare(1) >= 0) {
                s += kingEg * (kingCentral2[p.kingSquare(0)] - kingCentral2[p.kingSquare(1)]) * eg / 512;
            }
        }
        return (p.sideToMove() == 0 ? s : -s) + tempo;
    }

    /** Everything one side owns: pieces on the board and in hand, king safety, scarcity. */
    private int side(Position p, int c) {
        int s = 0;
        for (int i = 0, n = p.pieceCount(c); i < n; i++) {
            int sq = p.pieceSquare(c, i);
            s += psq[p.codeAt(sq) * squares + sq];
        }
        for (int type : handTypes) {
            s += p.handCount(c, type) * handValue[type];
        }
        if (royal) {
            int k = p.kingSquare(c);
            if (k >= 0) {
                s += kingShelter * kingCount(p, c, k, true) - kingDanger * kingCount(p, c, k, false);
                if (kingHandDanger != 0) {
                    s -= kingHandDanger * handDanger(p, c, k) / 8;
                }
            }
        }
        if (extinction) {
            int missing = Math.max(0, 4 - p.pieceCount(c));
            s -= scarcity * missing * missing;
        }
        return s;
    }

    /**
     * Friendly pieces next to the king ({@code friends}), or enemy pieces within two squares of it counted twice
     * when adjacent.
     */
    private int kingCount(Position p, int c, int k, boolean friends) {
        Geometry g = rs.geometry;
        int kf = g.file(k), kr = g.rank(k);
        int reach = friends ? 1 : 2;
        int count = 0;
        for (int df = -reach; df <= reach; df++) {
            for (int dr = -reach; dr <= reach; dr++) {
                int f = kf + df, r = kr + dr;
                if ((df == 0 && dr == 0) || !g.onBoard(f, r)) {
                    continue;
                }
                int sq = g.square(f, r);
                if (p.isEmpty(sq)) {
                    continue;
                }
                if (friends ? p.colorAt(sq) == c : p.colorAt(sq) != c) {
                    count += friends || (Math.abs(df) > 1 || Math.abs(dr) > 1) ? 1 : 2;
                }
            }
        }
        return count;
    }

    /** The enemy's non-pawn pieces in hand (at most 8) times the empty squares next to the king of {@code c}. */
    private int handDanger(Position p, int c, int k) {
        int held = 0;
        for (int type : handTypes) {
            if (handAttacker[type]) {
                held += p.handCount(c ^ 1, type);
            }
        }
        if (held == 0) {
            return 0;
        }
        Geometry g = rs.geometry;
        int kf = g.file(k), kr = g.rank(k), empty = 0;
        for (int d = 0; d < 8; d++) {
            int f = kf + Geometry.DX[d], r = kr + Geometry.DY[d];
            if (g.onBoard(f, r) && p.isEmpty(g.square(f, r))) {
                empty++;
            }
        }
        return Math.min(held, 8) * empty;
    }

    /**
     * Writes into {@code coef} (length {@code keys().size()}) each weight's coefficient in the position, for the
     * side to move, so that {@code evaluate(p)} equals the dot product of coefficients and weights up to rounding.
     */
    public void trace(Position p, double[] coef) {
        java.util.Arrays.fill(coef, 0);
        int us = p.sideToMove();
        for (int c = 0; c < 2; c++) {
            double sign = c == us ? 1 : -1;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                psqTerms(p.typeAt(sq), c, sq, sign, coef);
            }
            for (int type : handTypes) {
                coef[handParam[type]] += sign * p.handCount(c, type);
            }
            if (royal) {
                int k = p.kingSquare(c);
                if (k >= 0) {
                    coef[pShelter] += sign * kingCount(p, c, k, true);
                    coef[pDanger] -= sign * kingCount(p, c, k, false);
                    if (pHandDanger >= 0) {
                        coef[pHandDanger] -= sign * handDanger(p, c, k) / 8.0;
                    }
                }
            }
            if (extinction) {
                int missing = Math.max(0, 4 - p.pieceCount(c));
                coef[pScarcity] -= sign * missing * missing;
            }
        }
        coef[pTempo] += 1;
        int sign = us == 0 ? 1 : -1;
        double eg = (256 - phase(p)) / 256.0;
        if (hasPawns) {
            pawnStructure(p);
        }
        for (int c = 0; c < 2; c++) {
            int cs = c == 0 ? sign : -sign;
            int[] ownPawns = c == 0 ? pawnsOnFile0 : pawnsOnFile1;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                int type = p.typeAt(sq);
                if (mobilityParam[type] >= 0) {
                    coef[mobilityParam[type]] += cs * p.mobility(sq);
                }
                if (openFileParam[type] >= 0 && ownPawns[rs.geometry.file(sq)] == 0) {
                    coef[openFileParam[type]] += cs;
                }
                if (pairParam[type] >= 0 && ++typeCount[type] == 2) {
                    coef[pairParam[type]] += cs;
                }
            }
            clearTypeCount(p, c);
        }
        if (hasPawns) {
            coef[pPassed] += sign * structure[0];
            coef[pPassedEg] += sign * structure[0] * eg;
            coef[pDoubled] += sign * structure[1];
            coef[pIsolated] += sign * structure[2];
        }
        if (royal && p.kingSquare(0) >= 0 && p.kingSquare(1) >= 0) {
            coef[pKingEg] += sign * (kingCentral2[p.kingSquare(0)] - kingCentral2[p.kingSquare(1)]) * eg / 2;
        }
    }
}
