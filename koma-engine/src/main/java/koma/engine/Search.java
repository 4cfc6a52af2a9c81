package koma.engine;

import java.util.function.Consumer;

import koma.engine.nnue.Accumulators;
import koma.engine.nnue.Kernels;
import koma.engine.nnue.Network;
import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.Outcome;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Alpha-beta search shared by every rule set: iterative deepening, principal-variation search with a
 * transposition table, quiescence on captures and promotions (captures that lose by static exchange skipped), move
 * ordering (hash move, MVV-LVA with captures that lose by static exchange last, killers, counter moves, history with
 * gravity and a malus, and where the rule set says so a continuation history over the two previous moves; history
 * and counter moves carried over between a game's searches, halved), null-move
 * pruning, reverse futility, futility, late-move and static-exchange pruning near the leaves,
 * internal iterative reduction, late-move reductions adjusted by history, check extensions, mate scores, and the
 * end rules of
 * RULES.md inside the tree (repetition with the shogi family's perpetual-check loss, the 50-move rule,
 * dead positions, extinction, stalemate as draw or loss). Buffers are allocated once; the search allocates
 * nothing per node. With {@link #setThreads} above 1 it is a Lazy SMP search: helper searches (one per extra
 * thread, each with its own position copy, killers and history) run the same root through the shared
 * transposition table, odd helpers one ply deeper, until this search has its answer; only this one reports.
 */
public final class Search {
    public static final int INFINITE = 32000, MATE = 31000, MATE_BOUND = 30000;
    static final int MAX_PLY = 128;
    /** How far back the search looks for a repetition in drop games, where no move is irreversible. */
    static final int REPETITION_WINDOW = 100;
    /** At most this many pieces on the board and none in hand: the side may be stalemated ({@link #mayLackMoves}). */
    static final int FEW_PIECES = 3;
    /** History scores stay within +-HISTORY_MAX; at most QUIETS_KEPT quiet moves per node get the malus. */
    static final int HISTORY_MAX = 1 << 14, QUIETS_KEPT = 64;
    /** At most this many captures per node get the capture history's malus. */
    static final int CAPTURES_KEPT = 32;
    /** History pruning (history-prune) applies below this reduced depth. */
    static final int HISTORY_PRUNE_DEPTH = 4;
    /**
     * The continuation history's largest table, in entries (16 MB a search thread): a rule set whose (piece, square)
     * pairs squared are more hashes them into this many (Wa shogi's 7,744 pairs would need 60M; shogi's 2,430 need
     * 5.9M and fit).
     */
    static final int CONT_MAX_ENTRIES = 1 << 23;
    /**
     * Late-move reductions by depth and move number: 0.75 + ln(depth) ln(move) / 2.25 (Ethereal's, Stockfish's), with
     * log-lmr-base and log-lmr-divisor at their defaults ({@link SearchParam}).
     */
    private final int[][] logReductions = new int[64][64];
    /** Stockfish 11's wider reductions by depth and move count (from 1): 0.5 + 0.6 ln(depth) ln(count) by default. */
    private final int[][] wideReductions = new int[64][64];
    /** The numeric parameters of this search's {@link SearchDefaults} ({@link SearchParam}), read once. */
    private final int futilityBase, futilityPerPly, futilityLmrDepth, rfpMargin, nullMoveEvalDivisor, seeCapture,
            seeQuiet, lmpBase, lmrHistoryBar, aspiration, historyBonus, historyBonusMax;
    /** The rule set's search settings this search was made with (its helpers are made with the same). */
    private final SearchDefaults defaults;

    /**
     * Singular extensions: from this remaining depth, when the hash entry (a lower bound or exact) is at most
     * {@link #SINGULAR_TT_SLACK} plies shallower; the margin below its score is SINGULAR_MARGIN per ply.
     */
    static final int SINGULAR_DEPTH = 6, SINGULAR_TT_SLACK = 3, SINGULAR_MARGIN = 2;
    /** Static-exchange pruning: up to this depth (its margins are see-capture and see-quiet, {@link SearchParam}). */
    static final int SEE_PRUNE_DEPTH = 8;
    /** Quiescence plies after which only recaptures are searched (not in check). */
    static final int QS_RECAPTURES_FROM = 5;
    /** The smallest remaining depth at which ProbCut is tried (Stockfish's 5); its confirming search is 4 shallower. */
    static final int PROBCUT_DEPTH = 5;
    /** The largest contempt {@link #setContempt} takes, in centipawns. */
    public static final int MAX_CONTEMPT = 500;

    private final RuleSet rs;
    private final Evaluation eval;
    /** Hand-written terms added to the net's output (the rule set's {@code net KEY} weights), or null. */
    private final Evaluation netTerms;
    /** The learned evaluation's accumulators when a net is used ({@link #setNetwork}), else null. */
    private Accumulators nnue;
    private final TranspositionTable tt;
    private Position pos;
    private final int[][] moves = new int[MAX_PLY + 1][];
    private final int[][] scores = new int[MAX_PLY + 1][];
    private final int[][] pv = new int[MAX_PLY + 1][MAX_PLY + 1];
    private final int[] pvLength = new int[MAX_PLY + 1];
    private final int[][] killers = new int[MAX_PLY + 1][2];
    private final int[] history;
    /** counterMoves[code * squares + to]: the quiet reply that last refuted the move of piece {@code code} to {@code to}. */
    private final int[] counterMoves;
    /**
     * The continuation history, or null when the rule set goes without (its SearchDefaults): for a (piece, square)
     * pair a move reached, how well each quiet (piece, square) did one or two plies later, kept like the history.
     * Indexed by {@link #contIndex}.
     */
    private final short[] cont;
    /** The number of (piece, square) pairs; the continuation table's shift when it is hashed, else 0. */
    private final int pairs, contShift;
    /** moveIdx[ply]: the (piece, square) pair the move played at {@code ply} reached; -1 for a null move. */
    private final int[] moveIdx = new int[MAX_PLY + 2];
    /** The quiet moves searched so far at each ply, for the history malus when another move cuts off. */
    private final int[][] quietsTried = new int[MAX_PLY + 1][QUIETS_KEPT];
    /** The capture-history indices ({@link #captureIndex}) of the captures searched at each ply, in order. */
    private final int[][] capturesTried = new int[MAX_PLY + 1][CAPTURES_KEPT];
    /**
     * The capture history (SearchDefaults capture-history), captureHistory[{@link #captureIndex}] within
     * +-HISTORY_MAX, or null when the rule set goes without.
     */
    private final int[] captureHistory;
    /** checkAt[ply]: the side to move at that ply is in check (for perpetual-check detection). */
    private final boolean[] checkAt = new boolean[MAX_PLY + 2];
    private final int squares;
    private final boolean perpetualLoses;
    private final boolean stalemateLoses;
    /** Late-move reductions from {@link #logReductions} instead of by steps (from the rule set's SearchDefaults). */
    private final boolean logLmr;
    /** The largest depths of late-move pruning and of futility pruning (from the rule set's SearchDefaults). */
    private final int lmpDepth, futilityDepth;
    /** Only checks that lose nothing by static exchange are extended (from the rule set's SearchDefaults). */
    private final boolean safeCheckExtension;
    /** Singular extensions of the hash move, with multi-cut (from the rule set's SearchDefaults). */
    private final boolean singularExtension;
    /** The smallest remaining depth at which a position in check is searched a ply deeper (SearchDefaults). */
    private final int checkExtensionDepth;
    /** Plies more of late-move reduction at an expected cut node (from the rule set's SearchDefaults). */
    private final int cutNodeReduction;
    /** How many captures a quiescence node not in check looks at (from the rule set's SearchDefaults). */
    private final int qsearchMoves;
    /** Whether quiescence leaves quiet promotions out (from the rule set's SearchDefaults). */
    private final boolean qsearchCapturesOnly;
    /** Whether the first quiescence ply also searches safe quiet checks (from the rule set's SearchDefaults). */
    private final boolean qsearchChecks;
    /** Whether late-move pruning keeps half as many quiet moves when not improving (the rule set's SearchDefaults). */
    private final boolean lmpImproving;
    /** Stockfish's pruning of quiet moves by their reduced depth, at every depth (from the rule set's SearchDefaults). */
    private final boolean lmrDepthPruning;
    /** The largest depth of reverse futility pruning, and Stockfish's null-move reduction (SearchDefaults). */
    private final int reverseFutilityDepth;
    private final boolean nullMoveEval;
    /** Stockfish 11's late-move reductions, from the second move on (from the rule set's SearchDefaults). */
    private final boolean wideLmr;
    /** Whether a hash score beyond the static evaluation stands in for it in pruning (SearchDefaults tt-eval). */
    private final boolean ttEval;
    /** The history pruning threshold per ply of depth (SearchDefaults history-prune; 0: none). */
    private final int historyPrune;
    /**
     * endgame-scale (SearchDefaults): for each entry, the count of each piece type the side the evaluation favours
     * must have on the board (index t) and the other side (index types + t), royal types excepted, and the factor in
     * 64ths; {@link #scaleMaxPieces} is the most pieces on the board (royal ones counted) any entry has.
     */
    private final int[][] scaleCounts;
    private final int[] scaleFactors;
    private final int scaleMaxPieces;
    /** opposite-colour-scale (SearchDefaults): the piece types and their factors in 64ths. */
    private final int[] ocbTypes, ocbFactors;
    /** wrong-bishop-scale (SearchDefaults): the piece types and their factors in 64ths. */
    private final int[] wrongBishopTypes, wrongBishopFactors;
    /** The types the evaluation counts as pawns (which opposite-colour-scale lets each side have besides). */
    private final int[] pawnTypes;
    /** Whether reverse futility's margin is a ply smaller at an improving node (SearchDefaults rfp-improving). */
    private final boolean rfpImproving;
    /**
     * The least remaining depth of YaneuraOu's mate-in-one test at interior nodes the hash table does not know (0:
     * none; the rule set's SearchDefaults).
     */
    private final int mateInOneDepth;

    /** The moves the clock is shared over (the rule set's time-horizon, {@link TimeManager#budget(Limits, int, int)}). */
    private final int timeHorizon;
    /** The soft limit scaled by how settled the search is ({@link #softScale}; the rule set's time-scaling). */
    private final boolean timeScaling;
    /**
     * rootNodes[i]: the nodes spent below root move rootList[i] in this search so far (for {@link #softScale}); null
     * when the soft limit is not scaled.
     */
    private long[] rootNodes;
    private int[] rootList;
    /** Quiet moves landing within this many king steps of the enemy king are reduced a ply less (SearchDefaults). */
    private final int kingAttackLmr;
    /**
     * The correction history, or null when the rule set goes without (its SearchDefaults): per pawn structure
     * ({@link Position#pawnKey}, its top {@link #CORR_BITS} bits) and side to move, a running average of the search's
     * score less the evaluation, in 1/{@link #CORR_GRAIN} centipawns, within +-{@link #CORR_MAX} centipawns, added to
     * the static evaluation (Stockfish's pawn correction history, updated as Weiss updates it). Kept across a game's
     * searches, cleared by {@link #newGame}.
     */
    private final int[] corr;
    static final int CORR_BITS = 14, CORR_GRAIN = 256, CORR_MAX = 64;
    /** staticEvals[ply]: the static evaluation at that ply of the current line, -INFINITE when in check. */
    private final int[] staticEvals = new int[MAX_PLY + 2];
    /** ProbCut's margin over beta in centipawns, 0 for none (from the rule set's SearchDefaults). */
    private final int probcutMargin;
    /** The largest remaining depth at which quiet evasions are pruned, 0 for none (the rule set's SearchDefaults). */
    private final int evasionPruneDepth;
    /** The percentage of the net's output used as the static evaluation (from the rule set's SearchDefaults). */
    private final int netScale;
    /** move-rule-damping ({@link SearchDefaults}): D in plies, 0 when off or when the rule set has no move rule. */
    private final int moveRuleDamping;
    /** pawnless-scale ({@link SearchDefaults}): the lead M in centipawns, 0 when off. */
    private final int pawnlessScale;
    /** The largest remaining depth at which a quiet check that loses material is not searched (SearchDefaults). */
    private final int losingCheckDepth;
    /** seExcluded[ply]: the hash move a singular-extension search at that ply leaves out, or {@link Move#NONE}. */
    private final int[] seExcluded = new int[MAX_PLY + 1];
    /** The depth of the iteration under way (singular extensions stop at twice it, as in Stockfish). */
    private int rootDepth;
    private final int moveRulePlies;
    /** The types that can be held in hand (none without drops). */
    private final int[] handTypes;

    /** The piece values static exchange evaluation counts with: the hand-written evaluation's, per type. */
    private final int[] seeValue;
    private volatile boolean stop;
    /** While pondering the clock does not run; {@link #ponderhit} starts it. */
    private volatile boolean pondering;
    private long[] budget = {-1, -1};
    /** MultiPV: the number of best lines reported, and the root moves already taken by earlier lines. */
    private int multiPv = 1;
    /**
     * Contempt, in centipawns: a draw inside the tree (repetition, move rule, dead position, a stalemate that
     * draws) is worth this much less than 0 to the side to move at the root, and this much more to the other.
     */
    private int contempt;
    /** The side to move at the root of the current search (whose draws contempt counts against). */
    private int rootSide;
    private final int[] excluded = new int[256];
    private int excludedCount;
    /** Strength limits (Skill Level): a depth cap and the amplitude of evaluation noise in centipawns. */
    private int skillDepth = MAX_PLY - 1;
    private int noise;
    private long noiseSeed;
    private long nodes;
    private long nodeLimit;
    private long deadline;
    private long softDeadline;
    private long startMs;
    private int selDepth;
    /** Lazy SMP: the number of threads, the helper searches (created on first use) and their threads. */
    private int threads = 1;
    private Search[] helpers = new Search[0];
    private Thread[] helperThreads = new Thread[0];
    /** A helper's depth offset: odd helpers search one ply deeper than the main thread at each iteration. */
    private int depthOffset;

    /** A search with the rule set's own settings ({@link SearchDefaults#forRuleSet}). */
    public Search(RuleSet rs, TranspositionTable tt) {
        this(rs, tt, SearchDefaults.forRuleSet(rs.id));
    }

    /** A search with the given settings (a tuner's trial values; the protocols use the rule set's own). */
    public Search(RuleSet rs, TranspositionTable tt, SearchDefaults defaults) {
        this.rs = rs;
        this.defaults = defaults;
        this.eval = new Evaluation(rs);
        this.netTerms = eval.netTerms();
        this.tt = tt;
        this.squares = rs.geometry.squares;
        Position probe = Position.start(rs);
        for (int i = 0; i <= MAX_PLY; i++) {
            moves[i] = probe.newMoveBuffer();
            scores[i] = new int[moves[i].length];
        }
        this.seeValue = new int[rs.pieces.size()];
        for (int t = 0; t < seeValue.length; t++) {
            seeValue[t] = eval.value(t);
        }
        this.history = new int[Position.pieceCodeCount(rs) * squares];
        this.counterMoves = new int[Position.pieceCodeCount(rs) * squares];
        java.util.Arrays.fill(counterMoves, Move.NONE);
        this.handTypes = rs.drops ? probe.handTypes() : new int[0];
        this.perpetualLoses = rs.endRules.repetition().perpetualCheckLoses();
        this.stalemateLoses = rs.endRules.stalemate() == Outcome.LOSS;
        int claim = rs.endRules.moveRule().claimPlies();
        this.moveRulePlies = claim > 0 ? claim : rs.endRules.moveRule().autoPlies();
        Network.builtIn(rs).ifPresent(this::setNetwork);
        setContempt(defaults.contempt());
        this.logLmr = defaults.logReductions();
        double logBase = defaults.param(SearchParam.LOG_LMR_BASE) / 100.0;
        double logDivisor = defaults.param(SearchParam.LOG_LMR_DIVISOR) / 100.0;
        double wideBase = defaults.param(SearchParam.WIDE_LMR_BASE) / 100.0;
        double wideFactor = defaults.param(SearchParam.WIDE_LMR_FACTOR) / 100.0;
        for (int d = 1; d < 64; d++) {
            for (int i = 1; i < 64; i++) {
                logReductions[d][i] = Math.max(0, (int) (logBase + Math.log(d) * Math.log(i) / logDivisor));
                wideReductions[d][i] = Math.max(0, (int) (wideBase + wideFactor * Math.log(d) * Math.log(i)));
            }
        }
        this.futilityBase = defaults.param(SearchParam.FUTILITY_BASE);
        this.futilityPerPly = defaults.param(SearchParam.FUTILITY_PER_PLY);
        this.futilityLmrDepth = defaults.param(SearchParam.FUTILITY_LMR_DEPTH);
        this.rfpMargin = defaults.param(SearchParam.RFP_MARGIN);
        this.nullMoveEvalDivisor = defaults.param(SearchParam.NULL_MOVE_EVAL_DIVISOR);
        this.seeCapture = defaults.param(SearchParam.SEE_CAPTURE);
        this.seeQuiet = defaults.param(SearchParam.SEE_QUIET);
        this.lmpBase = defaults.param(SearchParam.LMP_BASE);
        this.lmrHistoryBar = (int) ((long) HISTORY_MAX * defaults.param(SearchParam.LMR_HISTORY_BAR) / 100);
        this.aspiration = defaults.param(SearchParam.ASPIRATION);
        this.historyBonus = defaults.param(SearchParam.HISTORY_BONUS);
        this.historyBonusMax = defaults.param(SearchParam.HISTORY_BONUS_MAX);
        this.lmpDepth = defaults.lmpDepth();
        this.futilityDepth = defaults.futilityDepth();
        this.safeCheckExtension = defaults.safeCheckExtension();
        this.singularExtension = defaults.singularExtension();
        this.checkExtensionDepth = defaults.checkExtensionDepth();
        this.cutNodeReduction = defaults.cutNodeReduction();
        this.qsearchMoves = defaults.qsearchMoves() == 0 ? Integer.MAX_VALUE : defaults.qsearchMoves();
        this.losingCheckDepth = defaults.losingCheckDepth();
        this.qsearchCapturesOnly = defaults.qsearchCapturesOnly();
        this.qsearchChecks = defaults.qsearchChecks();
        this.lmpImproving = defaults.lmpImproving();
        this.lmrDepthPruning = defaults.lmrDepthPruning();
        this.reverseFutilityDepth = defaults.reverseFutilityDepth();
        this.nullMoveEval = defaults.nullMoveEval();
        this.wideLmr = defaults.wideLmr();
        this.ttEval = defaults.ttEval();
        this.historyPrune = defaults.historyPrune();
        this.rfpImproving = defaults.rfpImproving();
        int types = rs.pieces.size();
        this.scaleCounts = new int[defaults.endgameScales().size()][];
        this.scaleFactors = new int[scaleCounts.length];
        int maxPieces = 0, e = 0;
        for (var entry : defaults.endgameScales().entrySet()) {
            String sig = entry.getKey();
            int[] need = new int[2 * types];
            int slash = sig.indexOf('/');
            for (int i = 0; i < sig.length(); i++) {
                if (i != slash) {
                    need[(i < slash ? 0 : types) + typeOfLetter(sig.charAt(i), SearchDefaults.ENDGAME_SCALE + sig)]++;
                }
            }
            scaleCounts[e] = need;
            scaleFactors[e++] = entry.getValue();
            maxPieces = Math.max(maxPieces, sig.length() - 1 + (rs.royalType >= 0 ? 2 : 0));
        }
        this.scaleMaxPieces = maxPieces;
        this.ocbTypes = new int[defaults.oppositeColourScales().size()];
        this.ocbFactors = new int[ocbTypes.length];
        e = 0;
        for (var entry : defaults.oppositeColourScales().entrySet()) {
            ocbTypes[e] = typeOfLetter(entry.getKey().charAt(0), SearchDefaults.OPPOSITE_COLOUR_SCALE + entry.getKey());
            ocbFactors[e++] = entry.getValue();
        }
        this.wrongBishopTypes = new int[defaults.wrongBishopScales().size()];
        this.wrongBishopFactors = new int[wrongBishopTypes.length];
        e = 0;
        for (var entry : defaults.wrongBishopScales().entrySet()) {
            wrongBishopTypes[e] = typeOfLetter(entry.getKey().charAt(0), SearchDefaults.WRONG_BISHOP_SCALE
                    + entry.getKey());
            wrongBishopFactors[e++] = entry.getValue();
        }
        this.pawnTypes = rs.pieces.stream().filter(t -> t.pawn()).mapToInt(t -> t.index()).toArray();
        this.mateInOneDepth = defaults.mateInOne();
        this.timeHorizon = defaults.timeHorizon();
        this.timeScaling = defaults.timeScaling();
        this.kingAttackLmr = defaults.kingAttackLmr();
        this.probcutMargin = defaults.probcutMargin();
        this.evasionPruneDepth = defaults.evasionPruneDepth();
        this.netScale = defaults.netScale();
        this.moveRuleDamping = moveRulePlies > 0 ? defaults.moveRuleDamping() : 0;
        this.pawnlessScale = defaults.pawnlessScale();
        java.util.Arrays.fill(seExcluded, Move.NONE);
        this.pairs = Position.pieceCodeCount(rs) * squares;
        long entries = (long) pairs * pairs;
        this.contShift = entries <= CONT_MAX_ENTRIES ? 0 : 64 - Integer.numberOfTrailingZeros(CONT_MAX_ENTRIES);
        this.cont = !defaults.continuationHistory() ? null
                : new short[contShift == 0 ? (int) entries : CONT_MAX_ENTRIES];
        this.corr = defaults.correctionHistory() ? new int[2 << CORR_BITS] : null;
        this.captureHistory = defaults.captureHistory() ? new int[pairs * rs.pieces.size()] : null;
    }

    /**
     * Runs a short throw-away search of the rule set's start position (own small table, node budget) so that the
     * JIT compiles the move generator, the search and the evaluation ({@code net}, or the hand-written one when
     * null) before the clock runs: a cold JVM is many times slower for its first second or so. The protocols call
     * it once per rule set and evaluation, when asked {@code isready} (XBoard: {@code ping}); it stops at
     * {@code nodes} or after {@code maxMs}, whichever comes first (a loaded machine must not stall isready).
     */
    public static void warmUp(RuleSet rs, Network net, long nodes, long maxMs) {
        Search s = new Search(rs, new TranspositionTable(1));
        s.setNetwork(net);
        s.search(Position.start(rs), new Limits(-1, -1, 0, 0, 0, 0, maxMs, 0, nodes, false), new TimeManager(0), null);
    }

    public Evaluation evaluation() {
        return eval;
    }

    /**
     * Evaluates with a learned net from now on, or with the hand-written evaluation when {@code net} is null. The
     * net must be the rule set's (its layout is checked).
     */
    public void setNetwork(Network net) {
        if (net == null) {
            nnue = null;
        } else if (nnue == null || nnue.network() != net) {
            nnue = new Accumulators(net, rs, MAX_PLY + 1);
        }
    }

    /** The net in use, or null for the hand-written evaluation. */
    public Network network() {
        return nnue == null ? null : nnue.network();
    }

    /**
     * Forgets what the searches of this game learned (history and counter moves, which otherwise carry over from
     * one search to the next, halved): the protocols call it at a new game.
     */
    public void newGame() {
        java.util.Arrays.fill(history, 0);
        java.util.Arrays.fill(counterMoves, Move.NONE);
        if (cont != null) {
            java.util.Arrays.fill(cont, (short) 0);
        }
        if (corr != null) {
            java.util.Arrays.fill(corr, 0);
        }
        if (captureHistory != null) {
            java.util.Arrays.fill(captureHistory, 0);
        }
        for (Search h : helpers) {
            h.newGame();
        }
    }

    /** Plays a move in the search, noting the features it switches for the net. */
    private void makeMove(int m, int ply) {
        if (nnue != null) {
            boolean refresh = nnue.push(pos, m, ply);
            pos.doMove(m);
            if (refresh) {
                nnue.refresh(pos, ply + 1);
            }
        } else {
            pos.doMove(m);
        }
        if (cont != null) {
            int to = Move.to(m);
            moveIdx[ply] = pieceSquareIndex(pos.typeAt(to), pos.sideToMove() ^ 1, to);
        }
    }

    /**
     * The quiescence score of a position for its side to move (captures and promotions until quiet, evasions in
     * check), or {@link Integer#MIN_VALUE} when {@code maxNodes} nodes did not settle it: a cheap label of
     * positions for training a net on this evaluation.
     */
    public int quiescenceScore(Position position, long maxNodes) {
        this.pos = position;
        nodes = 0;
        stop = false;
        deadline = Long.MAX_VALUE;
        nodeLimit = maxNodes;
        if (nnue != null) {
            nnue.refresh(position, 0);
        }
        int v = quiesce(-INFINITE, INFINITE, 0, 0, -1);
        return stop ? Integer.MIN_VALUE : v;
    }

    /** Asks a running search to stop as soon as possible; it still reports its best move. */
    public void stop() {
        stop = true;
        for (Search h : helpers) {
            h.stop = true;
        }
    }

    /**
     * Search threads (UCI/USI {@code Threads}, XBoard {@code cores}), 1 to 64: the extra ones are Lazy SMP helpers.
     * Strength limits (Skill Level) and MultiPV search on one thread.
     */
    public void setThreads(int n) {
        threads = Math.max(1, Math.min(64, n));
    }

    /**
     * Clears an earlier stop request. Call it before starting a search in another thread (not inside it), so that
     * a stop sent right after the start is never lost.
     */
    public void resetStop() {
        stop = false;
    }

    /** Nodes of the last search, its helpers' included. */
    public long nodes() {
        long n = nodes;
        for (Search h : helpers) {
            n += h.nodes;
        }
        return n;
    }

    /** Sets the contempt in centipawns (0: every draw is worth 0; positive: the root side avoids draws). */
    public void setContempt(int cp) {
        contempt = Math.max(-MAX_CONTEMPT, Math.min(MAX_CONTEMPT, cp));
    }

    /** The contempt in centipawns: the rule set's default ({@link SearchDefaults}) until set. */
    public int contempt() {
        return contempt;
    }

    /** The score of a draw for the side to move: minus the contempt at the root side's turns, plus it otherwise. */
    private int drawScore() {
        return pos.sideToMove() == rootSide ? -contempt : contempt;
    }

    /** Number of principal variations to report (UCI MultiPV), at least 1. */
    public void setMultiPv(int lines) {
        multiPv = Math.max(1, Math.min(lines, excluded.length));
    }

    /**
     * Skill level 0..20 (20 = full strength): lower levels search shallower and evaluate with position-dependent
     * noise, so that they make human-like mistakes; {@code seed} varies the noise from game to game.
     */
    public void setSkill(int level, long seed) {
        int l = Math.max(0, Math.min(20, level));
        skillDepth = l >= 20 ? MAX_PLY - 1 : 1 + l / 2;
        noise = (20 - l) * 15;
        noiseSeed = seed;
    }

    /** Makes the next search a ponder search: it runs until {@link #ponderhit} or {@link #stop}. */
    public void setPondering(boolean on) {
        pondering = on;
    }

    /** The opponent played the expected move: the clock of the ponder search starts now. */
    public void ponderhit() {
        long now = System.currentTimeMillis();
        softDeadline = budget[0] < 0 ? Long.MAX_VALUE : now + budget[0];
        deadline = budget[1] < 0 ? Long.MAX_VALUE : now + budget[1];
        pondering = false;
    }

    /** The result of a search: best move, score for the side to move, and the node count. */
    public record Result(int bestMove, int ponderMove, int score, long nodes, int depth) {
    }

    /**
     * Searches the position (which it plays moves on and restores) within the limits, reporting each finished
     * iteration to {@code listener}. Returns {@link Move#NONE} as best move when there is no legal move.
     */
    public Result search(Position position, Limits limits, TimeManager time, Consumer<SearchInfo> listener) {
        this.pos = position;
        if (nnue != null) {
            nnue.refresh(position, 0);
        }
        nodes = 0;
        startMs = System.currentTimeMillis();
        rootSide = position.sideToMove();
        budget = time.budget(limits, position.sideToMove(), timeHorizon);
        softDeadline = budget[0] < 0 ? Long.MAX_VALUE : startMs + budget[0];
        deadline = budget[1] < 0 ? Long.MAX_VALUE : startMs + budget[1];
        nodeLimit = limits.nodes() > 0 ? limits.nodes() : Long.MAX_VALUE;
        int maxDepth = Math.min(skillDepth, limits.depth() > 0 ? Math.min(limits.depth(), MAX_PLY - 1) : MAX_PLY - 1);
        for (int[] k : killers) {
            k[0] = k[1] = Move.NONE;
        }
        // the history and counter moves carry over from the game's previous search, halved (newGame clears them)
        for (int i = 0; i < history.length; i++) {
            history[i] /= 2;
        }
        if (cont != null) {
            Kernels.halve(cont);
        }
        if (captureHistory != null) {
            for (int i = 0; i < captureHistory.length; i++) {
                captureHistory[i] /= 2;
            }
        }
        int[] rootMoves = position.legalMoves();
        if (rootMoves.length == 0) {
            return new Result(Move.NONE, Move.NONE, position.inCheck() || stalemateLoses ? -MATE : 0, 0, 0);
        }
        int helperCount = threads > 1 && multiPv == 1 && noise == 0 && rootMoves.length > 1 ? threads - 1 : 0;
        startHelpers(position, helperCount);
        try {
            return iterate(position, limits, rootMoves, maxDepth, listener);
        } finally {
            stopHelpers(helperCount);
        }
    }

    /** Starts {@code count} helper searches on copies of the root; they run until {@link #stopHelpers}. */
    private void startHelpers(Position root, int count) {
        if (helpers.length < count) {
            Search[] more = java.util.Arrays.copyOf(helpers, count);
            for (int i = helpers.length; i < count; i++) {
                more[i] = new Search(rs, tt, defaults);
                more[i].depthOffset = (i + 1) & 1;
            }
            helpers = more;
            helperThreads = java.util.Arrays.copyOf(helperThreads, count);
        }
        for (int i = 0; i < count; i++) {
            Search h = helpers[i];
            h.setNetwork(network());
            h.contempt = contempt;
            Position copy = root.copyWithHistory();
            h.resetStop();
            h.nodes = 0;
            helperThreads[i] = new Thread(() -> h.search(copy, Limits.forever(), NO_CLOCK, null), "koma-helper-" + (i + 1));
            helperThreads[i].setDaemon(true);
            helperThreads[i].start();
        }
    }

    private void stopHelpers(int count) {
        for (int i = 0; i < count; i++) {
            helpers[i].stop = true;
        }
        for (int i = 0; i < count; i++) {
            try {
                helperThreads[i].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final TimeManager NO_CLOCK = new TimeManager(0);

    /** Iterative deepening with aspiration windows, MultiPV lines, and the end conditions of {@code limits}. */
    private Result iterate(Position position, Limits limits, int[] rootMoves, int maxDepth,
                           Consumer<SearchInfo> listener) {
        int best = rootMoves[0], ponder = Move.NONE, bestScore = -INFINITE, reached = 0;
        int lines = Math.min(multiPv, rootMoves.length);
        int[] lineScore = new int[lines];
        java.util.Arrays.fill(lineScore, -INFINITE);
        // the soft limit is scaled only on a clock (a fixed move time is spent as given) with one line
        boolean scaled = timeScaling && lines == 1 && limits.moveTime() <= 0 && budget[0] >= 0;
        rootNodes = scaled ? new long[rootMoves.length] : null;
        rootList = rootMoves;
        int[] iterationScore = new int[maxDepth + 1];
        int stability = 0, lastBest = Move.NONE;
        for (int depth = 1; depth <= maxDepth; depth++) {
            excludedCount = 0;
            boolean complete = true;
            for (int line = 0; line < lines; line++) {
                selDepth = 0;
                int prev = lineScore[line];
                int alpha = -INFINITE, beta = INFINITE, delta = aspiration;
                if (depth >= 5 && Math.abs(prev) < MATE_BOUND) {
                    alpha = prev - delta;
                    beta = prev + delta;
                }
                int score;
                while (true) {
                    rootDepth = Math.min(depth + depthOffset, MAX_PLY - 1);
                    score = search(rootDepth, alpha, beta, 0, true, false);
                    if (stop) {
                        break;
                    }
                    if (score <= alpha) {
                        alpha = Math.max(-INFINITE, alpha - delta);
                    } else if (score >= beta) {
                        beta = Math.min(INFINITE, beta + delta);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                }
                if (stop && depth > 1) {
                    // a move that finished this cut-short iteration above its window's floor (the root's principal
                    // variation is only set by a completed move) beats the last full iteration's choice
                    if (lines == 1 && pvLength[0] > 0 && pv[0][0] != best) {
                        best = pv[0][0];
                        ponder = pvLength[0] > 1 ? pv[0][1] : Move.NONE;
                    }
                    complete = false;
                    break;
                }
                if (pvLength[0] == 0) {
                    break;
                }
                lineScore[line] = score;
                if (line == 0) {
                    best = pv[0][0];
                    ponder = pvLength[0] > 1 ? pv[0][1] : Move.NONE;
                    bestScore = score;
                }
                excluded[excludedCount++] = pv[0][0];
                if (listener != null) {
                    int[] pvLine = java.util.Arrays.copyOf(pv[0], pvLength[0]);
                    int mateIn = Math.abs(score) >= MATE_BOUND
                            ? (score > 0 ? (MATE - score + 1) / 2 : -(MATE + score) / 2) : 0;
                    listener.accept(new SearchInfo(depth, Math.max(selDepth, depth), line + 1, score, mateIn, nodes(),
                            System.currentTimeMillis() - startMs, pvLine, tt.hashfull()));
                }
            }
            excludedCount = 0;
            if (!complete) {
                break;
            }
            reached = depth;
            iterationScore[depth] = bestScore;
            stability = best == lastBest ? stability + 1 : 0;
            lastBest = best;
            double scale = scaled && depth >= 4 ? softScale(stability, iterationScore[depth - 3] - bestScore, best) : 1;
            if (stop || (!pondering && softTimeUp(scale)) || nodes >= nodeLimit) {
                break;
            }
            // a found mate ends the search only well past its length: a pruned tree can report a longer mate for
            // several iterations before it sees the shortest (chess.mates line 17: mate 3 to depth 13, mate 2 at 14)
            if (Math.abs(bestScore) >= MATE_BOUND && depth > 4 * (MATE - Math.abs(bestScore)) + 4
                    && limits.depth() == 0 && !limits.infinite() && !pondering) {
                break;
            }
        }
        // a ponder or infinite search does not answer before it is told to
        while ((pondering || limits.infinite()) && !stop) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new Result(best, ponder, bestScore, nodes(), reached);
    }

    /** Counts {@code n} nodes to root move {@code m} (a short linear search: the root has few moves). */
    private void addRootNodes(int m, long n) {
        for (int i = 0; i < rootList.length; i++) {
            if (rootList[i] == m) {
                rootNodes[i] += n;
                return;
            }
        }
    }

    /**
     * The factor of the soft limit after an iteration (Ethereal's time manager): from 1.2 down to 0.8 as the best move
     * has held for up to 10 iterations, from 0.75 to 1.25 as the score has fallen by 15 to 25 centipawns over the
     * last three, and from 0.5 up as the other moves took more of the nodes (2 x their share + 0.4); times 1.5, as
     * Ethereal's ideal time is half as much again as this soft limit. The hard limit still bounds the move.
     */
    static double softScale(int stability, int scoreFall, long bestNodes, long totalNodes) {
        double pv = 1.2 - 0.04 * Math.min(10, stability);
        double score = Math.max(0.75, Math.min(1.25, 0.05 * scoreFall));
        double others = totalNodes == 0 ? 0.5 : 1.0 - (double) bestNodes / totalNodes;
        double spread = Math.max(0.5, 2 * others + 0.4);
        return 1.5 * pv * score * spread;
    }

    /** {@link #softScale(int, int, long, long)} with the nodes this search spent below {@code best} and in all. */
    private double softScale(int stability, int scoreFall, int best) {
        long total = 0, bestNodes = 0;
        for (int i = 0; i < rootList.length; i++) {
            total += rootNodes[i];
            if (rootList[i] == best) {
                bestNodes = rootNodes[i];
            }
        }
        return softScale(stability, scoreFall, bestNodes, total);
    }

    /** Whether the soft limit, scaled by {@code scale}, has passed (it starts where its deadline was set). */
    private boolean softTimeUp(double scale) {
        if (softDeadline == Long.MAX_VALUE) {
            return false;
        }
        long start = softDeadline - budget[0];
        return System.currentTimeMillis() - start >= (long) (budget[0] * scale);
    }

    /**
     * The hard stop: the clock is read every 64 nodes (a few microseconds of search), not every thousand, because a
     * cold JVM or a loaded machine can spend hundreds of milliseconds on a few hundred nodes.
     */
    private boolean timeUp() {
        if ((nodes & 63) == 0 && !pondering && deadline != Long.MAX_VALUE && System.currentTimeMillis() >= deadline) {
            stop = true;
        }
        if (nodes >= nodeLimit) {
            stop = true;
        }
        return stop;
    }

    /** Draw, loss or nothing by the end rules that apply inside the tree; Integer.MIN_VALUE for "play on". */
    private int ruleScore(int ply) {
        int us = pos.sideToMove();
        if (rs.endRules.extinction() && pos.pieceCount(us) == 0) {
            return -MATE + ply;
        }
        if (moveRulePlies > 0 && pos.halfmoveClock() >= moveRulePlies) {
            return drawScore();
        }
        // repetition: the same key 4, 8, ... plies back (positions between could only repeat with the same side)
        // (drop games have no irreversible moves: look back a bounded number of plies)
        int back = Math.min(pos.historyLength(), rs.drops ? REPETITION_WINDOW : pos.halfmoveClock());
        long key = pos.key();
        for (int i = 4; i <= back; i += 2) {
            if (pos.keyBack(i) == key) {
                if (perpetualLoses && i <= ply) {
                    // every move of the side not to move in the cycle gave check: it loses
                    boolean allChecks = true;
                    for (int j = 1; j <= i; j += 2) {
                        allChecks &= checkAt[ply - j + 1];
                    }
                    if (allChecks) {
                        return MATE - ply;
                    }
                    boolean weCheck = true;
                    for (int j = 2; j <= i; j += 2) {
                        weCheck &= checkAt[ply - j + 1];
                    }
                    if (weCheck) {
                        return -MATE + ply;
                    }
                }
                return drawScore();
            }
        }
        if (pos.pieceCount(0) + pos.pieceCount(1) <= 6 && pos.isDeadPosition()) {
            return drawScore();
        }
        return Integer.MIN_VALUE;
    }

    /**
     * The first of the {@code n} legal moves in {@code list} that mates at once: it gives check, the reply has no
     * legal move, and no other end rule (repetition, perpetual check, the move-count rule) decides the position it
     * leaves first, so that searching it would score {@code MATE - ply - 1}, the best score this node can have.
     * {@link Move#NONE} when there is none. The moves are played on the board alone (no evaluation follows).
     */
    private int mateInOne(int[] list, int n, int ply) {
        for (int i = 0; i < n; i++) {
            int m = list[i];
            if (!pos.givesCheck(m)) {
                continue;
            }
            pos.doMove(m);
            checkAt[ply + 1] = true;
            boolean mate = !pos.hasLegalMove() && ruleScore(ply + 1) == Integer.MIN_VALUE;
            pos.undoMove();
            if (mate) {
                return m;
            }
        }
        return Move.NONE;
    }

    private int search(int depth, int alpha, int beta, int ply, boolean nullAllowed, boolean cutNode) {
        pvLength[ply] = 0;
        boolean inCheck = pos.inCheck();
        checkAt[ply] = inCheck;
        if (ply > 0) {
            int rule = ruleScore(ply);
            if (rule != Integer.MIN_VALUE) {
                return rule;
            }
            // mate-distance pruning
            alpha = Math.max(alpha, -MATE + ply);
            beta = Math.min(beta, MATE - ply - 1);
            if (alpha >= beta) {
                return alpha;
            }
        }
        if (inCheck && ply < MAX_PLY - 1 && depth >= checkExtensionDepth) {
            depth++;
        }
        if (depth <= 0 || ply >= MAX_PLY - 1) {
            return quiesce(alpha, beta, ply, 0, -1, inCheck);
        }
        nodes++;
        if (timeUp()) {
            return 0;
        }
        selDepth = Math.max(selDepth, ply);
        boolean pvNode = beta - alpha > 1;
        long key = pos.key();
        long entry = tt.probe(key);
        int ttMove = Move.NONE, ttScore = 0;
        // a singular-extension search of this position without its hash move: no hash cutoff, no store
        int excludedMove = seExcluded[ply];
        if (entry != 0) {
            ttMove = TranspositionTable.moveOf(entry);
            ttScore = fromTt(TranspositionTable.scoreOf(entry), ply);
            int bound = TranspositionTable.boundOf(entry);
            if (!pvNode && ply > 0 && excludedMove == Move.NONE && TranspositionTable.depthOf(entry) >= depth
                    && (bound == TranspositionTable.BOUND_EXACT
                    || (bound == TranspositionTable.BOUND_LOWER && ttScore >= beta)
                    || (bound == TranspositionTable.BOUND_UPPER && ttScore <= alpha))) {
                return ttScore;
            }
        }
        int[] list = moves[ply];
        int n = -1;
        if (!inCheck && mayLackMoves()) {
            // a bare side may have no legal move: settle that before any pruning assumes it can move
            n = pos.legalMoves(list);
            if (n == 0) {
                return noMoveScore(ply);
            }
        }
        // internal iterative reduction: with no hash move to try first, a deep search is mostly wasted; go shallower
        if (ttMove == Move.NONE && depth >= 4 && ply > 0) {
            depth--;
        }
        int rawEval = inCheck ? -INFINITE : evaluate(ply);
        int staticEval = inCheck ? -INFINITE : corrected(rawEval);
        staticEvals[ply] = staticEval;
        // with tt-eval, a hash score whose bound puts the true score beyond the static evaluation replaces it in the
        // pruning decisions (the improving test keeps the static evaluation)
        int eval = staticEval;
        if (ttEval && entry != 0 && !inCheck && excludedMove == Move.NONE && Math.abs(ttScore) < MATE_BOUND) {
            int bound = TranspositionTable.boundOf(entry);
            if (bound == TranspositionTable.BOUND_EXACT || bound == TranspositionTable.BOUND_LOWER && ttScore > eval
                    || bound == TranspositionTable.BOUND_UPPER && ttScore < eval) {
                eval = ttScore;
            }
        }
        // with lmp-improving, late-move pruning keeps half as many quiet moves when the evaluation is not improving;
        // lmr-depth-pruning, wide-lmr and rfp-improving read it too (computed only for them: this is every node)
        boolean improving = (lmpImproving || lmrDepthPruning || wideLmr || rfpImproving)
                && improving(ply, staticEval);
        int lateCount = lmrDepthPruning ? (lmpBase + depth * depth) * (improving ? 2 : 1) / 2 - 1
                : lmpImproving && !improving ? lmpCount(depth) / 2 : lmpCount(depth);
        // reverse futility: far above beta near the leaves
        if (!pvNode && !inCheck && excludedMove == Move.NONE && depth <= reverseFutilityDepth
                && Math.abs(beta) < MATE_BOUND
                && eval - rfpMargin * (rfpImproving && improving ? depth - 1 : depth) >= beta) {
            return eval;
        }
        // null move: not in check, not right after another, and with pieces beyond pawns to avoid zugzwang
        if (nullAllowed && !pvNode && !inCheck && excludedMove == Move.NONE && depth >= 3 && eval >= beta
                && hasPieces()) {
            int r = nullMoveEval ? 3 + depth / 4 + Math.min((eval - beta) / nullMoveEvalDivisor, 3) : 2 + depth / 4;
            if (nnue != null) {
                nnue.pushNull(ply);
            }
            pos.doNullMove();
            moveIdx[ply] = -1;
            checkAt[ply + 1] = false;
            int score = -search(depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cutNode);
            pos.undoNullMove();
            if (stop) {
                return 0;
            }
            if (score >= beta) {
                return score >= MATE_BOUND ? beta : score;
            }
        }
        if (probcutMargin > 0 && !pvNode && !inCheck && excludedMove == Move.NONE && ply > 0 && depth >= PROBCUT_DEPTH
                && Math.abs(beta) < MATE_BOUND) {
            int v = probCut(beta + probcutMargin, depth, ply, ttMove, staticEval, cutNode);
            if (v != Integer.MIN_VALUE) {
                return v;
            }
            n = -1; // ProbCut used this ply's move list
        }
        // singular extension: the hash move, a lower bound not much shallower, is extended when every other move,
        // searched at half depth against a margin below its score, fails low; when even that search reaches beta,
        // two moves beat it and the node is cut (multi-cut)
        int extendMove = Move.NONE;
        if (singularExtension && ply > 0 && ply < 2 * rootDepth && depth >= SINGULAR_DEPTH
                && excludedMove == Move.NONE && ttMove != Move.NONE && Math.abs(ttScore) < MATE_BOUND
                && TranspositionTable.boundOf(entry) != TranspositionTable.BOUND_UPPER
                && TranspositionTable.depthOf(entry) >= depth - SINGULAR_TT_SLACK) {
            int singularBeta = ttScore - SINGULAR_MARGIN * depth;
            seExcluded[ply] = ttMove;
            int v = search((depth - 1) / 2, singularBeta - 1, singularBeta, ply, false, cutNode);
            seExcluded[ply] = Move.NONE;
            if (stop) {
                return 0;
            }
            n = -1; // the search at this ply used this ply's move list (and its line)
            pvLength[ply] = 0;
            if (v < singularBeta) {
                extendMove = ttMove;
            } else if (singularBeta >= beta) {
                return singularBeta;
            }
        }
        if (n < 0) {
            n = pos.legalMoves(list);
        }
        if (n == 0) {
            return inCheck ? -MATE + ply : noMoveScore(ply);
        }
        // mate-in-one at a node the hash table does not know, once the pruning above has not cut it: the mate is
        // the best this node can score, so it is returned without searching
        if (mateInOneDepth > 0 && depth >= mateInOneDepth && entry == 0 && ply > 0 && !inCheck
                && excludedMove == Move.NONE) {
            int mate = mateInOne(list, n, ply);
            if (mate != Move.NONE) {
                tt.store(key, mate, toTt(MATE - ply - 1, ply), depth, TranspositionTable.BOUND_EXACT);
                pv[ply][0] = mate;
                pvLength[ply] = 1;
                return MATE - ply - 1;
            }
        }
        int counter = counterMove();
        orderMoves(list, scores[ply], n, ttMove, ply, counter);
        int bestScore = -INFINITE, bestMove = Move.NONE, origAlpha = alpha;
        int searched = 0, quietsSeen = 0, capturesSeen = 0;
        // shallow-depth pruning of quiet moves that do not give check: futility (the static evaluation is far below
        // alpha) and late-move pruning (the move comes late in the ordering)
        boolean pruneQuiets = lmrDepthPruning ? ply > 0 && !inCheck && Math.abs(alpha) < MATE_BOUND
                : !pvNode && !inCheck && depth <= lmpDepth && Math.abs(alpha) < MATE_BOUND;
        boolean pruneEvasions = inCheck && !pvNode && ply > 0 && depth <= evasionPruneDepth;
        boolean futile = pruneQuiets && depth <= futilityDepth
                && eval + futilityBase + futilityPerPly * depth <= alpha;
        for (int i = 0; i < n; i++) {
            int m = pickNext(list, scores[ply], i, n);
            if ((ply == 0 && isExcluded(m)) || m == excludedMove) {
                continue;
            }
            boolean quiet = isQuiet(m);
            // a quiet move that futility or late-move pruning drops unless it gives check (tested without playing
            // it); its static exchange is not needed then
            boolean lateOrFutile;
            int pruneDepth = depth;
            if (lmrDepthPruning) {
                // the depth a late-move reduction would leave this move decides its futility and static exchange
                pruneDepth = Math.max(depth - 1 - logReductions[Math.min(depth, 63)][Math.min(i + 1, 63)], 0);
                lateOrFutile = pruneQuiets && quiet && searched > 0 && (quietsSeen >= lateCount
                        || pruneDepth < futilityLmrDepth && eval + futilityBase + futilityPerPly * pruneDepth <= alpha);
            } else {
                lateOrFutile = pruneQuiets && quiet && searched > 0 && (futile || quietsSeen >= lateCount);
            }
            // history pruning: a quiet move whose history and continuation history are far below 0 near the leaves
            if (historyPrune > 0 && !lateOrFutile && pruneQuiets && quiet && searched > 0
                    && pruneDepth < HISTORY_PRUNE_DEPTH && quietStat(historyIndex(m), ply) < -historyPrune * depth) {
                lateOrFutile = true;
            }
            // static-exchange pruning at shallow depth (Stockfish's): a capture that loses more than see-capture
            // per ply of depth is not searched, nor a quiet move or drop that loses more than see-quiet per ply
            // squared, unless it gives check and the depth is above losing-check-depth
            boolean seeLoses = false;
            if ((!lateOrFutile || depth <= losingCheckDepth) && ply > 0 && !inCheck && searched > 0
                    && (depth <= SEE_PRUNE_DEPTH || lmrDepthPruning) && bestScore > -MATE_BOUND) {
                seeLoses = !pos.seeAtLeast(m, seeValue, quiet ? -seeQuiet * pruneDepth * pruneDepth
                        : -seeCapture * depth);
                if (seeLoses && (!quiet || depth <= losingCheckDepth)) {
                    continue;
                }
            }
            if ((seeLoses || lateOrFutile) && !pos.givesCheck(m)) {
                continue;
            }
            // a quiet evasion that loses material or comes late, once one evasion is known not to be mated
            if (pruneEvasions && quiet && searched > 0 && bestScore > -MATE_BOUND
                    && (quietsSeen >= lmpCount(depth) || !pos.seeAtLeast(m, seeValue, 0)) && !pos.givesCheck(m)) {
                continue;
            }
            // the child extends every check; a check that loses material by static exchange is searched one ply
            // shallower here to cancel that, when the rule set extends safe checks only
            int newDepth = depth - 1;
            if (safeCheckExtension && pos.givesCheck(m) && !pos.seeAtLeast(m, seeValue, 0)) {
                newDepth--;
            }
            if (m == extendMove) {
                newDepth++;
            }
            long nodesBefore = nodes;
            int captureSlot = -1;
            if (captureHistory != null && capturesSeen < CAPTURES_KEPT && isCapture(m)) {
                captureSlot = capturesSeen++;
                capturesTried[ply][captureSlot] = captureIndex(m);
            }
            makeMove(m, ply);
            if (quiet) {
                if (quietsSeen < QUIETS_KEPT) {
                    quietsTried[ply][quietsSeen] = m;
                }
                quietsSeen++;
            }
            int score;
            if (searched++ == 0) {
                score = -search(newDepth, -beta, -alpha, ply + 1, true, !pvNode && !cutNode);
            } else {
                int reduction = 0;
                boolean refutation = m == killers[ply][0] || m == killers[ply][1] || m == counter;
                if (wideLmr && quiet && depth >= 3 && !inCheck) {
                    reduction = Math.max(0, wideReductions[Math.min(depth, 63)][Math.min(i + 1, 63)]
                            + (improving ? 0 : 1) - (refutation ? 1 : 0));
                } else if (quiet && depth >= 3 && i >= 3 && !inCheck && !refutation) {
                    reduction = logLmr ? logReductions[Math.min(depth, 63)][Math.min(i, 63)]
                            : 1 + (i >= 8 ? 1 : 0) + (depth >= 8 && i >= 16 ? 1 : 0);
                }
                if (reduction > 0) {
                    if (pvNode) {
                        reduction--;
                    }
                    // the history of the move (read after it was played: the mover is the side not to move), with
                    // its continuation history when kept (moveIdx of the earlier plies is untouched by this move)
                    int stat = quietStat(historyIndexAfter(m), ply);
                    if (stat < -lmrHistoryBar) {
                        reduction++;
                    } else if (stat > lmrHistoryBar && reduction > 0) {
                        reduction--;
                    }
                    if (cutNode) {
                        reduction += cutNodeReduction;
                    }
                    if (kingAttackLmr > 0 && reduction > 0 && nearEnemyKing(Move.to(m))) {
                        reduction--;
                    }
                    reduction = Math.min(reduction, newDepth - 1);
                }
                // a reduced search expects its child to fail low, so the child is a cut node; a search to full
                // depth alternates the expectation, as Stockfish's does
                score = -search(newDepth - reduction, -alpha - 1, -alpha, ply + 1, true, reduction > 0 || !cutNode);
                if (score > alpha && reduction > 0) {
                    score = -search(newDepth, -alpha - 1, -alpha, ply + 1, true, !cutNode);
                }
                if (score > alpha && score < beta) {
                    score = -search(newDepth, -beta, -alpha, ply + 1, true, false);
                }
            }
            pos.undoMove();
            if (ply == 0 && rootNodes != null) {
                addRootNodes(m, nodes - nodesBefore);
            }
            if (stop) {
                return 0;
            }
            if (score > bestScore) {
                bestScore = score;
                bestMove = m;
                if (score > alpha) {
                    alpha = score;
                    pv[ply][0] = m;
                    System.arraycopy(pv[ply + 1], 0, pv[ply], 1, pvLength[ply + 1]);
                    pvLength[ply] = pvLength[ply + 1] + 1;
                    if (score >= beta) {
                        if (quiet) {
                            if (killers[ply][0] != m) {
                                killers[ply][1] = killers[ply][0];
                                killers[ply][0] = m;
                            }
                            rewardQuiet(m, ply, depth, Math.min(quietsSeen, QUIETS_KEPT));
                        }
                        if (captureHistory != null) {
                            rewardCaptures(captureSlot, ply, depth, capturesSeen);
                        }
                        break;
                    }
                }
            }
        }
        if (excludedMove != Move.NONE) {
            return searched == 0 ? alpha : bestScore; // the hash move was the only move: nothing else fails high
        }
        int bound = bestScore >= beta ? TranspositionTable.BOUND_LOWER
                : bestScore > origAlpha ? TranspositionTable.BOUND_EXACT : TranspositionTable.BOUND_UPPER;
        if (ply > 0 || excludedCount == 0) {
            tt.store(key, bestMove, toTt(bestScore, ply), depth, bound);
        }
        // the correction history learns from a score that says more than the evaluation did: not in check, not
        // decided by a capture or promotion, and not a bound on the evaluation's own side of it
        if (corr != null && !inCheck && Math.abs(bestScore) < MATE_BOUND
                && (bestMove == Move.NONE || isQuiet(bestMove))
                && !(bound == TranspositionTable.BOUND_LOWER && bestScore <= staticEval)
                && !(bound == TranspositionTable.BOUND_UPPER && bestScore >= staticEval)) {
            updateCorrection(bestScore - rawEval, depth);
        }
        return bestScore;
    }

    /**
     * Whether {@code sq} lies within {@code kingAttackLmr} king steps of the king of the side to move (called after
     * the move is made: the enemy of its mover).
     */
    private boolean nearEnemyKing(int sq) {
        int k = pos.kingSquare(pos.sideToMove());
        if (k < 0) {
            return false;
        }
        return rs.geometry.kingSteps(sq, k) <= kingAttackLmr;
    }

    /**
     * ProbCut (Stockfish's): the first captures (two, four at an expected cut node) that win at least
     * {@code raisedBeta - staticEval} by static exchange are tried with quiescence against {@code raisedBeta}, and
     * those that hold it with a search four plies shallower; the score of one that still holds it, or
     * {@link Integer#MIN_VALUE} when none does. Uses this ply's move list.
     */
    private int probCut(int raisedBeta, int depth, int ply, int ttMove, int staticEval, boolean cutNode) {
        int[] list = moves[ply];
        int k = pos.tacticalMoves(list);
        orderMoves(list, scores[ply], k, ttMove, ply, Move.NONE);
        int tried = 0;
        for (int i = 0; i < k && tried < (cutNode ? 4 : 2); i++) {
            int m = pickNext(list, scores[ply], i, k);
            if (pos.isEmpty(Move.to(m)) || !pos.seeAtLeast(m, seeValue, raisedBeta - staticEval)) {
                continue;
            }
            tried++;
            makeMove(m, ply);
            int v = -quiesce(-raisedBeta, -raisedBeta + 1, ply + 1, 0, Move.to(m));
            if (v >= raisedBeta) {
                v = -search(depth - 4, -raisedBeta, -raisedBeta + 1, ply + 1, true, !cutNode);
            }
            pos.undoMove();
            if (stop) {
                return 0;
            }
            if (v >= raisedBeta) {
                return v;
            }
        }
        pvLength[ply] = 0;
        return Integer.MIN_VALUE;
    }

    /**
     * Quiescence: captures and promotions until the position is quiet, every evasion when in check. From
     * {@link #QS_RECAPTURES_FROM} plies in, only recaptures on {@code lastTo} (the square the previous move went to)
     * are searched, as Stockfish long did: in Shodo, with thirty knights on the board, equal exchanges in every order
     * made a depth-2 search cost 85M nodes.
     */
    private int quiesce(int alpha, int beta, int ply, int qply, int lastTo) {
        return quiesce(alpha, beta, ply, qply, lastTo, pos.inCheck());
    }

    /**
     * Quiescence where the caller already knows whether the side to move is in check: {@link #search} hands its
     * own test on at depth 0, which quiescence used to repeat on the same position.
     */
    private int quiesce(int alpha, int beta, int ply, int qply, int lastTo, boolean inCheck) {
        pvLength[ply] = 0;
        nodes++;
        if (timeUp()) {
            return 0;
        }
        selDepth = Math.max(selDepth, ply);
        checkAt[ply] = inCheck;
        if (rs.endRules.extinction() && pos.pieceCount(pos.sideToMove()) == 0) {
            return -MATE + ply;
        }
        // the hash: equal exchanges reach the same position in many orders (Shodo's many knights made depth 1
        // search 28M quiescence nodes without it); a quiescence entry has depth 0
        long key = pos.key();
        long entry = tt.probe(key);
        int ttMove = Move.NONE;
        boolean pvNode = beta - alpha > 1;
        if (entry != 0) {
            int ttScore = fromTt(TranspositionTable.scoreOf(entry), ply);
            int bound = TranspositionTable.boundOf(entry);
            if (!pvNode && (bound == TranspositionTable.BOUND_EXACT
                    || (bound == TranspositionTable.BOUND_LOWER && ttScore >= beta)
                    || (bound == TranspositionTable.BOUND_UPPER && ttScore <= alpha))) {
                return ttScore;
            }
            ttMove = TranspositionTable.moveOf(entry);
        }
        int origAlpha = alpha;
        int[] list = moves[ply];
        int standPat = -INFINITE;
        int k;
        if (inCheck) {
            // every evasion is searched; none means mate
            k = pos.legalMoves(list);
            if (k == 0) {
                return -MATE + ply;
            }
        } else {
            if (mayLackMoves() && pos.legalMoves(list) == 0) {
                return noMoveScore(ply); // stalemate: a loss in the shogi family, a draw elsewhere
            }
            standPat = corrected(evaluate(ply));
            if (standPat >= beta || ply >= MAX_PLY - 1) {
                return standPat;
            }
            alpha = Math.max(alpha, standPat);
            k = pos.tacticalMoves(list);
        }
        orderMoves(list, scores[ply], k, ttMove, ply, Move.NONE);
        int best = inCheck ? -MATE + ply : standPat;
        int bestMove = Move.NONE;
        boolean checks = false; // the second phase: quiet checks at the first quiescence ply (qsearch-checks)
        for (int i = 0; ; i++) {
            if (i == k) {
                // after the captures, the first quiescence ply also tries the quiet moves and drops that give check
                // and lose nothing by static exchange; this ply's list is refilled with every legal move for them
                if (checks || !qsearchChecks || inCheck || qply > 0) {
                    break;
                }
                checks = true;
                k = pos.legalMoves(list);
                i = -1;
                continue;
            }
            int m;
            if (checks) {
                m = list[i];
                if (!isQuiet(m) || !pos.givesCheck(m) || !pos.seeAtLeast(m, seeValue, 0)) {
                    continue;
                }
            } else {
                m = pickNext(list, scores[ply], i, k);
                if (inCheck && Move.isDrop(m) && i > 0 && best > -MATE_BOUND) {
                    continue; // blocking drops after a first evasion: keep quiescence small
                }
                if (!inCheck && i >= qsearchMoves && !Move.isPromotion(m)) {
                    continue; // only the first captures in the ordering (Fairy-Stockfish's two)
                }
                if (!inCheck && !Move.isPromotion(m) && Move.kind(m) != Move.EN_PASSANT
                        && standPat + eval.value(pos.typeAt(Move.to(m))) + 200 < alpha) {
                    continue; // delta pruning: even winning the piece cannot reach alpha
                }
                if (!inCheck && scores[ply][i] < 0) {
                    continue; // a losing capture (static exchange below zero), as the ordering scored it
                }
                if (!inCheck && qply >= QS_RECAPTURES_FROM && Move.to(m) != lastTo) {
                    continue;
                }
                if (qsearchCapturesOnly && !inCheck && pos.isEmpty(Move.to(m))
                        && Move.kind(m) == Move.PROMOTION) {
                    continue; // a quiet promotion, left out where the rule set's quiescence takes captures alone
                }
            }
            makeMove(m, ply);
            int score = -quiesce(-beta, -alpha, ply + 1, qply + 1, Move.to(m));
            pos.undoMove();
            if (stop) {
                return 0;
            }
            if (score > best) {
                best = score;
                if (score > alpha) {
                    alpha = score;
                    bestMove = m;
                    if (score >= beta) {
                        break;
                    }
                }
            }
        }
        int bound = best >= beta ? TranspositionTable.BOUND_LOWER
                : best > origAlpha ? TranspositionTable.BOUND_EXACT : TranspositionTable.BOUND_UPPER;
        tt.store(key, bestMove, toTt(best, ply), 0, bound);
        return best;
    }

    /**
     * A quiet move cut off: its history rises, the quiet moves tried before it at this node fall (history gravity:
     * each update moves the score a share of the way toward +-HISTORY_MAX), and it becomes the counter move of the
     * previous move.
     */
    private void rewardQuiet(int m, int ply, int depth, int tried) {
        int bonus = Math.min(historyBonus * depth * depth, historyBonusMax);
        for (int j = 0; j < tried; j++) {
            int q = quietsTried[ply][j];
            int h = historyIndex(q);
            int delta = q == m ? bonus : -bonus;
            history[h] += delta - history[h] * Math.abs(delta) / HISTORY_MAX;
            if (cont != null) {
                for (int back = 1; back <= 2 && back <= ply; back++) {
                    int row = moveIdx[ply - back];
                    if (row >= 0) {
                        int c = contIndex(row, h);
                        cont[c] += (short) (delta - cont[c] * Math.abs(delta) / HISTORY_MAX);
                    }
                }
            }
        }
        int prev = pos.moveBack(1);
        if (prev != Move.NONE && ply > 0) {
            counterMoves[counterIndex(prev)] = m;
        }
    }

    /**
     * A move cut off: the capture history of the capture in slot {@code best} of this ply's captures tried (-1 when
     * the move was not a capture or was not kept) rises, and that of the other captures searched before it at this
     * node falls, by the quiet history's bonus and gravity.
     */
    private void rewardCaptures(int best, int ply, int depth, int tried) {
        int bonus = Math.min(historyBonus * depth * depth, historyBonusMax);
        for (int j = 0; j < tried; j++) {
            int c = capturesTried[ply][j];
            int delta = j == best ? bonus : -bonus;
            captureHistory[c] += delta - captureHistory[c] * Math.abs(delta) / HISTORY_MAX;
        }
    }

    /** Whether {@code m} takes a piece (en passant included; a drop goes to an empty square and never does). */
    private boolean isCapture(int m) {
        return !pos.isEmpty(Move.to(m)) || Move.kind(m) == Move.EN_PASSANT;
    }

    /**
     * The capture-history index of capture {@code m} in the position before it: its (piece, destination) pair
     * ({@link #historyIndex}) times the number of piece types, plus the captured type (en passant takes a piece of
     * the mover's type).
     */
    private int captureIndex(int m) {
        int victim = Move.kind(m) == Move.EN_PASSANT ? pos.typeAt(Move.from(m)) : pos.typeAt(Move.to(m));
        return historyIndex(m) * rs.pieces.size() + victim;
    }

    /**
     * The history of a quiet move of (piece, square) pair {@code h} at {@code ply}: the history, plus the
     * continuation history after the moves one and two plies before when the rule set keeps one.
     */
    private int quietStat(int h, int ply) {
        int s = history[h];
        if (cont != null) {
            for (int back = 1; back <= 2 && back <= ply; back++) {
                int row = moveIdx[ply - back];
                if (row >= 0) {
                    s += cont[contIndex(row, h)];
                }
            }
        }
        return s;
    }

    /** The continuation table's index of pair {@code h} after a move that reached pair {@code row}. */
    private int contIndex(int row, int h) {
        long i = (long) row * pairs + h;
        return contShift == 0 ? (int) i : (int) ((i * 0x9E3779B97F4A7C15L) >>> contShift);
    }

    /** The counter move stored for the opponent's last move, or {@link Move#NONE}. */
    private int counterMove() {
        int prev = pos.moveBack(1);
        return prev == Move.NONE ? Move.NONE : counterMoves[counterIndex(prev)];
    }

    /** Index of a played move by the piece now standing on its destination (its mover, promoted or not). */
    private int counterIndex(int prev) {
        int to = Move.to(prev);
        return pieceSquareIndex(pos.typeAt(to), pos.sideToMove() ^ 1, to);
    }

    /** The index of a piece of {@code type} and {@code color} on square {@code to} in the history and counter tables. */
    private int pieceSquareIndex(int type, int color, int to) {
        return Position.pieceCode(color, type) * squares + to;
    }

    /**
     * Improving (Stockfish's): not in check ({@code staticEval} is -INFINITE then) and the static evaluation is above
     * the one of this side two plies before, or four when that side was in check then (true when neither is known).
     */
    private boolean improving(int ply, int staticEval) {
        if (staticEval == -INFINITE) {
            return false;
        }
        int before = ply < 2 ? -INFINITE : staticEvals[ply - 2] != -INFINITE ? staticEvals[ply - 2]
                : ply >= 4 ? staticEvals[ply - 4] : -INFINITE;
        return staticEval > before;
    }

    /** Late-move pruning: quiet moves beyond this many at a shallow non-PV node are not searched. */
    private static int lmpCount(int depth) {
        return 3 + depth * depth;
    }

    /**
     * A capture that likely loses material: static exchange evaluation below zero. (Promotions never count as
     * losing.)
     */
    private boolean losingCapture(int m) {
        if (Move.isDrop(m) || Move.kind(m) == Move.PROMOTION || Move.kind(m) == Move.EN_PASSANT) {
            return false;
        }
        return !pos.seeAtLeast(m, seeValue, 0);
    }

    private boolean isExcluded(int m) {
        for (int i = 0; i < excludedCount; i++) {
            if (excluded[i] == m) {
                return true;
            }
        }
        return false;
    }

    /** The static evaluation {@code v} with the correction history's entry for this position added, if kept. */
    private int corrected(int v) {
        if (corr == null) {
            return v;
        }
        return Math.clamp(v + corr[corrIndex()] / CORR_GRAIN, -MATE_BOUND + 1, MATE_BOUND - 1);
    }

    /** This position's slot in {@link #corr}: its pawn structure and side to move. */
    private int corrIndex() {
        return (int) (pos.pawnKey() >>> (64 - CORR_BITS)) << 1 | pos.sideToMove();
    }

    /**
     * Moves this position's correction toward {@code error} (the search's score less the raw evaluation), the more
     * the deeper the search: by (depth + 1)^2 / 256, at most half (Weiss's weights).
     */
    private void updateCorrection(int error, int depth) {
        int i = corrIndex();
        int weight = Math.min((depth + 1) * (depth + 1), 128);
        int e = Math.clamp(error, -16 * CORR_MAX, 16 * CORR_MAX); // no overflow below
        int v = (corr[i] * (256 - weight) + e * CORR_GRAIN * weight) / 256;
        corr[i] = Math.clamp(v, -CORR_MAX * CORR_GRAIN, CORR_MAX * CORR_GRAIN);
    }

    /**
     * The type of the rule set's non-royal piece with one-letter {@code letter}; an IllegalArgumentException naming
     * the .search key {@code key} when there is none.
     */
    private int typeOfLetter(char letter, String key) {
        for (var t : rs.pieces) {
            if (!t.royal() && t.letter().equals(String.valueOf(letter))) {
                return t.index();
            }
        }
        throw new IllegalArgumentException(rs.id + ".search: " + key + ": " + rs.id + " has no non-royal piece '"
                + letter + "'");
    }

    /**
     * The endgame scale in 64ths for the side {@code strong} that the evaluation favours: the factor of the first
     * endgame-scale entry whose pieces the board holds exactly, else of the first opposite-colour-scale piece that
     * stands alone beside each side's pawns on squares of different colours, else of the first wrong-bishop-scale
     * piece that is the favoured side's only piece beside rook's pawns of the wrong colour, else 64. Only with nothing
     * in hand.
     */
    private int endgameScale(int strong) {
        for (int type : handTypes) {
            if (pos.handCount(0, type) > 0 || pos.handCount(1, type) > 0) {
                return 64;
            }
        }
        int types = rs.pieces.size();
        if (pos.pieceCount(0) + pos.pieceCount(1) <= scaleMaxPieces) {
            for (int e = 0; e < scaleCounts.length; e++) {
                int[] need = scaleCounts[e];
                boolean match = true;
                for (int t = 0; t < types && match; t++) {
                    match = t == rs.royalType || pos.codeCount(Position.pieceCode(strong, t)) == need[t]
                            && pos.codeCount(Position.pieceCode(strong ^ 1, t)) == need[types + t];
                }
                if (match) {
                    return scaleFactors[e];
                }
            }
        }
        for (int k = 0; k < ocbTypes.length; k++) {
            int l = ocbTypes[k];
            if (pos.codeCount(Position.pieceCode(0, l)) == 1 && pos.codeCount(Position.pieceCode(1, l)) == 1
                    && aloneWithPawns(0, l) && aloneWithPawns(1, l)
                    && !rs.geometry.sameShade(squareOf(0, l), squareOf(1, l))) {
                return ocbFactors[k];
            }
        }
        for (int k = 0; k < wrongBishopTypes.length; k++) {
            int l = wrongBishopTypes[k];
            if (pos.codeCount(Position.pieceCode(strong, l)) == 1 && aloneWithPawns(strong, l)
                    && wrongBishop(strong, squareOf(strong, l))) {
                return wrongBishopFactors[k];
            }
        }
        return 64;
    }

    /**
     * Whether side {@code strong}'s pawns (one at least) all stand on one edge file whose square on strong's far rank
     * is of the other colour than {@code piece}'s square, with the other side's royal piece at most one king step
     * from that square (wrong-bishop-scale).
     */
    private boolean wrongBishop(int strong, int piece) {
        if (rs.royalType < 0) {
            return false;
        }
        Geometry g = rs.geometry;
        int file = -1;
        for (int i = 0, n = pos.pieceCount(strong); i < n; i++) {
            int sq = pos.pieceSquare(strong, i), t = pos.typeAt(sq);
            if (t == rs.royalType || sq == piece) {
                continue;
            }
            int f = g.file(sq);
            if (f != 0 && f != g.files - 1 || file >= 0 && f != file) {
                return false;
            }
            file = f;
        }
        if (file < 0) {
            return false;
        }
        int corner = g.square(file, strong == 0 ? g.ranks - 1 : 0);
        if (g.sameShade(corner, piece)) {
            return false;
        }
        int king = squareOf(strong ^ 1, rs.royalType);
        return king >= 0 && g.kingSteps(king, corner) <= 1;
    }

    /** Whether side c's pieces on the board are its royal pieces, one piece of type l and pawns. */
    private boolean aloneWithPawns(int c, int l) {
        int royal = rs.royalType >= 0 ? pos.codeCount(Position.pieceCode(c, rs.royalType)) : 0;
        int others = pos.pieceCount(c) - 1 - royal;
        for (int t : pawnTypes) {
            others -= pos.codeCount(Position.pieceCode(c, t));
        }
        return others == 0;
    }

    /** The square of side c's first piece of type t on the board (-1 when none). */
    private int squareOf(int c, int t) {
        for (int i = 0, n = pos.pieceCount(c); i < n; i++) {
            int sq = pos.pieceSquare(c, i);
            if (pos.typeAt(sq) == t) {
                return sq;
            }
        }
        return -1;
    }

    /**
     * The static evaluation, scaled down where the side ahead has no pawn and too little extra to win
     * (pawnless-scale), in the endings endgame-scale, opposite-colour-scale and wrong-bishop-scale name, damped toward
     * 0 as the move rule's count grows (move-rule-damping), with the skill level's
     * noise when strength is limited.
     */
    private int evaluate(int ply) {
        int v = nnue == null ? eval.evaluate(pos)
                : nnue.evaluate(ply, pos.sideToMove(), pos.pieceCount(0) + pos.pieceCount(1)) * netScale / 100
                        + (netTerms == null ? 0 : netTerms.evaluate(pos));
        if (pawnlessScale > 0 && v != 0) {
            v = v * pawnlessScale(v > 0 ? pos.sideToMove() : pos.sideToMove() ^ 1) / 64;
        }
        if (v != 0 && scaleFactors.length + ocbTypes.length + wrongBishopTypes.length > 0) {
            v = v * endgameScale(v > 0 ? pos.sideToMove() : pos.sideToMove() ^ 1) / 64;
        }
        if (moveRuleDamping > 0) {
            v = v * Math.max(0, moveRuleDamping - pos.halfmoveClock()) / moveRuleDamping;
        }
        if (noise > 0) {
            long h = (pos.key() ^ noiseSeed) * 0x9E3779B97F4A7C15L;
            v += (int) ((h >>> 40) % (2L * noise + 1)) - noise;
        }
        return v;
    }

    /**
     * pawnless-scale's factor in 64ths for the side {@code strong} that the evaluation favours (Stockfish's rule for
     * an ending without the stronger side's pawns, with the lead M = {@link #pawnlessScale}): 64 when it has a pawn
     * on the board or leads in the other pieces on the board (royal pieces apart) by more than M; else 0 when its
     * pieces are worth at most M (a lone minor piece does not mate), 4 when the other side's are worth at most M, 14
     * otherwise. Pieces in hand are not counted.
     */
    private int pawnlessScale(int strong) {
        int own = eval.pawnlessMaterial(pos, strong);
        if (own < 0) {
            return 64;
        }
        int other = eval.boardMaterial(pos, strong ^ 1);
        if (own - other > pawnlessScale) {
            return 64;
        }
        return own <= pawnlessScale ? 0 : other <= pawnlessScale ? 4 : 14;
    }

    /**
     * Whether the side to move is bare enough (at most {@link #FEW_PIECES} pieces on the board, none in hand) that it
     * may have no legal move. Only then do the search and quiescence generate moves before standing pat or pruning:
     * otherwise a stalemate (a loss in the shogi family, a draw in chess) just over the horizon would be scored by the
     * static evaluation, and a mate by stalemate missed or a stalemate walked into.
     */
    private boolean mayLackMoves() {
        int us = pos.sideToMove();
        if (pos.pieceCount(us) > FEW_PIECES) {
            return false;
        }
        for (int type : handTypes) {
            if (pos.handCount(us, type) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The score of a side to move that has no legal move and is not in check. */
    private int noMoveScore(int ply) {
        return stalemateLoses ? -MATE + ply : drawScore();
    }

    private boolean hasPieces() {
        int us = pos.sideToMove();
        if (rs.drops) {
            return true;
        }
        int big = 0;
        for (int i = 0; i < pos.pieceCount(us); i++) {
            int type = pos.typeAt(pos.pieceSquare(us, i));
            if (!rs.piece(type).pawn() && !rs.piece(type).royal()) {
                big++;
            }
        }
        return big >= (rs.royalType >= 0 ? 1 : 3);
    }

    private boolean isQuiet(int m) {
        int kind = Move.kind(m);
        if (kind == Move.PROMOTION || kind == Move.EN_PASSANT) {
            return false;
        }
        return kind == Move.DROP || pos.isEmpty(Move.to(m));
    }

    private int historyIndex(int m) {
        int type = Move.isDrop(m) ? Move.type(m) : pos.typeAt(Move.from(m));
        return pieceSquareIndex(type, pos.sideToMove(), Move.to(m));
    }

    /**
     * {@link #historyIndex} of a quiet move that has just been played: its piece, unpromoted, stands on its
     * destination.
     */
    private int historyIndexAfter(int m) {
        return pieceSquareIndex(pos.typeAt(Move.to(m)), pos.sideToMove() ^ 1, Move.to(m));
    }

    /**
     * The ordering score of a quiet move or drop: the killers, then the counter move, then the history plus
     * {@code historyOffset}.
     */
    private int quietOrder(int m, int ply, int counter, int historyOffset) {
        if (m == killers[ply][0]) {
            return 1 << 26;
        }
        if (m == killers[ply][1]) {
            return (1 << 26) - 1;
        }
        if (m == counter) {
            return (1 << 26) - 2;
        }
        return quietStat(historyIndex(m), ply) + historyOffset;
    }

    /** Scores moves for ordering: hash move, captures by victim then attacker, promotions, killers, history. */
    private void orderMoves(int[] list, int[] sc, int n, int ttMove, int ply, int counter) {
        for (int i = 0; i < n; i++) {
            int m = list[i];
            int s;
            if (m == ttMove) {
                s = 1 << 30;
            } else if (Move.kind(m) == Move.DROP) {
                s = quietOrder(m, ply, counter, -1000);
            } else {
                int to = Move.to(m);
                int attacker = eval.value(pos.typeAt(Move.from(m)));
                if (isCapture(m)) {
                    int victim = pos.isEmpty(to) ? eval.value(pos.typeAt(Move.from(m))) : eval.value(pos.typeAt(to));
                    s = GOOD_CAPTURE + SEE_PENDING + victim * 16 - attacker / 16;
                    if (captureHistory != null) {
                        // half the capture history, kept above 0 so that the score stays in the pending band
                        s += (captureHistory[captureIndex(m)] + HISTORY_MAX) / 2;
                    }
                } else if (Move.kind(m) == Move.PROMOTION) {
                    s = (1 << 27) + eval.value(Move.type(m));
                } else {
                    s = quietOrder(m, ply, counter, 0);
                }
                if (Move.kind(m) == Move.PROMOTION && !pos.isEmpty(to)) {
                    s += eval.value(Move.type(m));
                }
            }
            sc[i] = s;
        }
    }

    /** The ordering score of a capture that does not lose material (plus its victim and attacker). */
    private static final int GOOD_CAPTURE = 1 << 28;
    /** The ordering score of a capture that loses material by static exchange (plus its victim and attacker). */
    private static final int LOSING_CAPTURE = -(1 << 22);
    /**
     * Added to a capture's score until its static exchange is known: {@link #pickNext} works it out only when the
     * capture would be picked, so captures after a cutoff cost nothing (the order is the one scoring them all first
     * would give).
     */
    private static final int SEE_PENDING = 1 << 24;

    /**
     * Selection sort step: brings the best-scored move of list[i..n) to position i. A capture whose static exchange
     * is pending gets it now; a losing one is scored down in place and the choice made again.
     */
    private int pickNext(int[] list, int[] sc, int i, int n) {
        int best;
        while (true) {
            best = i;
            for (int j = i + 1; j < n; j++) {
                if (sc[j] > sc[best]) {
                    best = j;
                }
            }
            int s = sc[best];
            if (s < GOOD_CAPTURE + SEE_PENDING || s >= GOOD_CAPTURE + 2 * SEE_PENDING) {
                break;
            }
            if (!losingCapture(list[best])) {
                sc[best] = s - SEE_PENDING;
                break;
            }
            sc[best] = s - GOOD_CAPTURE - SEE_PENDING + LOSING_CAPTURE;
        }
        int m = list[best];
        list[best] = list[i];
        list[i] = m;
        int s = sc[best];
        sc[best] = sc[i];
        sc[i] = s;
        return m;
    }

    private static int toTt(int score, int ply) {
        return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
    }

    private static int fromTt(int score, int ply) {
        return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
    }
}
