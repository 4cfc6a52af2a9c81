package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page's game-state code in the real browser, without the page: js/fen.js must give the server's board and
 * hands from the server's FEN in every rule set (a move event carries only the FEN), and js/gamestate.js must
 * apply events in version order, ignore repeats, keep an early event and fetch the game on a gap.
 */
class GameStateBrowserTest extends SiteBrowserTest {
    /** Start positions with pieces in hand where the rule set has drops, so that drops and captures happen. */
    private static final Map<String, String> STARTS = Map.of(
            "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P2Gs 1",
            "washogi-drops", "5k5/11/11/11/3p7/11/11/11/11/+S10/+S4K5[SSpp] w - - 0 1");

    private final ObjectMapper json = new ObjectMapper();

    @Override
    protected String siteName() {
        return "state";
    }

    /** Runs an async script in the page (its last argument is the callback) and returns what it gave. */
    private Object async(String script, Object... args) {
        return browser.driver.executeAsyncScript(script, args);
    }

    /**
     * A random hot-seat game of 16 moves (drops first, then captures, when there are any): after every move the
     * page's FEN reader, given the server's FEN, must give the server's board and hands.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void fenReaderGivesTheServersBoardAndHands(String variant) throws Exception {
        String fen = STARTS.get(variant);
        JsonNode g = site.post("/api/games", "{\"variant\":\"" + variant + "\",\"mode\":\"hotseat\""
                + (fen == null ? "" : ",\"fen\":" + json.writeValueAsString(fen)) + "}");
        String id = g.get("id").asText();
        List<Map<String, Object>> positions = new ArrayList<>();
        Random random = new Random(variant.hashCode());
        for (int i = 0; i < 16 && g.get("legalMoves").size() > 0; i++) {
            g = site.game(id);
            positions.add(Map.of("fen", g.get("fen").asText(), "board", json.convertValue(g.get("board"), List.class),
                    "hands", json.convertValue(g.get("hands"), Map.class)));
            List<String> moves = new ArrayList<>();
            g.get("legalMoves").forEach(m -> moves.add(m.asText()));
            if (moves.isEmpty()) {
                break;
            }
            List<String> occupied = new ArrayList<>();
            g.get("board").forEach(p -> occupied.add(p.get("square").asText()));
            List<String> drops = moves.stream().filter(m -> m.contains("@")).toList();
            List<String> captures = moves.stream().filter(m -> !m.contains("@")
                    && occupied.contains(m.replaceAll("^[a-p]\\d{1,2}([a-p]\\d{1,2}).*$", "$1"))).toList();
            List<String> pick = !drops.isEmpty() && random.nextBoolean() ? drops : !captures.isEmpty() ? captures : moves;
            String move = pick.get(random.nextInt(pick.size()));
            site.post("/api/games/" + id + "/moves", "{\"move\":\"" + move + "\",\"ply\":" + g.get("ply").asInt() + "}");
        }
        browser.open("/rules/" + variant);
        browser.waitFor(".piece-card");
        Object mismatch = async("""
                const [variant, positions, done] = arguments;
                Promise.all([import('/js/fen.js'), fetch('/api/variants/' + variant).then((r) => r.json())]).then(([fen, v]) => {
                  const out = [];
                  for (const p of positions) {
                    const parsed = fen.parseFen(p.fen, v.files, v.ranks, v.id === 'shogi');
                    const want = new Map(p.board.map((x) => [x.square, x.piece + '/' + x.side]));
                    const got = new Map([...parsed.board].map(([sq, x]) => [sq, x.piece + '/' + x.side]));
                    const keys = new Set([...want.keys(), ...got.keys()]);
                    for (const k of keys) if (want.get(k) !== got.get(k)) out.push(p.fen + ': ' + k + ' server ' + want.get(k) + ', page ' + got.get(k));
                    for (const side of ['first', 'second']) {
                      const norm = (h) => JSON.stringify(Object.entries(h || {}).filter(([, n]) => n > 0).sort());
                      if (norm(p.hands[side]) !== norm(parsed.hands[side])) out.push(p.fen + ': ' + side + ' hand server ' + norm(p.hands[side]) + ', page ' + norm(parsed.hands[side]));
                    }
                  }
                  done(out.join('\\n'));
                }).catch((e) => done('error: ' + e));
                """, variant, positions);
        assertTrue(positions.size() >= 8, variant + ": positions " + positions.size());
        assertEquals("", mismatch, variant);
        if (STARTS.containsKey(variant)) {
            assertTrue(positions.stream().anyMatch(p -> ((Map<?, ?>) p.get("hands")).values().stream()
                    .anyMatch(h -> !((Map<?, ?>) h).isEmpty())), variant + ": some position has pieces in hand");
        }
    }

    /** js/gamestate.js with a made-up chess game and a fake fetch: order, repeats, gaps, answers, whole games. */
    @Test
    void gameStateAppliesEventsByVersion() {
        browser.open("/rules/chess");
        browser.waitFor(".piece-card");
        Object result = async("""
                const done = arguments[arguments.length - 1];
                (async () => {
                  const { GameState } = await import('/js/gamestate.js');
                  const check = (ok, what) => { if (!ok) throw new Error(what); };
                  const variant = { id: 'chess', files: 8, ranks: 8 };
                  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
                  const f1 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
                  const f2 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
                  const f3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';
                  const mv = (version, ply, move, fen) => ({ type: 'move', version, ply, move, san: move, western: null, japanese: null, fen,
                    sideToMove: ply % 2 ? 'second' : 'first', check: false, legalMoves: ['a'], clock: { type: 'none' } });
                  const g0 = { id: 'g', variant: 'chess', version: 1, status: 'active', ply: 0, moves: [], board: [], hands: { first: {}, second: {} },
                    players: { first: 'human', second: 'human' }, you: 'both', initialFen: start, fen: start, clock: { type: 'none' }, legalMoves: [] };
                  let server = structuredClone(g0);
                  const changes = [];
                  const s = new GameState(variant, async () => structuredClone(server), (c) => changes.push(c));
                  s.receive({ type: 'game', version: 1, game: structuredClone(g0) });
                  check(s.version === 1 && changes.pop().whole, 'the feed\\'s whole game');
                  s.receive(mv(2, 1, 'e2e4', f1));
                  check(s.version === 2 && s.game.ply === 1 && s.game.lastMove === 'e2e4', 'a move event');
                  check(s.game.board.length === 32 && s.game.board.some((p) => p.square === 'e4' && p.piece === 'P' && p.side === 'first'), 'board from the FEN');
                  check(changes.pop().newMoves === 1, 'one new move');
                  s.receive({ version: 2, events: [mv(2, 1, 'e2e4', f1)] });
                  check(s.game.moves.length === 1 && changes.length === 0, 'the same event again (answer and feed) is ignored');
                  server = structuredClone(s.game);
                  server.moves.push({ move: 'e7e5', fen: f2 }); server.ply = 2; server.version = 3; server.fen = f2;
                  s.receive(mv(4, 3, 'g1f3', f3));
                  check(s.version === 2 && s.fetches === 1, 'a gap: kept back, the game fetched');
                  await s.resyncing;
                  check(s.version === 4 && s.game.ply === 3 && s.game.moves.map((m) => m.move).join() === 'e2e4,e7e5,g1f3', 'fetched game, then the kept event');
                  const before = changes.length;
                  s.receive({ version: 6, events: [{ type: 'drawOffer', version: 5, drawOffer: 'second' },
                    { type: 'status', version: 6, status: 'finished', result: { winner: null, termination: 'agreement', text: '1/2-1/2' }, clock: { type: 'none' }, drawOffer: null }] });
                  check(s.version === 6 && s.game.status === 'finished' && s.game.drawOffer === null && s.game.legalMoves.length === 0, 'an answer\\'s events');
                  const c = changes.pop();
                  check(c.status && c.drawOffer && changes.length === before, 'one change notice for the answer');
                  s.receive({ ...structuredClone(g0), version: 3 });
                  check(s.version === 6 && s.game.status === 'finished', 'an older whole game is ignored');
                  s.receive(mv(7, 5, 'a2a3', f3));
                  check(s.version === 6 && s.game.ply === 3, 'a move event that does not fit the ply is not applied');
                  await s.resyncing;
                  s.destroy();
                  return 'ok';
                })().then(done, (e) => done('failed: ' + e.message));
                """);
        assertEquals("ok", result);
    }
}
