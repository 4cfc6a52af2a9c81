package koma.engine;

import java.util.List;
import java.util.Map;

import koma.rules.Betza;
import koma.rules.Geometry;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * One term of the hand-written evaluation, declared once: its key (or, for a term with one weight per piece type,
 * the prefix of its keys: {@code mobility} for {@code mobility N}), its default weight, what it measures, and how it
 * computes its coefficient. {@link #ALL} is the table of every term, in the order of the parameter vector;
 * {@link Evaluation} builds from it both its fast path (weight times coefficient summed over the terms that are
 * switched on, the piece-square terms through a precomputed table) and {@link Evaluation#trace} (the coefficients
 * themselves), so adding a term means adding one entry here.
 *
 * <p>A single-key term's coefficient is an integer numerator ({@link #count}) over its {@link #divisor}; the fast
 * path adds {@code weight * numerator / divisor} (integer division, per side for {@link Scope#SIDE} terms, on the
 * difference for {@link Scope#BOARD} terms), the trace adds {@code numerator / divisor}. A per-type term gives the
 * weighted sum of its coefficients ({@link #weighted}), from which the trace reads each coefficient alone. The
 * piece-square terms ({@link #square}) are summed, per piece and square, into a table when the evaluation is built;
 * those that grow toward the endgame ({@link #endgame}) into a second table the fast path weighs by the endgame
 * share. A per-square term ({@link #perSquare}: one key per piece type and square, {@code psq N e4}) is in a rule
 * set's parameter vector only when the given weights name one of its keys, so only rule sets whose .eval file has
 * the tables pay for them.
 */
abstract class EvalTerm {
    /** What a term's coefficient belongs to, so where the evaluation asks for it and which sign it takes. */
    enum Scope {
        /** No coefficient: a setting that gives the default of the per-type keys of its term. */
        SETTING,
        /** A piece on a square ({@link #square}); summed over the pieces, the fast path reads the table. */
        SQUARE,
        /** One side ({@link #count} or {@link #weighted} for each side): the first player's minus the second's. */
        SIDE,
        /** The whole board, from the first player's view ({@link #count} once, side 0). */
        BOARD,
        /** The side to move ({@link #count} once, for the side to move), after the others are turned to its view. */
        MOVER
    }

    /** The key of a single-key term or setting, or the prefix of a per-type term's keys ("" for piece values). */
    final String key;
    /** The default weight of a single-key term or setting. */
    final int defaultWeight;
    final Scope scope;
    /** Whether the term has one key per piece type ({@code prefix X}) instead of a single key. */
    final boolean perType;
    /** The meaning of the weight: what the term measures (the documentation of its .eval key). */
    final String doc;
    /** A single-key term's coefficient is an integer numerator over this (per-type terms: always 1). */
    int divisor = 1;
    /**
     * Whether the term reads the pawn scan ({@link EvalContext#scanPawns}), the phase ({@link EvalContext#eg}) or
     * each side's material ({@link EvalContext#farAhead}, summed by the fast path on its way over the pieces).
     */
    boolean needsPawns, needsPhase, needsMaterial;
    /** For a per-type term: whether its keys alternate type by type with those of the term before it. */
    boolean alternates;
    /**
     * For a per-type {@link Scope#SQUARE} term: one key per piece type and square ({@code prefix X SQ}, the square
     * from the piece's own side's view, {@link EvalContext#ownView}), each with coefficient 1 there and 0 elsewhere.
     */
    boolean perSquare;
    /** For a {@link Scope#SQUARE} term: its coefficient is multiplied by the endgame share (1 - phase). */
    boolean endgame;
    /** For a per-type term: the setting that gives its default, or null (then the default is {@link #defaultWeight}). */
    EvalTerm setting;

    private EvalTerm(Scope scope, boolean perType, String key, int defaultWeight, String doc) {
        this.scope = scope;
        this.perType = perType;
        this.key = key;
        this.defaultWeight = defaultWeight;
        this.doc = doc;
    }

    /** A term with a single key. */
    EvalTerm(Scope scope, String key, int defaultWeight, String doc) {
        this(scope, false, key, defaultWeight, doc);
    }

    /** A term with one key per piece type, {@code prefix X} (just the letter for an empty prefix). */
    EvalTerm(Scope scope, String prefix, String doc) {
        this(scope, true, prefix, 0, doc);
    }

    /** A per-type piece-square term with one key per piece type and square (see {@link #perSquare}). */
    static EvalTerm perSquare(String prefix, boolean endgame, String doc) {
        EvalTerm t = new EvalTerm(Scope.SQUARE, prefix, doc) {
            @Override
            boolean appliesTo(EvalContext x, PieceType p) {
                return true;
            }

            @Override
            double square(EvalContext x, PieceType p, int color, int sq) {
                return 1;
            }
        };
        t.perSquare = true;
        t.endgame = endgame;
        return t;
    }

    /** Whether a single-key term has a weight in this rule set (its key is accepted anyway, and ignored). */
    boolean appliesTo(EvalContext x) {
        return true;
    }

    /** Whether a per-type term has a weight for this piece type. */
    boolean appliesTo(EvalContext x, PieceType p) {
        return false;
    }

    /** Whether a per-type term accepts the key of this piece type (by default: when it has a weight for it). */
    boolean accepts(EvalContext x, PieceType p) {
        return appliesTo(x, p);
    }

    /** A per-type term's types, in the order of their keys (by default the rule set's pieces it applies to). */
    int[] types(EvalContext x) {
        return x.rs.pieces.stream().filter(p -> appliesTo(x, p)).mapToInt(PieceType::index).toArray();
    }

    /**
     * A per-type term's default for piece type p: {@code setting} is the value of its setting (or 0), {@code laidOut}
     * the weights of the keys before it.
     */
    int defaultWeight(EvalContext x, PieceType p, int setting, Map<String, Integer> laidOut) {
        return defaultWeight;
    }

    /** The key of a per-type term for piece type p. */
    String key(PieceType p) {
        return key.isEmpty() ? p.letter() : key + " " + p.letter();
    }

    /** The key of a per-square term for piece type p on the square named sq (from its own side's view). */
    String key(PieceType p, String sq) {
        return key + " " + p.letter() + " " + sq;
    }

    /** A {@link Scope#SQUARE} term's coefficient for a piece of type p and colour on sq. */
    double square(EvalContext x, PieceType p, int color, int sq) {
        throw new UnsupportedOperationException(key);
    }

    /**
     * A per-type {@link Scope#SIDE} term for side c: the sum over piece types X of weight[X] x X's coefficient,
     * skipping the work for types of weight 0. The fast path passes the weights; the trace gets each coefficient
     * alone by passing 1 for its type and 0 for the others.
     */
    int weighted(EvalContext x, Position p, int c, int[] weight) {
        throw new UnsupportedOperationException(key);
    }

    /**
     * The coefficient's numerator of a single-key {@link Scope#SIDE} term for side c, of a {@link Scope#BOARD} term
     * (c is 0: the first player's view) or of a {@link Scope#MOVER} term (c is the side to move).
     */
    int count(EvalContext x, Position p, int c) {
        throw new UnsupportedOperationException(key);
    }

    /** Sets the divisor of a single-key term's numerators (returns this term, for the table). */
    final EvalTerm over(int d) {
        divisor = d;
        return this;
    }

    /** Marks the term as reading the pawn scan. */
    final EvalTerm pawns() {
        needsPawns = true;
        return this;
    }

    /** Marks the term as reading the phase. */
    final EvalTerm phase() {
        needsPhase = true;
        return this;
    }

    /** Marks the term as reading each side's material. */
    final EvalTerm material() {
        needsMaterial = true;
        return this;
    }

    /** Marks a per-type term's keys as alternating with those of the term before it. */
    final EvalTerm alternating() {
        alternates = true;
        return this;
    }

    /** Gives a per-type term the setting its default comes from. */
    final EvalTerm defaultFrom(EvalTerm s) {
        setting = s;
        return this;
    }

    /** Whether the piece must promote on the last ranks (pawns, lances, shogi knights): the advance terms. */
    private static boolean mustAdvance(PieceType p) {
        return p.canPromote() && p.forcedRanks() > 0;
    }

    /** Side c's pieces next to the square k (of its king). */
    private static int guards(EvalContext x, Position p, int c, int k) {
        int count = 0;
        for (int sq : x.near1[k]) {
            if (!p.isEmpty(sq) && p.colorAt(sq) == c) {
                count++;
            }
        }
        return count;
    }

    /** The non-pawn pieces the enemy of side c holds in hand (what it could drop next to c's king). */
    private static int enemyHeld(EvalContext x, Position p, int c) {
        int held = 0;
        for (int type : x.handTypes) {
            if (x.handAttacker[type]) {
                held += p.handCount(c ^ 1, type);
            }
        }
        return held;
    }

    /** The enemies of side c within two squares of k (of its king), those next to it counted twice. */
    private static int attackers(EvalContext x, Position p, int c, int k) {
        int count = 0;
        for (int sq : x.near1[k]) {
            if (!p.isEmpty(sq) && p.colorAt(sq) != c) {
                count += 2;
            }
        }
        for (int sq : x.near2[k]) {
            if (!p.isEmpty(sq) && p.colorAt(sq) != c) {
                count++;
            }
        }
        return count;
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

    /** The setting behind the default of every {@code hand X}. */
    private static final EvalTerm HAND_BONUS = new EvalTerm(Scope.SETTING, "hand-bonus-percent", 10,
            "only the default of a missing 'hand X': the board value plus this percentage") {
    };

    /** The setting behind the default of every {@code mobility X}. */
    private static final EvalTerm MOBILITY_DEFAULT = new EvalTerm(Scope.SETTING, "mobility", 0,
            "only the default of a missing 'mobility X'") {
    };

    /**
     * Every term, in the order of the parameter vector (and of the keys of an .eval file). The phase is the
     * non-pawn material on the board over that of the start position (1 at the start, 0 with pawns and kings only);
     * the endgame share is 1 - phase.
     */
    static final List<EvalTerm> ALL = List.of(
            new EvalTerm(Scope.SQUARE, "", "a piece's value on the board, per piece type X but the royal one "
                    + "(key: its letter; default: estimated from its mobility on an empty board)") {
                @Override
                boolean appliesTo(EvalContext x, PieceType p) {
                    return !p.royal();
                }

                @Override
                int defaultWeight(EvalContext x, PieceType p, int setting, Map<String, Integer> laidOut) {
                    return estimate(x.rs, p);
                }

                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return 1;
                }
            },
            new EvalTerm(Scope.SIDE, "hand", "a piece of type X in hand (drop games; default: its board value plus "
                    + "hand-bonus-percent)") {
                @Override
                boolean appliesTo(EvalContext x, PieceType p) {
                    for (int t : x.handTypes) {
                        if (t == p.index()) {
                            return true;
                        }
                    }
                    return false;
                }

                @Override
                boolean accepts(EvalContext x, PieceType p) {
                    return x.rs.drops && !p.royal();
                }

                @Override
                int[] types(EvalContext x) {
                    return x.handTypes.clone();
                }

                @Override
                int defaultWeight(EvalContext x, PieceType p, int setting, Map<String, Integer> laidOut) {
                    return laidOut.getOrDefault(p.letter(), 0) * (100 + setting) / 100;
                }

                @Override
                int weighted(EvalContext x, Position p, int c, int[] weight) {
                    int s = 0;
                    for (int type : x.handTypes) {
                        s += weight[type] * p.handCount(c, type);
                    }
                    return s;
                }
            }.defaultFrom(HAND_BONUS),
            HAND_BONUS,
            new EvalTerm(Scope.SQUARE, "advance", 4, "per rank, for pieces that must promote on the last ranks "
                    + "(pawns, lances, shogi knights)") {
                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return !p.royal() && mustAdvance(p) ? x.g.relativeRank(color, sq) : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "advance2", 0, "per rank squared over the board's ranks - 1, for the same "
                    + "pieces as advance") {
                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    int rel = x.g.relativeRank(color, sq);
                    return !p.royal() && mustAdvance(p) ? rel * rel / (double) (x.g.ranks - 1) : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "pawn-center", 0, "the centralisation of the pieces of advance") {
                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return !p.royal() && mustAdvance(p) ? x.centralisation(sq) : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "center", 3, "the centralisation of the other pieces but the royal one "
                    + "(half the files minus the distance from the centre in the longer direction)") {
                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return !p.royal() && !mustAdvance(p) ? x.centralisation(sq) : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "promo-zone", 0, "a promotable piece standing in the promotion zone") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.rs.promotion != null && x.rs.promotion.zoneDepth() > 0;
                }

                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return !p.royal() && p.canPromote() && x.rs.inZone(color, sq) ? 1 : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "king-center", 0, "the royal piece's centralisation") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return p.royal() ? x.centralisation(sq) : 0;
                }
            },
            new EvalTerm(Scope.SQUARE, "king-advance", 0, "the royal piece's relative rank") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                double square(EvalContext x, PieceType p, int color, int sq) {
                    return p.royal() ? x.g.relativeRank(color, sq) : 0;
                }
            },
            new EvalTerm(Scope.SIDE, "king-shelter", 0, "a friendly piece next to the king") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int k = p.kingSquare(c);
                    return k < 0 ? 0 : guards(x, p, c, k);
                }
            },
            new EvalTerm(Scope.SIDE, "king-danger", 0, "against an enemy piece within two squares of the king "
                    + "(twice when adjacent); a positive weight is a penalty") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int k = p.kingSquare(c);
                    return k < 0 ? 0 : -attackers(x, p, c, k);
                }
            },
            new EvalTerm(Scope.SIDE, "king-hand-danger", 0, "against each eighth of (enemy non-pawn pieces in hand, at "
                    + "most 8) x (empty squares next to the king), in drop games; a positive weight is a penalty") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal && x.rs.drops;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int k = p.kingSquare(c);
                    if (k < 0) {
                        return 0;
                    }
                    int held = enemyHeld(x, p, c);
                    if (held == 0) {
                        return 0;
                    }
                    int empty = 0;
                    for (int sq : x.near1[k]) {
                        if (p.isEmpty(sq)) {
                            empty++;
                        }
                    }
                    return -Math.min(held, 8) * empty;
                }
            }.over(8),
            new EvalTerm(Scope.SIDE, "scarcity", 0, "against (4 - stones left)^2 in extinction games; a positive "
                    + "weight is a penalty") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.extinction;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int missing = Math.max(0, 4 - p.pieceCount(c));
                    return -missing * missing;
                }
            },
            new EvalTerm(Scope.MOVER, "tempo", 10, "the side to move's bonus") {
                @Override
                int count(EvalContext x, Position p, int c) {
                    return 1;
                }
            },
            new EvalTerm(Scope.SIDE, "mobility", "per square a piece of type X (neither royal nor a pawn) can move to "
                    + "or capture on (default: the setting mobility)") {
                @Override
                boolean appliesTo(EvalContext x, PieceType p) {
                    return EvalContext.hasMobility(p);
                }

                @Override
                int defaultWeight(EvalContext x, PieceType p, int setting, Map<String, Integer> laidOut) {
                    return setting;
                }

                @Override
                int weighted(EvalContext x, Position p, int c, int[] weight) {
                    return x.mobility(p, c, weight);
                }
            }.defaultFrom(MOBILITY_DEFAULT),
            MOBILITY_DEFAULT,
            new EvalTerm(Scope.SIDE, "pair", "a side owning two or more pieces of type X (neither royal nor a pawn) on "
                    + "the board: the bishop pair") {
                @Override
                boolean appliesTo(EvalContext x, PieceType p) {
                    return EvalContext.hasMobility(p);
                }

                @Override
                int weighted(EvalContext x, Position p, int c, int[] weight) {
                    int s = 0, n = p.pieceCount(c);
                    for (int i = 0; i < n; i++) {
                        int type = p.typeAt(p.pieceSquare(c, i));
                        if (weight[type] != 0 && ++x.typeCount[type] == 2) {
                            s += weight[type];
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        x.typeCount[p.typeAt(p.pieceSquare(c, i))] = 0;
                    }
                    return s;
                }
            },
            new EvalTerm(Scope.SIDE, "open-file", "per piece of type X (neither royal nor a pawn) on a file without a "
                    + "pawn of its own side: a rook on an open or half-open file (rule sets with pawns)") {
                @Override
                boolean appliesTo(EvalContext x, PieceType p) {
                    return EvalContext.hasMobility(p) && x.hasPawns;
                }

                @Override
                int weighted(EvalContext x, Position p, int c, int[] weight) {
                    int s = 0;
                    int[] ownPawns = x.pawnsOnFile[c];
                    for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                        int sq = p.pieceSquare(c, i);
                        int wt = weight[p.typeAt(sq)];
                        if (wt != 0 && ownPawns[x.g.file(sq)] == 0) {
                            s += wt;
                        }
                    }
                    return s;
                }
            }.alternating().pawns(),
            new EvalTerm(Scope.SIDE, "passed", 0, "per squared relative rank of a passed pawn (no enemy pawn ahead on "
                    + "its own or the next files)") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.passedRanks(c);
                }
            }.pawns(),
            new EvalTerm(Scope.BOARD, "passed-eg", 0, "as passed, times the endgame share") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return (x.passedRanks(0) - x.passedRanks(1)) * x.eg;
                }
            }.over(256).pawns().phase(),
            new EvalTerm(Scope.SIDE, "doubled", 0, "per pawn beyond the first on a file") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int doubled = 0;
                    for (int n : x.pawnsOnFile[c]) {
                        doubled += Math.max(0, n - 1);
                    }
                    return doubled;
                }
            }.pawns(),
            new EvalTerm(Scope.SIDE, "isolated", 0, "per pawn without friendly pawns on the next files") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    Geometry g = x.g;
                    int[] own = x.pawnsOnFile[c];
                    int isolated = 0;
                    for (int i = 0, n = x.pawnCount[c]; i < n; i++) {
                        int f = g.file(x.pawnSquares[c][i]);
                        if ((f == 0 || own[f - 1] == 0) && (f == g.files - 1 || own[f + 1] == 0)) {
                            isolated++;
                        }
                    }
                    return isolated;
                }
            }.pawns(),
            new EvalTerm(Scope.BOARD, "king-center-eg", 0, "the royal piece's centralisation (each rounded to a half) "
                    + "times the endgame share, with both royal pieces on the board") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int k0 = p.kingSquare(0), k1 = p.kingSquare(1);
                    return k0 < 0 || k1 < 0 ? 0 : (x.kingCentral2[k0] - x.kingCentral2[k1]) * x.eg;
                }
            }.over(512).phase(),
            new EvalTerm(Scope.SIDE, "mop-up", 0, "for a side far ahead in material (more than twice the other's "
                    + "non-pawn material, board and hand, and ahead by over a sixteenth of the start's): per square "
                    + "the enemy royal piece stands from the centre and per square its own royal piece is nearer "
                    + "to it than the board's span (driving a bare king to the edge to mate it)") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal && !x.extinction;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.farAhead(p, c) ? x.mopUp(p, c) : 0;
                }
            }.over(2).material(),
            new EvalTerm(Scope.SIDE, "mop-up-bare", 0, "mop-up's count where the enemy has its royal piece alone "
                    + "(board and hand) and the side a piece that is neither a pawn nor royal, whatever the material "
                    + "lead: a learned net that scores a bare king alike on every square still drives it to the edge, "
                    + "and no other position is touched") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal && !x.extinction;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.bareKing(p, c) ? x.mopUp(p, c) : 0;
                }
            }.over(2),
            new EvalTerm(Scope.SIDE, "pawn-threat", 0, "per enemy piece (neither royal nor a pawn) a pawn of the "
                    + "side could capture") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.pawnThreats(p, c);
                }
            }.pawns(),
            new EvalTerm(Scope.SIDE, "threat", 0, "per enemy piece (neither royal nor a pawn) that a less valuable "
                    + "piece of the side attacks, neither royal nor a pawn, and no pawn of the side attacks (a knight "
                    + "attacking a rook)") {
                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.threats(p, c);
                }
            },
            new EvalTerm(Scope.SIDE, "hanging", 0, "per enemy piece (not royal) the side attacks and no enemy piece "
                    + "defends") {
                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.hanging(p, c);
                }
            },
            new EvalTerm(Scope.SIDE, "king-attack", 0, "per square next to the enemy royal piece the side attacks") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.kingZone(p, c);
                }
            },
            new EvalTerm(Scope.SIDE, "king-attack2", 0, "king-attack's count squared, over 4 (an attack on the king "
                    + "grows faster than the squares it reaches)") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int n = x.kingZone(p, c);
                    return n * n;
                }
            }.over(4),
            new EvalTerm(Scope.SIDE, "passed-free", 0, "per squared relative rank of a passed pawn whose square in "
                    + "front is empty") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return x.passedFree(p, c);
                }
            }.pawns(),
            new EvalTerm(Scope.BOARD, "passed-king-eg", 0, "per passed pawn, its relative rank times the enemy royal "
                    + "piece's distance to the square in front of it minus its own royal piece's, times the endgame "
                    + "share") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.hasPawns && x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    return (x.passedKing(p, 0) - x.passedKing(p, 1)) * x.eg;
                }
            }.over(256).pawns().phase(),
            perSquare("psq", false, "a piece of type X (the royal one too) on the square SQ from its side's view: key "
                    + "'psq X SQ', e.g. 'psq N e4' (a black knight on e5 in chess); the piece-square tables, only in "
                    + "rule sets whose .eval file names one of their keys"),
            perSquare("psq-eg", true, "as psq, times the endgame share: key 'psq-eg X SQ' (the tables' endgame "
                    + "half, tapered by the phase)"),
            new EvalTerm(Scope.SIDE, "king-danger2", 0, "against a quarter of the square of the king's danger: "
                    + "king-danger's count (enemy pieces within two squares, twice when adjacent) plus enemy "
                    + "non-pawn pieces in hand (at most 8) less king-shelter's guards, when above 0; grows fast as "
                    + "an attack gathers. A positive weight is a penalty") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int k = p.kingSquare(c);
                    if (k < 0) {
                        return 0;
                    }
                    int held = enemyHeld(x, p, c);
                    int danger = attackers(x, p, c, k) + Math.min(held, 8) - guards(x, p, c, k);
                    return danger <= 0 ? 0 : -danger * danger;
                }
            }.over(4),
            new EvalTerm(Scope.SIDE, "king-safety", 0, "Stockfish 12's classical king danger, per tenth of a unit: "
                    + "the danger D the side poses to the enemy royal piece (attackers of the squares around it, "
                    + "squares there only the king defends, attacks next to it, safe checks; EvalContext.kingDanger), "
                    + "when above 100, as D x D / 4096 times the phase. Bitboard rule sets only (boards up to 64 "
                    + "squares); a positive weight is a bonus for the attacker") {
                @Override
                boolean appliesTo(EvalContext x) {
                    return x.royal;
                }

                @Override
                int count(EvalContext x, Position p, int c) {
                    int d = x.kingDanger(p, c);
                    return d <= 100 ? 0 : d * d / 4096 * (256 - x.eg) / 256;
                }
            }.over(10).phase());
}
