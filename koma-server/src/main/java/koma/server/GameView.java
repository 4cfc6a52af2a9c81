package koma.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.engine.SkillLevels;
import koma.rules.Conventions;
import koma.rules.notation.Pgn;
import koma.rules.notation.ShogiNotation;
import koma.rules.Move;
import koma.rules.PieceDiagram;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.San;

/** The JSON shapes of docs/server-api.md: a game as a seat sees it, and a rule set with its piece diagrams. */
final class GameView {
    private GameView() {
    }

    /** A seat: which sides a request's cookie holds. */
    enum Seat {
        NONE, FIRST, SECOND, BOTH;

        boolean holds(int side) {
            return this == BOTH || (side == 0 && this == FIRST) || (side == 1 && this == SECOND);
        }

        String json() {
            return this == NONE ? null : name().toLowerCase();
        }
    }

    /** The game as {@code GET /api/games/{id}} returns it, for a seat, from a snapshot (no lock needed). */
    static Map<String, Object> game(GameSnapshot g, Seat seat, long now) {
        return game(g, seat, now, null);
    }

    /**
     * The game with each side's rating change once it ended rated ({@code diffs}, null otherwise).
     */
    static Map<String, Object> game(GameSnapshot g, Seat seat, long now, int[] diffs) {
        Position p = g.current();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", g.id());
        out.put("variant", g.rules().id);
        out.put("mode", g.mode().name().toLowerCase());
        out.put("status", g.status());
        out.put("version", g.version());
        out.put("you", seat.json());
        Map<String, Object> players = new LinkedHashMap<>();
        players.put("first", g.players().get(0));
        players.put("second", g.players().get(1));
        out.put("players", players);
        out.put("accounts", accounts(g.accounts(), diffs));
        out.put("rated", g.rated());
        out.put("initialFen", g.initialFen());
        out.put("fen", Fen.format(p));
        out.put("ply", g.ply());
        out.put("sideToMove", LiveGame.side(p.sideToMove()));
        out.put("board", board(p));
        out.put("hands", hands(p));
        out.put("check", p.inCheck());
        out.put("lastMove", g.history().isEmpty() ? null : g.history().get(g.ply() - 1).get("move"));
        out.put("legalMoves", g.legalMoves());
        out.put("canClaimDraw", g.drawClaimable());
        out.put("moves", g.history());
        out.put("clock", g.clock().view(g.active() ? p.sideToMove() : -1, now));
        out.put("drawOffer", LiveGame.side(g.drawOffer()));
        out.put("result", result(g.winner(), g.termination()));
        GameSnapshot.Actions a = g.actions();
        out.put("takebackOffer", LiveGame.side(a.takebackOffer()));
        out.put("rematch", rematch(a, g.mode(), g.finished(), g.tokens().get(0) != null && g.tokens().get(1) != null));
        // each chat room is shown to its own only: the seats see the players' room, everyone else the spectators'
        out.put("chat", seat == Seat.NONE ? a.spectatorsChat() : a.playersChat());
        return out;
    }

    /**
     * The accounts per side as the API shows them: {@code {"name", "rating", "provisional", "bot"}} and, after a
     * rated game, {@code "diff"}; null for a guest or the computer; a deleted account shows {@code "name": null}.
     */
    static List<Map<String, Object>> accounts(List<PlayerAccount> accounts, int[] diffs) {
        List<Map<String, Object>> out = new ArrayList<>(2);
        for (int side = 0; side < 2; side++) {
            PlayerAccount a = accounts.get(side);
            if (a == null) {
                out.add(null);
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", a.name());
            m.put("rating", a.rating());
            m.put("provisional", a.provisional());
            m.put("bot", a.bot());
            if (diffs != null) {
                m.put("diff", diffs[side]);
            }
            out.add(m);
        }
        return out;
    }

    /**
     * The rematch object of the game and its events: the offer, whether one was declined, the rematch game's id, and
     * whether a rematch may be offered now (a finished friend game both players sat in, none agreed or declined).
     */
    static Map<String, Object> rematch(GameSnapshot.Actions a, LiveGame.Mode mode, boolean finished, boolean bothSeated) {
        Map<String, Object> r = a.rematchView();
        r.put("available", mode == LiveGame.Mode.FRIEND && finished && bothSeated && a.rematchId() == null
                && a.rematchOffer() != GameSnapshot.Actions.REMATCH_DECLINED);
        return r;
    }

    /** The result object: winner, termination and the score text ({@code *} for a game ended without result). */
    static Map<String, Object> result(Integer winner, String termination) {
        if (termination == null) {
            return null;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("winner", LiveGame.side(winner));
        r.put("termination", termination);
        r.put("text", scoreText(winner));
        return r;
    }

    /** 1-0, 0-1, 1/2-1/2, or * for no result. */
    static String scoreText(int winner) {
        return winner == 0 ? "1-0" : winner == 1 ? "0-1" : winner == LiveGame.NO_RESULT ? "*" : "1/2-1/2";
    }

    static List<Map<String, Object>> board(Position p) {
        List<Map<String, Object>> out = new ArrayList<>();
        RuleSet rs = p.ruleSet();
        for (int sq = 0; sq < rs.geometry.squares; sq++) {
            if (p.isEmpty(sq)) {
                continue;
            }
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("square", Fen.squareName(rs.geometry, sq));
            e.put("piece", rs.piece(p.typeAt(sq)).letter());
            e.put("side", LiveGame.side(p.colorAt(sq)));
            out.add(e);
        }
        return out;
    }

    static Map<String, Object> hands(Position p) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int c = 0; c < 2; c++) {
            Map<String, Integer> h = new LinkedHashMap<>();
            if (p.ruleSet().drops) {
                for (int type : p.handTypes()) {
                    int n = p.handCount(c, type);
                    if (n > 0) {
                        h.put(p.ruleSet().piece(type).letter(), n);
                    }
                }
            }
            out.put(LiveGame.side(c), h);
        }
        return out;
    }

    /** A move list in the rule set's readable notation (SAN for chess-like rule sets, else Western shogi notation). */
    static List<String> readable(Position from, int[] moves) {
        List<String> out = new ArrayList<>();
        Position p = from.copy();
        boolean san = Pgn.usesSan(p.ruleSet());
        for (int m : moves) {
            if (m == Move.NONE || !p.isLegal(m)) {
                break;
            }
            out.add(san ? San.format(p, m) : ShogiNotation.western(p, m));
            p.doMove(m);
        }
        return out;
    }

    /** A rule set as {@code GET /api/variants/{id}} returns it. */
    static Map<String, Object> variant(RuleSet rs) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", rs.id);
        out.put("name", rs.name);
        out.put("files", rs.geometry.files);
        out.put("ranks", rs.geometry.ranks);
        out.put("drops", rs.drops);
        out.put("startFen", rs.startFen);
        out.put("promotionRanks", rs.promotion.zoneDepth());
        out.put("promotionTrigger", rs.promotion.trigger().name().toLowerCase());
        // which claims a player may make in this rule set (the page offers only those buttons)
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("draw", rs.endRules.repetition().claimAt() > 0 || rs.endRules.moveRule().claimPlies() > 0);
        claims.put("impasse", rs.endRules.impasse().count24());
        out.put("claims", claims);
        conventions(rs, out);
        List<Map<String, Object>> pieces = new ArrayList<>();
        for (PieceType pt : rs.pieces) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("letter", pt.letter());
            e.put("name", pt.name());
            e.put("betza", pt.betza());
            e.put("royal", pt.royal());
            List<String> promotes = new ArrayList<>();
            for (int t : pt.promotions()) {
                promotes.add(rs.piece(t).letter());
            }
            e.put("promotesTo", promotes.isEmpty() ? null : promotes.size() == 1 ? promotes.get(0) : promotes);
            e.put("promoted", pt.promoted());
            // the rules a rules page states about this piece: must promote on the last ranks, nifu, uchifuzume
            e.put("forcedRanks", pt.canPromote() ? pt.forcedRanks() : 0);
            e.put("dropOneFile", rs.drops && pt.dropOneFile());
            e.put("dropNoMate", rs.drops && pt.dropNoMate());
            List<Map<String, Object>> moves = new ArrayList<>();
            for (PieceDiagram.Step s : PieceDiagram.of(pt)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("dx", s.dx());
                m.put("dy", s.dy());
                m.put("range", s.range());
                m.put("mode", s.mode().name().toLowerCase());
                m.put("jump", s.jump());
                m.put("initial", s.initial());
                moves.add(m);
            }
            e.put("moves", moves);
            Conventions.Kanji k = rs.conventions.kanjiOf(pt.letter());
            if (k != null) {
                Map<String, Object> kj = new LinkedHashMap<>();
                kj.put("name", k.name());
                kj.put("board", k.board());
                kj.put("second", k.second());
                kj.put("single", k.single());
                e.put("kanji", kj);
            }
            pieces.add(e);
        }
        out.put("pieces", pieces);
        return out;
    }

    /**
     * How the page shows and names a rule set, from its definition ({@link Conventions}): the board's family, whether
     * positions are SFEN, the readable notations, record formats and piece sets, the translation family of the piece
     * names, and the names other programs use.
     */
    private static void conventions(RuleSet rs, Map<String, Object> out) {
        Conventions c = rs.conventions;
        out.put("family", c.family().key());
        out.put("sfen", rs.sfen);
        out.put("notations", c.notations());
        out.put("records", c.records());
        out.put("pieceSets", c.pieceSets());
        out.put("pieceNames", c.pieceNames());
        Map<String, Object> names = new LinkedHashMap<>();
        names.put("xboard", c.xboard());
        names.put("uciVariant", c.uciVariant());
        names.put("fairyStockfish", c.fairyStockfish());
        names.put("lishogi", c.lishogi());
        out.put("externalNames", names);
    }

    /** {@code GET /api/levels}: each computer level with its measured Elo (chess, 100 ms a move). */
    static List<Map<String, Object>> levels() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int l = 0; l <= SkillLevels.MAX; l++) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("level", l);
            e.put("elo", SkillLevels.elo(l));
            out.add(e);
        }
        return out;
    }

    /** The rule-set list of {@code GET /api/variants}. */
    static List<Map<String, Object>> variants() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("id", rs.id);
            e.put("name", rs.name);
            e.put("files", rs.geometry.files);
            e.put("ranks", rs.geometry.ranks);
            e.put("drops", rs.drops);
            conventions(rs, e);
            out.add(e);
        }
        return out;
    }
}
