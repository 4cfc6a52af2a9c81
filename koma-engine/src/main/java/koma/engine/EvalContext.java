package koma.engine;

import java.util.Arrays;

import koma.rules.Geometry;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * What the evaluation's terms ({@link EvalTerm}) read besides the position: the rule set's fixed tables, and the
 * analyses several terms share (the pawns on each file, the game phase), made once per evaluation by
 * {@link Evaluation} when a term that needs them is switched on. Preallocated scratch, so evaluating allocates
 * nothing; one per {@link Evaluation}, which is one per search thread.
 */
final class EvalContext {
    final RuleSet rs;
    final Geometry g;
    /** Whether the rule set has a royal piece, and whether it is won by capturing every piece (extinction). */
    final boolean royal, extinction;
    /** Whether the rule set has pawns (the pawn-structure and open-file terms exist only then). */
    final boolean hasPawns;
    /** Types that can be held in hand, and whether each counts as an attacker for king-hand-danger. */
    final int[] handTypes;
    final boolean[] handAttacker;
    /** kingCentral2[sq]: twice the centralisation of a square, rounded (the king-center-eg coefficient). */
    final int[] kingCentral2;
    /** edge2[sq]: twice how far a square is from the centre (0 at the most central squares); the mop-up term's. */
    final int[] edge2;
    /** The board's span: the most steps a king needs between two squares (the longer side minus one). */
    final int span;
    /** near1[sq], near2[sq]: the squares at distance 1 (next to sq), and at distance exactly 2, on the board. */
    final int[][] near1, near2;
    /** phaseValue[type]: its board value if it is neither royal nor a pawn, else 0 (set with the weights). */
    private final int[] phaseValue;
    /** Scratch: pieces of each type of one side (the pair term counts in it and clears it again). */
    final int[] typeCount;
    /**
     * ownView[c][sq]: the square sq as side c sees it, that is the first player's square in the same place of the
     * start position's symmetry (the ranks mirrored when the second player's camp is the first's reflected across
     * the middle rank, as in chess; the board turned round otherwise, as in shogi); the identity for the first
     * player. The squares of the per-square tables ({@code psq X SQ}) are named from each side's own view.
     */
    final int[][] ownView;
    /**
     * pawnHits[code][sq]: the squares a pawn of that piece code on sq captures on (its one-step captures, from the
     * first player's moves seen through {@link #ownView}); null for codes that are not pawns.
     */
    final int[][][] pawnHits;
    /** The square of each name ({@link Geometry#squareName}), for the keys of the per-square tables. */
    final java.util.Map<String, Integer> squareByName = new java.util.HashMap<>();

    /** pawnsOnFile[c][f]: pawns of side c on file f; set by {@link #scanPawns}. */
    final int[][] pawnsOnFile;
    /** Per file: the highest rank of the second player's pawns (-1: none), the lowest of the first's (ranks: none). */
    final int[] maxRank1, minRank0;
    /** pawnSquares[c][0..pawnCount[c]-1]: the squares of side c's pawns; set by {@link #scanPawns}. */
    final int[][] pawnSquares;
    final int[] pawnCount = new int[2];
    /** Each side's {@link #passedRanks}, and whether they are known for the position of the last pawn scan. */
    private final int[] passed = new int[2];
    private boolean passedKnown;
    /** Each side's {@link #passedFree} and {@link #passedKing}, and whether they are those of the last pawn scan. */
    private final int[] passedFree = new int[2], passedKing = new int[2];
    private boolean passedDetailKnown;

    /** Each side's non-pawn, non-royal material on board and in hand, and whether it is that of this position. */
    private final int[] sideMaterial = new int[2];
    private boolean materialKnown;

    /** boardValue[type]: the type's board value (0 for the royal piece; set with the weights), for attackers. */
    private final int[] boardValue;
    /** Whether each type is a pawn, or royal. */
    private final boolean[] pawnType, royalType;
    /**
     * Each side's {@link #threats}, {@link #hanging} and {@link #kingZone} counts, and whether they are those of
     * this position.
     */
    private final int[] threats = new int[2], hanging = new int[2], zone = new int[2];
    /** Whether each side has a piece of the most valuable type (for {@link #kingDanger}), set with the threats. */
    private final boolean[] hasStrongest = new boolean[2];
    private boolean threatsKnown;
    /** Attacker values for {@link #measureThreatsByScan}: the board values, pawns -1 (the cheapest attackers). */
    private final int[] pawnsFirst;
    /**
     * Scratch of {@link #measureThreatsOnBits}: per side, the squares its pieces attack, those its pawns attack, and
     * each non-pawn, non-royal piece's attack set and value.
     */
    private final long[] sideAttacks = new long[2], pawnAttacks = new long[2];
    private final long[][] attackSet;
    private final int[][] attackValue;
    /** Scratch of {@link #measureThreatsOnBits}: the type and square of each piece of {@link #attackSet}. */
    private final int[][] attackType, attackSquare;
    /**
     * Per type: whether every step of it both moves and captures, on any move (no move-only, capture-only or
     * first-move step), so that the squares it can move to or capture on are its attack set less its own side's
     * pieces (read by {@link #mobility}).
     */
    private final boolean[] movesAreAttacks;
    /**
     * Scratch of {@link #measureThreatsOnBits}: per side, its pieces' squares and the squares its non-royal pieces
     * attack (what defends a square next to its king besides the king).
     */
    private final long[] occupied = new long[2], guarded = new long[2];
    /** Scratch of {@link #kingDanger}: per piece type, the squares it would check the enemy king from. */
    private final long[] checkSquares;
    /** Whether each type moves the same to the left as to the right (its check squares are then on bitboards). */
    private final boolean[] symmetric;
    /** Whether each type is the most valuable non-royal one (chess's queen): a side without one attacks less. */
    private final boolean[] strongest;
    /**
     * The weights inside {@link #kingDanger}, in Stockfish 12's units (its classical king danger): per attacker
     * squared (Stockfish weighs each attacker 10-81 by type; 60 is their typical mean), per weak square around the
     * king, per attack on a square next to it, per piece with a safe check (645-1084 by type there), and less
     * without the most valuable piece.
     */
    static final int DANGER_ATTACKER = 60, DANGER_WEAK = 185, DANGER_ZONE = 69, DANGER_CHECK = 800,
            DANGER_NO_STRONGEST = 873;
    private final int[] attackCount = new int[2];
    /** zoneBits[sq]: the squares next to sq as a bitboard (boards of at most 64 squares; else empty). */
    private final long[] zoneBits;

    /** Non-pawn, non-royal material on the board at the start (the phase is 256 there). */
    private int startMaterial = 1;
    /** The endgame share of the position in 256ths (256 minus the phase); set by {@link #measurePhase}. */
    int eg;

    EvalContext(RuleSet rs) {
        this.rs = rs;
        this.g = rs.geometry;
        int n = rs.pieceCount();
        royal = rs.royalType >= 0;
        extinction = rs.endRules.extinction();
        hasPawns = rs.pieces.stream().anyMatch(p -> p.pawn() && !p.royal());
        handTypes = rs.drops ? Position.start(rs).handTypes() : new int[0];
        handAttacker = new boolean[n];
        for (int t : handTypes) {
            handAttacker[t] = !rs.piece(t).pawn();
        }
        kingCentral2 = new int[g.squares];
        for (int sq = 0; sq < g.squares; sq++) {
            kingCentral2[sq] = (int) Math.round(2 * centralisation(sq));
        }
        int central = Arrays.stream(kingCentral2).max().orElse(0);
        edge2 = new int[g.squares];
        for (int sq = 0; sq < g.squares; sq++) {
            edge2[sq] = central - kingCentral2[sq];
        }
        span = Math.max(g.files, g.ranks) - 1;
        near1 = new int[g.squares][];
        near2 = new int[g.squares][];
        for (int sq = 0; sq < g.squares; sq++) {
            near1[sq] = around(sq, 1);
            near2[sq] = around(sq, 2);
        }
        phaseValue = new int[n];
        boardValue = new int[n];
        pawnType = new boolean[n];
        pawnsFirst = new int[n];
        zoneBits = new long[g.squares <= 64 ? g.squares : 0];
        attackSet = new long[2][g.squares];
        attackValue = new int[2][g.squares];
        attackType = new int[2][g.squares];
        attackSquare = new int[2][g.squares];
        movesAreAttacks = new boolean[n];
        checkSquares = new long[n];
        symmetric = new boolean[n];
        strongest = new boolean[n];
        royalType = new boolean[n];
        for (PieceType p : rs.pieces) {
            pawnType[p.index()] = p.pawn();
            royalType[p.index()] = p.royal();
            movesAreAttacks[p.index()] = p.moves().stream().allMatch(m -> m.canMove() && m.canCapture()
                    && !m.initialOnly());
            symmetric[p.index()] = p.moves().stream().allMatch(m -> p.moves().stream().anyMatch(o ->
                    o.dx() == -m.dx() && o.dy() == m.dy() && o.range() == m.range() && o.jump() == m.jump()
                            && o.canMove() == m.canMove() && o.canCapture() == m.canCapture()
                            && o.initialOnly() == m.initialOnly() && o.lame() == m.lame()));
        }
        typeCount = new int[n];
        pawnsOnFile = new int[2][g.files];
        maxRank1 = new int[g.files];
        minRank0 = new int[g.files];
        pawnSquares = new int[2][g.squares];
        ownView = new int[2][g.squares];
        boolean mirrored = mirroredStart(Position.start(rs));
        for (int sq = 0; sq < g.squares; sq++) {
            int f = g.file(sq), r = g.rank(sq);
            ownView[0][sq] = sq;
            ownView[1][sq] = g.square(mirrored ? f : g.files - 1 - f, g.ranks - 1 - r);
            squareByName.put(g.squareName(sq), sq);
        }
        for (int sq = 0; sq < zoneBits.length; sq++) {
            for (int z : near1[sq]) {
                zoneBits[sq] |= 1L << z;
            }
        }
        pawnHits = new int[Position.pieceCodeCount(rs)][][];
        for (PieceType p : rs.pieces) {
            if (!p.pawn()) {
                continue;
            }
            for (int color = 0; color < 2; color++) {
                int[] view = ownView[color];
                int[][] hits = new int[g.squares][];
                for (int sq = 0; sq < g.squares; sq++) {
                    int own = view[sq], f = g.file(own), r = g.rank(own);
                    hits[sq] = p.moves().stream().filter(m -> m.canCapture() && !m.initialOnly()
                                    && g.onBoard(f + m.dx(), r + m.dy()))
                            .mapToInt(m -> view[g.square(f + m.dx(), r + m.dy())]).distinct().toArray();
                }
                pawnHits[Position.pieceCode(color, p.index())] = hits;
            }
        }
    }

    /** Enemy pieces (neither royal nor pawns) that side c's pawns capture on: read by the term pawn-threat. */
    int pawnThreats(Position p, int c) {
        int count = 0;
        int[] squares = pawnSquares[c];
        for (int i = 0, n = pawnCount[c]; i < n; i++) {
            int sq = squares[i];
            for (int target : pawnHits[p.codeAt(sq)][sq]) {
                if (!p.isEmpty(target) && p.colorAt(target) != c && hasMobility(rs.piece(p.typeAt(target)))) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Whether the start position's second player's pieces are the first's with the ranks mirrored (chess). */
    private boolean mirroredStart(Position start) {
        for (int sq = 0; sq < g.squares; sq++) {
            int m = g.square(g.file(sq), g.ranks - 1 - g.rank(sq));
            if (start.isEmpty(sq) != start.isEmpty(m)) {
                return false;
            }
            if (!start.isEmpty(sq) && (start.colorAt(sq) == start.colorAt(m) || start.typeAt(sq) != start.typeAt(m))) {
                return false;
            }
        }
        return true;
    }

    /** The squares on the board at distance d (in the longer direction) from sq. */
    private int[] around(int sq, int d) {
        int kf = g.file(sq), kr = g.rank(sq);
        return java.util.stream.IntStream.rangeClosed(-d, d).boxed()
                .flatMap(df -> java.util.stream.IntStream.rangeClosed(-d, d)
                        .filter(dr -> Math.max(Math.abs(df), Math.abs(dr)) == d && g.onBoard(kf + df, kr + dr))
                        .mapToObj(dr -> g.square(kf + df, kr + dr)))
                .mapToInt(Integer::intValue).toArray();
    }

    /** Sets the board values the phase weighs pieces by, and measures the start position's material with them. */
    void setValues(int[] value) {
        for (PieceType p : rs.pieces) {
            phaseValue[p.index()] = p.royal() || p.pawn() ? 0 : value[p.index()];
            boardValue[p.index()] = value[p.index()];
            pawnsFirst[p.index()] = p.pawn() ? -1 : value[p.index()];
        }
        startMaterial = Math.max(1, phaseMaterial(Position.start(rs)));
        int max = 0;
        for (PieceType p : rs.pieces) {
            max = p.royal() ? max : Math.max(max, value[p.index()]);
        }
        for (PieceType p : rs.pieces) {
            strongest[p.index()] = !p.royal() && value[p.index()] == max;
        }
    }

    /** How central a square is: half the files minus its distance from the centre in the longer direction. */
    double centralisation(int sq) {
        double df = Math.abs(g.file(sq) - (g.files - 1) / 2.0), dr = Math.abs(g.rank(sq) - (g.ranks - 1) / 2.0);
        return g.files / 2.0 - Math.max(df, dr);
    }

    /** Pieces with per-type piece terms (mobility, pair, open file): all but royal pieces and pawns. */
    static boolean hasMobility(PieceType p) {
        return !p.royal() && !p.pawn();
    }

    /** Records each side's pawns and, per file, their counts and the ranks of the most advanced enemy blockers. */
    void scanPawns(Position p) {
        Arrays.fill(pawnsOnFile[0], 0);
        Arrays.fill(pawnsOnFile[1], 0);
        Arrays.fill(maxRank1, -1);
        Arrays.fill(minRank0, g.ranks);
        for (int c = 0; c < 2; c++) {
            int[] own = pawnsOnFile[c], squares = pawnSquares[c];
            int count = 0;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                if (!rs.piece(p.typeAt(sq)).pawn()) {
                    continue;
                }
                squares[count++] = sq;
                int f = g.file(sq), r = g.rank(sq);
                own[f]++;
                if (c == 0) {
                    minRank0[f] = Math.min(minRank0[f], r);
                } else {
                    maxRank1[f] = Math.max(maxRank1[f], r);
                }
            }
            pawnCount[c] = count;
        }
        passedKnown = false;
        passedDetailKnown = false;
    }

    /**
     * The sum of squared relative ranks of side c's passed pawns (no enemy pawn ahead on its own or the next files),
     * read by the terms passed and passed-eg: measured for both sides once per pawn scan.
     */
    int passedRanks(int c) {
        if (!passedKnown) {
            passed[0] = measurePassed(0);
            passed[1] = measurePassed(1);
            passedKnown = true;
        }
        return passed[c];
    }

    private int measurePassed(int c) {
        int sum = 0;
        for (int i = 0, n = pawnCount[c]; i < n; i++) {
            int sq = pawnSquares[c][i];
            if (isPassed(c, sq)) {
                int rel = g.relativeRank(c, sq);
                sum += rel * rel;
            }
        }
        return sum;
    }

    /** Whether side c's pawn on sq is passed: no enemy pawn ahead of it on its own or the next files. */
    private boolean isPassed(int c, int sq) {
        int f = g.file(sq), r = g.rank(sq);
        for (int ff = Math.max(0, f - 1); ff <= Math.min(g.files - 1, f + 1); ff++) {
            if (c == 0 ? maxRank1[ff] > r : minRank0[ff] < r) {
                return false;
            }
        }
        return true;
    }

    /**
     * The squared relative ranks of side c's passed pawns whose square in front is empty: read by the term
     * passed-free.
     */
    int passedFree(Position p, int c) {
        if (!passedDetailKnown) {
            measurePassedDetail(p);
        }
        return passedFree[c];
    }

    /**
     * Over side c's passed pawns, the relative rank times (the enemy royal piece's distance to the square in front
     * minus its own royal piece's), in king steps; 0 without both royal pieces: read by the term passed-king-eg.
     */
    int passedKing(Position p, int c) {
        if (!passedDetailKnown) {
            measurePassedDetail(p);
        }
        return passedKing[c];
    }

    /** Sets {@link #passedFree} and {@link #passedKing} for both sides, from the last pawn scan. */
    private void measurePassedDetail(Position p) {
        for (int c = 0; c < 2; c++) {
            int free = 0, king = 0;
            int own = p.kingSquare(c), enemy = p.kingSquare(c ^ 1);
            for (int i = 0, n = pawnCount[c]; i < n; i++) {
                int sq = pawnSquares[c][i];
                int r = g.rank(sq) + (c == 0 ? 1 : -1);
                if (r < 0 || r >= g.ranks || !isPassed(c, sq)) {
                    continue;
                }
                int front = g.square(g.file(sq), r), rel = g.relativeRank(c, sq);
                if (p.isEmpty(front)) {
                    free += rel * rel;
                }
                if (own >= 0 && enemy >= 0) {
                    king += rel * (steps(enemy, front) - steps(own, front));
                }
            }
            passedFree[c] = free;
            passedKing[c] = king;
        }
        passedDetailKnown = true;
    }

    /** King steps between two squares ({@link Geometry#kingSteps}). */
    int steps(int a, int b) {
        return g.kingSteps(a, b);
    }

    /**
     * Whether side c is far ahead in material: its non-pawn, non-royal material on the board and in hand is more
     * than twice the other side's and more than it by over a sixteenth of the start position's (both sides').
     * Both sides' material is measured once per position ({@link #newPosition} forgets it).
     */
    boolean farAhead(Position p, int c) {
        int own = material(p, c), other = material(p, c ^ 1);
        return own > 2 * other && (own - other) * 16 > startMaterial;
    }

    /**
     * The mop-up terms' count for side c: twice the enemy royal piece's distance from the centre plus twice how much
     * nearer than the board's span c's royal piece stands to it; 0 without both royal pieces on the board.
     */
    int mopUp(Position p, int c) {
        int own = p.kingSquare(c), enemy = p.kingSquare(c ^ 1);
        return own < 0 || enemy < 0 ? 0 : edge2[enemy] + 2 * (span - steps(own, enemy));
    }

    /**
     * Whether side c's enemy has its royal piece alone, on the board and in hand, while c has a piece that is neither
     * a pawn nor royal (on the board or in hand): the term mop-up-bare's condition. O(1) on the board; the hands and
     * the material are read only when the enemy has one piece left (so that term is not marked to have the material
     * summed before every evaluation).
     */
    boolean bareKing(Position p, int c) {
        if (p.pieceCount(c ^ 1) != 1) {
            return false;
        }
        for (int t : handTypes) {
            if (p.handCount(c ^ 1, t) != 0) {
                return false;
            }
        }
        return material(p, c) > 0;
    }

    /** Side c's non-pawn, non-royal material on the board and in hand, measured on first use in a position. */
    private int material(Position p, int c) {
        if (!materialKnown) {
            measureMaterial(p);
        }
        return sideMaterial[c];
    }

    /** Forgets what was measured on the last position: called before each evaluation. */
    void newPosition() {
        materialKnown = false;
        threatsKnown = false;
    }

    /**
     * Enemy pieces (neither royal nor pawns) that a piece of side c worth less attacks, neither royal nor a pawn,
     * while none of c's pawns attacks them (pawn-threat counts those): read by the term threat.
     */
    int threats(Position p, int c) {
        if (!threatsKnown) {
            measureThreats(p);
        }
        return threats[c];
    }

    /** Enemy pieces (not royal) that side c attacks and no enemy piece defends: read by the term hanging. */
    int hanging(Position p, int c) {
        if (!threatsKnown) {
            measureThreats(p);
        }
        return hanging[c];
    }

    /** Squares next to the enemy royal piece that side c attacks: read by the terms king-attack and king-attack2. */
    int kingZone(Position p, int c) {
        if (!threatsKnown) {
            measureThreats(p);
        }
        return zone[c];
    }

    /**
     * The danger side c poses to the enemy royal piece, in Stockfish 12's units, on bitboard positions (0 elsewhere
     * and without an enemy royal piece): {@link #DANGER_ATTACKER} x (c's non-pawn pieces attacking the king or a
     * square next to it) squared, plus {@link #DANGER_WEAK} per such square c attacks that no enemy piece but the king
     * defends, {@link #DANGER_ZONE} per attack of those pieces on a square next to the king, {@link #DANGER_CHECK} per
     * piece that could give check from a square where no enemy piece attacks it, less {@link #DANGER_NO_STRONGEST}
     * when c has none of its most valuable type. Read by the term king-safety.
     */
    int kingDanger(Position p, int c) {
        if (!p.hasBitboards()) {
            return 0;
        }
        if (!threatsKnown) {
            measureThreats(p);
        }
        int k = p.kingSquare(c ^ 1);
        return k < 0 ? 0 : dangerOnBits(p, c, k);
    }

    /**
     * The term mobility of side c: the sum over its pieces (neither royal nor pawns) of {@code weight[type]} times the
     * squares the piece can move to or capture on ({@link Position#mobility}). On bitboards it is read from the attack
     * sets the threat terms measure, for types whose moves are their attacks ({@link #movesAreAttacks}): one count
     * per piece instead of walking its moves again.
     */
    int mobility(Position p, int c, int[] weight) {
        int s = 0;
        if (!p.hasBitboards()) {
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                int type = p.typeAt(sq);
                if (weight[type] != 0 && !royalType[type] && !pawnType[type]) {
                    s += weight[type] * p.mobility(sq);
                }
            }
            return s;
        }
        if (!threatsKnown) {
            measureThreats(p);
        }
        long free = ~occupied[c];
        long[] sets = attackSet[c];
        int[] types = attackType[c];
        for (int k = 0, n = attackCount[c]; k < n; k++) {
            int type = types[k];
            int wt = weight[type];
            if (wt != 0) {
                s += wt * (movesAreAttacks[type] ? Long.bitCount(sets[k] & free) : p.mobility(attackSquare[c][k]));
            }
        }
        return s;
    }

    /**
     * Sets {@link #threats}, {@link #hanging} and {@link #kingZone} for both sides, on bitboards where the position
     * keeps them.
     */
    private void measureThreats(Position p) {
        if (p.hasBitboards()) {
            measureThreatsOnBits(p);
        } else {
            measureThreatsByScan(p);
        }
        threatsKnown = true;
    }

    /**
     * Each side's {@link #threats}, {@link #hanging} and {@link #kingZone}, {@code {threats0, threats1, hanging0,
     * hanging1, zone0, zone1}}, counted on bitboards or by the attacker searches (for the test that compares them).
     */
    int[] threatCounts(Position p, boolean onBits) {
        if (onBits) {
            measureThreatsOnBits(p);
        } else {
            measureThreatsByScan(p);
        }
        threatsKnown = false;
        return new int[] {threats[0], threats[1], hanging[0], hanging[1], zone[0], zone[1]};
    }

    /**
     * The threats and undefended pieces from each side's attack sets: one attack bitboard per piece, then a bit
     * test per enemy piece (and, for the pieces a non-pawn attacks, one per cheaper attacker).
     */
    private void measureThreatsOnBits(Position p) {
        hasStrongest[0] = hasStrongest[1] = false;
        for (int c = 0; c < 2; c++) {
            long all = 0, pawns = 0, own = 0, guard = 0;
            int k = 0;
            for (int i = 0, n = p.pieceCount(c); i < n; i++) {
                int sq = p.pieceSquare(c, i);
                int type = p.typeAt(sq);
                long a = p.attackBits(sq);
                all |= a;
                own |= 1L << sq;
                hasStrongest[c] |= strongest[type];
                if (pawnType[type]) {
                    pawns |= a;
                } else if (!royalType[type]) {
                    attackSet[c][k] = a;
                    attackType[c][k] = type;
                    attackSquare[c][k] = sq;
                    attackValue[c][k++] = boardValue[type];
                }
                if (!royalType[type]) {
                    guard |= a;
                }
            }
            sideAttacks[c] = all;
            pawnAttacks[c] = pawns;
            attackCount[c] = k;
            occupied[c] = own;
            guarded[c] = guard;
        }
        for (int c = 0; c < 2; c++) {
            int t = 0, h = 0, enemy = c ^ 1;
            long[] sets = attackSet[c];
            int[] values = attackValue[c];
            for (int i = 0, n = p.pieceCount(enemy); i < n; i++) {
                int sq = p.pieceSquare(enemy, i);
                int type = p.typeAt(sq);
                long bit = 1L << sq;
                if (royalType[type] || (sideAttacks[c] & bit) == 0) {
                    continue;
                }
                if ((sideAttacks[enemy] & bit) == 0) {
                    h++;
                }
                if (!pawnType[type] && (pawnAttacks[c] & bit) == 0) {
                    for (int j = 0, m = attackCount[c]; j < m; j++) {
                        if (values[j] < boardValue[type] && (sets[j] & bit) != 0) {
                            t++;
                            break;
                        }
                    }
                }
            }
            threats[c] = t;
            hanging[c] = h;
            int k = p.kingSquare(enemy);
            zone[c] = k < 0 ? 0 : Long.bitCount(sideAttacks[c] & zoneBits[k]);
        }
    }

    /**
     * {@link #kingDanger} of side c against the enemy royal piece on k, from the attack sets of the last
     * {@link #measureThreatsOnBits}.
     */
    private int dangerOnBits(Position p, int c, int k) {
        int enemy = c ^ 1;
        long ring = zoneBits[k] | 1L << k;
        long safe = ~occupied[c] & ~sideAttacks[enemy];
        Arrays.fill(checkSquares, -1L); // -1: not computed (no piece attacks every square)
        int attackers = 0, zoneAttacks = 0, checks = 0;
        long[] sets = attackSet[c];
        int[] types = attackType[c];
        for (int j = 0, m = attackCount[c]; j < m; j++) {
            long a = sets[j];
            if ((a & ring) != 0) {
                attackers++;
                zoneAttacks += Long.bitCount(a & zoneBits[k]);
            }
            int type = types[j];
            if (symmetric[type]) {
                if (checkSquares[type] == -1L) {
                    checkSquares[type] = p.attackBitsAs(Position.pieceCode(enemy, type), k);
                }
                if ((a & checkSquares[type] & safe) != 0) {
                    checks++;
                }
            }
        }
        int weak = Long.bitCount(ring & sideAttacks[c] & ~guarded[enemy]);
        return DANGER_ATTACKER * attackers * attackers + DANGER_WEAK * weak + DANGER_ZONE * zoneAttacks
                + DANGER_CHECK * checks - (hasStrongest[c] ? 0 : DANGER_NO_STRONGEST);
    }

    /**
     * The same by attacker searches, on any board: per enemy piece the least valuable attacker with pawns counted
     * cheapest (so a pawn is found whenever one attacks), and for an attacked one whether any enemy piece defends
     * ({@link Position#attacked}, as for the squares next to the king).
     */
    private void measureThreatsByScan(Position p) {
        for (int c = 0; c < 2; c++) {
            int t = 0, h = 0;
            for (int i = 0, n = p.pieceCount(c ^ 1); i < n; i++) {
                int sq = p.pieceSquare(c ^ 1, i);
                int type = p.typeAt(sq);
                if (royalType[type]) {
                    continue;
                }
                int a = p.cheapestAttacker(sq, c, pawnsFirst);
                if (a < 0) {
                    continue;
                }
                int by = p.typeAt(a);
                if (!pawnType[type] && !pawnType[by] && !royalType[by] && boardValue[by] < boardValue[type]) {
                    t++;
                }
                if (!p.attacked(sq, c ^ 1)) {
                    h++;
                }
            }
            threats[c] = t;
            hanging[c] = h;
            int k = p.kingSquare(c ^ 1), z = 0;
            if (k >= 0) {
                for (int sq : near1[k]) {
                    if (p.attacked(sq, c)) {
                        z++;
                    }
                }
            }
            zone[c] = z;
        }
    }

    /**
     * Sets each side's material from the board sums of {@link #boardMaterial} (adding what is in
     * hand), so that {@link #farAhead} need not go over the pieces again.
     */
    void setBoardMaterial(Position p, int board0, int board1) {
        sideMaterial[0] = board0 + handMaterial(p, 0);
        sideMaterial[1] = board1 + handMaterial(p, 1);
        materialKnown = true;
    }

    private int handMaterial(Position p, int c) {
        int material = 0;
        for (int t : handTypes) {
            material += p.handCount(c, t) * phaseValue[t];
        }
        return material;
    }

    /** Sets {@link #sideMaterial}: each side's non-pawn, non-royal material on the board and in hand. */
    private void measureMaterial(Position p) {
        for (int c = 0; c < 2; c++) {
            sideMaterial[c] = boardMaterial(p, c) + handMaterial(p, c);
        }
        materialKnown = true;
    }

    /** Sets {@link #eg}: 256 minus the phase (256 with the start position's non-pawn material, 0 with none). */
    void measurePhase(Position p) {
        setPhase(phaseMaterial(p));
    }

    /**
     * Sets {@link #eg} from both sides' non-pawn, non-royal material on the board, summed by the fast path with
     * {@link #boardMaterial} (what {@link #measurePhase} would sum again).
     */
    void setPhase(int boardMaterial) {
        eg = 256 - Math.min(256, boardMaterial * 256 / startMaterial);
    }

    /** The non-pawn, non-royal material of both sides on the board. */
    private int phaseMaterial(Position p) {
        return boardMaterial(p, 0) + boardMaterial(p, 1);
    }

    /**
     * Side c's non-royal material on the board when it has no pawn there, else -1 (the search's pawnless-scale;
     * {@link #boardMaterial} without the early return).
     */
    int pawnlessMaterial(Position p, int c) {
        int material = 0;
        for (int i = 0, n = p.pieceCount(c); i < n; i++) {
            int value = pawnsFirst[p.typeAt(p.pieceSquare(c, i))];
            if (value < 0) {
                return -1;
            }
            material += value;
        }
        return material;
    }

    /** Side c's non-pawn, non-royal material on the board. */
    int boardMaterial(Position p, int c) {
        int material = 0;
        for (int t = 0; t < phaseValue.length; t++) {
            if (phaseValue[t] != 0) {
                material += p.codeCount(Position.pieceCode(c, t)) * phaseValue[t];
            }
        }
        return material;
    }
}
