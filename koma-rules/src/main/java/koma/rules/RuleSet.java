package koma.rules;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A rule set as data: board, pieces, setup and the few rules that are not movement, each a small typed record.
 * Loaded from {@code /koma/rules/<id>.rules} by {@link RuleSetLoader}; the move tables are compiled once.
 */
public final class RuleSet {
    /** The built-in rule sets in display order, as listed in {@code /koma/rules/index}. */
    public static final List<String> IDS = RuleSetLoader.builtinIds();

    /** How promotion is offered: on arrival in the zone (chess, Shodo) or on any move touching it (shogi). */
    public enum PromotionTrigger { ARRIVAL, TOUCH }

    /** Promotion zone depth in ranks from the far edge and when it applies. */
    public record Promotion(int zoneDepth, PromotionTrigger trigger) {
    }

    /** Repetition: claimable at the {@code claimAt}-th occurrence, automatic at {@code autoAt} (0 = never). */
    public record Repetition(int claimAt, int autoAt, boolean perpetualCheckLoses) {
    }

    /** Move-count rule in plies without capture or pawn move: claimable and automatic (0 = none). */
    public record MoveRule(int claimPlies, int autoPlies) {
    }

    /** Impasse: the 24-point count by agreement, and the optional 27-point declaration. */
    public record Impasse(boolean count24, boolean declaration27) {
    }

    /** Dead-position rule hooks: which insufficient-material list applies. */
    public enum Material { NONE, CHESS, SHODO, BARE_KINGS }

    /** Every end-of-game rule that is not checkmate. */
    public record EndRules(Outcome stalemate, Repetition repetition, MoveRule moveRule, Material material,
                           boolean extinction, Impasse impasse) {
    }

    private static final Map<String, RuleSet> CACHE = new ConcurrentHashMap<>();

    public final String id;
    public final String name;
    public final Geometry geometry;
    public final List<PieceType> pieces;
    public final String startFen;
    /** True when positions are written as SFEN (shogi) by default; FEN otherwise. */
    public final boolean sfen;
    public final boolean castling;
    public final Promotion promotion;
    public final boolean drops;
    public final EndRules endRules;
    /** How it is shown, written and named (family, notations, records, names in other programs, kanji). */
    public final Conventions conventions;
    /** Index of the royal type, or -1 (deathmatch). */
    public final int royalType;
    final MoveTables tables;
    /** The bitboard form of the tables on boards of at most 64 squares without drops, else null. */
    final Bitboards bitboards;

    RuleSet(String id, String name, Geometry geometry, List<PieceType> pieces, String startFen, boolean sfen,
            boolean castling, Promotion promotion, boolean drops, EndRules endRules, Conventions conventions) {
        this.id = id;
        this.name = name;
        this.geometry = geometry;
        this.pieces = List.copyOf(pieces);
        this.startFen = startFen;
        this.sfen = sfen;
        this.castling = castling;
        this.promotion = promotion;
        this.drops = drops;
        this.endRules = endRules;
        this.conventions = conventions;
        int royal = -1;
        for (PieceType p : pieces) {
            if (p.royal()) {
                royal = p.index();
            }
        }
        this.royalType = royal;
        this.tables = new MoveTables(this);
        this.bitboards = Bitboards.applies(this) ? new Bitboards(this) : null;
    }

    /** The built-in rule set with this identifier; throws IllegalArgumentException naming the known ones. */
    public static RuleSet of(String id) {
        if (!IDS.contains(id)) {
            throw new IllegalArgumentException("unknown rule set '" + id + "'; known: " + String.join(", ", IDS));
        }
        return CACHE.computeIfAbsent(id, RuleSetLoader::loadBuiltin);
    }

    /** The built-in rule set known to other programs (XBoard, UCI_Variant, Fairy-Stockfish) by this name, or null. */
    public static RuleSet byExternalName(String name) {
        for (String id : IDS) {
            RuleSet rs = of(id);
            Conventions c = rs.conventions;
            if (id.equals(name) || name.equals(c.xboard()) || c.xboardAliases().contains(name)
                    || name.equals(c.uciVariant()) || name.equals(c.fairyStockfish())) {
                return rs;
            }
        }
        return null;
    }

    /**
     * The default rule set: the first of the index (chess). A PGN game without a Variant tag, a UCI or XBoard engine
     * before it is told a variant and the command line without --variant use it.
     */
    public static RuleSet standard() {
        return of(IDS.get(0));
    }

    /**
     * The rule set an engine speaking this protocol ({@code uci}, {@code usi}, {@code xboard}) plays before it is
     * told a variant: the first built-in one whose definition lists the protocol (chess for UCI, shogi for USI).
     */
    public static RuleSet defaultFor(String protocol) {
        for (String id : IDS) {
            if (of(id).conventions.protocols().contains(protocol)) {
                return of(id);
            }
        }
        throw new IllegalArgumentException("no built-in rule set is spoken over " + protocol);
    }

    /** The first built-in rule set whose definition lists this record format ({@code kif}, {@code csa}). */
    public static RuleSet withRecords(String format) {
        for (String id : IDS) {
            if (of(id).conventions.records().contains(format)) {
                return of(id);
            }
        }
        throw new IllegalArgumentException("no built-in rule set is written in " + format);
    }

    public int pieceCount() {
        return pieces.size();
    }

    public PieceType piece(int type) {
        return pieces.get(type);
    }

    /** The type with this upper-case letter ("P", "+P"), or -1. */
    public int typeOf(String letter) {
        for (PieceType p : pieces) {
            if (p.letter().equals(letter)) {
                return p.index();
            }
        }
        return -1;
    }

    /** True when a square is in the promotion zone of the given side. */
    public boolean inZone(int color, int sq) {
        return geometry.relativeRank(color, sq) >= geometry.ranks - promotion.zoneDepth();
    }

    @Override
    public String toString() {
        return id;
    }
}
