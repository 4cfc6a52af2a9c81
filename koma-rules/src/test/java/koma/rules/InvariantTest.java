package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Position invariants on every position of seeded random walks ({@link RandomWalks}) of every rule set:
 * incremental key, FEN/SFEN round trips, do/undo, colour-mirror perft, no self-check and distinct moves.
 */
class InvariantTest {
    /** Perft depth 3 of a position and its mirror is run only when depth 2 stays under this many leaves. */
    static final long DEPTH3_LIMIT = 12_000;

    static Stream<String> ids() {
        return RuleSet.IDS.stream();
    }

    static List<Position> walk(String id) {
        List<Position> ps = RandomWalks.positions(id);
        assertTrue(ps.size() > RandomWalks.PLIES, id + ": walks too short to test anything, " + ps.size());
        return ps;
    }

    // (a) the key kept up to date by doMove equals the key computed from scratch
    @ParameterizedTest
    @MethodSource("ids")
    void incrementalKeyEqualsComputedKey(String id) {
        for (Position p : walk(id)) {
            assertEquals(p.computeKey(), p.key(), () -> id + ": key drifted in " + Fen.format(p));
            assertEquals(p.computePawnKey(), p.pawnKey(), () -> id + ": pawn key drifted in " + Fen.format(p));
        }
        // the pawn key is not trivially 0: a rule set with pawns starts with some on the board (Shodo has none)
        RuleSet rs = RuleSet.of(id);
        assertEquals(rs.pieces.stream().anyMatch(PieceType::pawn), Position.start(rs).pawnKey() != 0, id);
    }

    // (b) format -> parse -> format is the identity and keeps the key, for the default notation, FEN and SFEN
    @ParameterizedTest
    @MethodSource("ids")
    void fenAndSfenRoundTrip(String id) {
        RuleSet rs = RuleSet.of(id);
        for (Position p : walk(id)) {
            String text = Fen.format(p);
            Position q = Fen.parse(rs, text);
            assertEquals(text, Fen.format(q), id + ": default notation round trip");
            assertEquals(p.key(), q.key(), () -> id + ": key after parse of " + text);

            String fen = Fen.formatFen(p);
            Position f = Fen.parseFen(rs, fen);
            assertEquals(fen, Fen.formatFen(f), id + ": FEN round trip");
            assertEquals(p.key(), f.key(), () -> id + ": key after parseFen of " + fen);
            assertEquals(p.halfmoveClock(), f.halfmoveClock(), () -> id + ": halfmove clock of " + fen);

            // SFEN carries neither castling nor en passant, so it round-trips as text everywhere, and keeps
            // the key where those are absent (always in the shogi family)
            String sfen = Fen.formatSfen(p);
            Position s = Fen.parseSfen(rs, sfen);
            assertEquals(sfen, Fen.formatSfen(s), id + ": SFEN round trip");
            if (p.castlingRights() == 0 && p.enPassantSquare() < 0) {
                assertEquals(p.key(), s.key(), () -> id + ": key after parseSfen of " + sfen);
            }
        }
    }

    // (c) doMove + undoMove restores FEN (all fields) and key; after doMove the incremental key is exact
    @ParameterizedTest
    @MethodSource("ids")
    void doUndoRestoresPositionAndKeepsKeyExact(String id) {
        for (Position p : walk(id)) {
            String before = Fen.formatFen(p);
            long key = p.key(), pawnKey = p.pawnKey();
            int ply = p.gamePly();
            for (int m : p.legalMoves()) {
                p.doMove(m);
                assertEquals(p.computeKey(), p.key(), () -> id + ": key after " + Integer.toHexString(m) + " in " + before);
                assertEquals(p.computePawnKey(), p.pawnKey(), () -> id + ": pawn key after "
                        + Integer.toHexString(m) + " in " + before);
                assertEquals(ply + 1, p.gamePly());
                p.undoMove();
                assertEquals(before, Fen.formatFen(p), () -> id + ": undo of " + Integer.toHexString(m));
                assertEquals(key, p.key(), () -> id + ": key after undo of " + Integer.toHexString(m) + " in " + before);
                assertEquals(pawnKey, p.pawnKey(), () -> id + ": pawn key after undo of " + Integer.toHexString(m));
            }
            assertEquals(0, p.historyLength());
        }
    }

    // (d) the colour-mirrored position (ranks flipped, colours, hands, side and castling swapped) has the same
    // perft; every piece of the six rule sets is left-right symmetric, so a vertical flip is a true mirror
    @ParameterizedTest
    @MethodSource("ids")
    void mirroredPositionHasEqualPerft(String id) {
        List<Position> ps = walk(id);
        int checked3 = 0;
        for (int i = 0; i < ps.size(); i += 3) {
            Position p = ps.get(i).copy();
            Position m = mirror(p);
            assertEquals(Fen.format(p), Fen.format(mirror(m)), id + ": mirroring twice is the identity");
            assertEquals(p.inCheck(), m.inCheck(), () -> id + ": check status of mirror of " + Fen.format(p));
            long p2 = new Perft(p, 2).perft(2);
            assertEquals(p2, new Perft(m, 2).perft(2), () -> id + ": perft 2 of " + Fen.format(p) + " vs mirror " + Fen.format(m));
            if (p2 <= DEPTH3_LIMIT) {
                checked3++;
                assertEquals(new Perft(p, 3).perft(3), new Perft(m, 3).perft(3),
                        () -> id + ": perft 3 of " + Fen.format(p) + " vs mirror " + Fen.format(m));
            }
        }
        assertTrue(checked3 > 0, id + ": no position was small enough for perft 3");
    }

    // (e) no legal move leaves the mover's royal piece attacked, and no move is generated twice
    @ParameterizedTest
    @MethodSource("ids")
    void legalMovesAreSafeAndDistinct(String id) {
        for (Position p : walk(id)) {
            int[] moves = p.legalMoves();
            Set<Integer> seen = new HashSet<>();
            for (int m : moves) {
                assertTrue(seen.add(m), () -> id + ": move " + Integer.toHexString(m) + " generated twice in " + Fen.format(p));
            }
            assertEquals(moves.length > 0, p.hasLegalMove());
            int mover = p.sideToMove();
            for (int m : moves) {
                p.doMove(m);
                int k = p.kingSquare(mover);
                if (RuleSet.of(id).royalType >= 0) {
                    assertTrue(k >= 0, id + ": royal piece vanished");
                    assertFalse(p.attacked(k, mover ^ 1),
                            () -> id + ": move " + Integer.toHexString(m) + " leaves the royal piece attacked, after it: " + Fen.format(p));
                }
                p.undoMove();
            }
        }
    }

    // the walks are not vacuous: they meet every special move kind the rule set has, for both colours
    @ParameterizedTest
    @MethodSource("ids")
    void walksMeetEverySpecialMoveKind(String id) {
        RuleSet rs = RuleSet.of(id);
        Set<String> seen = new HashSet<>();
        for (Position p : walk(id)) {
            for (int m : p.legalMoves()) {
                seen.add(Move.kind(m) + "/" + p.sideToMove());
                if (!Move.isDrop(m) && !p.isEmpty(Move.to(m))) {
                    seen.add("capture/" + p.sideToMove());
                }
            }
        }
        Set<String> want = new HashSet<>();
        for (int c = 0; c < 2; c++) {
            want.add("capture/" + c);
            boolean promotes = rs.pieces.stream().anyMatch(PieceType::canPromote);
            if (promotes) {
                want.add(Move.PROMOTION + "/" + c);
            }
            if (rs.drops) {
                want.add(Move.DROP + "/" + c);
            }
            if (rs.castling) {
                want.add(Move.CASTLING + "/" + c);
                want.add(Move.EN_PASSANT + "/" + c);
            }
        }
        assertTrue(seen.containsAll(want), id + ": walks met only " + seen + ", want " + want);
    }

    /** The colour mirror of p, built square by square through the setup API. */
    static Position mirror(Position p) {
        RuleSet rs = p.ruleSet();
        Geometry g = p.geometry();
        Position m = Position.empty(rs);
        for (int sq = 0; sq < g.squares; sq++) {
            if (!p.isEmpty(sq)) {
                m.setPiece(flip(g, sq), p.colorAt(sq) ^ 1, p.typeAt(sq));
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int t = 0; t < rs.pieceCount(); t++) {
                m.setHandCount(c ^ 1, t, p.handCount(c, t));
            }
        }
        m.setSideToMove(p.sideToMove() ^ 1);
        int cr = p.castlingRights();
        m.setCastlingRights((cr & 3) << 2 | (cr >> 2) & 3);
        if (p.enPassantSquare() >= 0) {
            m.setEnPassantSquare(flip(g, p.enPassantSquare()));
        }
        m.setHalfmoveClock(p.halfmoveClock());
        m.setGamePly(p.gamePly());
        return m.validate();
    }

    static int flip(Geometry g, int sq) {
        return g.square(g.file(sq), g.ranks - 1 - g.rank(sq));
    }
}
