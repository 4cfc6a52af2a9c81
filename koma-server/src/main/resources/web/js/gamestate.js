// The page's copy of one game and its version (docs/server-api.md, "Versions and events" and "Feed"): every
// whole game (GET, join, the feed's first message) and every event (action answers, the feed) goes through
// receive(), which applies an event whose version is exactly one more than its own, ignores one it has
// already seen (the answer to the page's own move and the feed carry the same events), and on a gap keeps the
// early event and fetches the whole game. No DOM here: the page is told what changed and redraws that.

import { parseFen } from './fen.js';

/** Chat messages a room keeps (as the server does: docs/server-api.md, Chat). */
const CHAT_KEPT = 100;

/** How many resyncs in a row may leave a gap before the waiting events are dropped. */
const MAX_FRUITLESS_RESYNCS = 3;

/** Milliseconds between resyncs that left a gap (an event may be overtaken by a slower answer). */
const RESYNC_RETRY_MS = 1000;

/** The client's clock in milliseconds (monotonic while the page lives). */
function clientNow() {
  return performance.timeOrigin + performance.now();
}

/** True for a whole game object (GET, join, create, and the old server's action answers). */
export function isWholeGame(x) {
  return !!x && typeof x === 'object' && typeof x.id === 'string' && Array.isArray(x.moves);
}

/** The game JSON's board list of a parsed FEN board (Map square -> {piece, side}). */
export function boardList(board) {
  return [...board].map(([square, p]) => ({ square, piece: p.piece, side: p.side }));
}

/**
 * Applies one event to game in place (the version check is the caller's); returns what changed
 * ({moves, position, status, drawOffer, clock, takeback, rematch, chat}). Throws when the event does not fit the game, so that the
 * caller fetches the whole game instead.
 */
export function applyEvent(game, ev, variant) {
  const changed = {};
  if (ev.type === 'move') {
    if (ev.ply !== game.ply + 1) throw new Error('move event for ply ' + ev.ply + ' after ply ' + game.ply);
    const pos = parseFen(ev.fen, variant.files, variant.ranks, variant.sfen);
    game.moves.push({ move: ev.move, san: ev.san ?? null, western: ev.western ?? null, japanese: ev.japanese ?? null, fen: ev.fen });
    game.ply = ev.ply;
    game.fen = ev.fen;
    game.board = boardList(pos.board);
    game.hands = pos.hands;
    game.sideToMove = ev.sideToMove || pos.sideToMove;
    game.check = !!ev.check;
    game.legalMoves = ev.legalMoves || [];
    game.canClaimDraw = !!ev.canClaimDraw;
    game.lastMove = ev.move;
    if (ev.clock) { game.clock = ev.clock; changed.clock = true; }
    changed.moves = true;
    changed.position = true;
  } else if (ev.type === 'status') {
    const wasWaiting = game.status === 'waiting';
    game.status = ev.status;
    game.result = ev.result ?? null;
    if (ev.clock) { game.clock = ev.clock; changed.clock = true; }
    if ('drawOffer' in ev) game.drawOffer = ev.drawOffer;
    if ('takebackOffer' in ev) game.takebackOffer = ev.takebackOffer;
    if (ev.rematch) { game.rematch = ev.rematch; changed.rematch = true; }
    if (Array.isArray(ev.legalMoves)) game.legalMoves = ev.legalMoves;
    else if (ev.status === 'finished') game.legalMoves = [];
    if (ev.status !== 'active') game.canClaimDraw = false;
    if (wasWaiting && ev.status === 'active' && game.players) {
      // only a person takes a free seat (POST join)
      for (const side of ['first', 'second']) if (!game.players[side]) game.players[side] = 'human';
    }
    changed.status = true;
    changed.drawOffer = true;
    changed.position = true;
  } else if (ev.type === 'drawOffer') {
    game.drawOffer = ev.drawOffer ?? null;
    changed.drawOffer = true;
  } else if (ev.type === 'players') {
    game.accounts = ev.accounts;
    changed.players = true;
  } else if (ev.type === 'takeback') {
    // moves taken back: the list is cut to ev.ply and the position is that of ev.fen
    if (!(ev.ply >= 0 && ev.ply <= game.ply)) throw new Error('takeback to ply ' + ev.ply + ' at ply ' + game.ply);
    const pos = parseFen(ev.fen, variant.files, variant.ranks, variant.sfen);
    game.moves = game.moves.slice(0, ev.ply);
    game.ply = ev.ply;
    game.fen = ev.fen;
    game.board = boardList(pos.board);
    game.hands = pos.hands;
    game.sideToMove = ev.sideToMove || pos.sideToMove;
    game.check = !!ev.check;
    game.legalMoves = ev.legalMoves || [];
    game.canClaimDraw = !!ev.canClaimDraw;
    game.lastMove = ev.lastMove ?? null;
    game.drawOffer = null;
    game.takebackOffer = null;
    if (ev.clock) { game.clock = ev.clock; changed.clock = true; }
    changed.moves = true;
    changed.position = true;
    changed.drawOffer = true;
    changed.takeback = true;
  } else if (ev.type === 'takebackOffer') {
    game.takebackOffer = ev.takebackOffer ?? null;
    changed.drawOffer = true;
  } else if (ev.type === 'rematchOffer' || ev.type === 'rematch') {
    game.rematch = ev.rematch || null;
    changed.rematch = true;
  } else if (ev.type === 'chat') {
    // the server keeps the last CHAT_KEPT messages of a room; so does the page
    const chat = Array.isArray(game.chat) ? game.chat.slice(-(CHAT_KEPT - 1)) : [];
    chat.push({ room: ev.room, from: ev.from, text: ev.text, at: ev.at });
    game.chat = chat;
    changed.chat = true;
  } else if (ev.type === 'skip') {
    // an event of the other chat room: only its version counts here
  } else {
    throw new Error('unknown event type ' + ev.type);
  }
  game.version = ev.version;
  return changed;
}

/** The local game state of one page, fed by receive(); onChange(changes) after each change. */
export class GameState {
  /**
   * variant: GET /api/variants/{id} of the game's rule set (to read FENs); fetchGame(): a promise of the whole
   * game (GET /api/games/{id}); onChange({whole, moves, newMoves, position, status, drawOffer, clock, seat}).
   */
  constructor(variant, fetchGame, onChange) {
    this.variant = variant;
    this.fetchGame = fetchGame;
    this.onChange = onChange;
    this.game = null;
    this.pending = new Map();
    this.resyncing = null;
    this.fruitless = 0;
    this.retryTimer = null;
    this.clockOffset = Infinity;
    this.clockBase = clientNow();
    this.fetches = 0;
  }

  destroy() {
    clearTimeout(this.retryTimer);
    this.onChange = () => {};
  }

  get version() {
    return this.game && typeof this.game.version === 'number' ? this.game.version : null;
  }

  /** Milliseconds of the running clock since the game's clock values were measured by the server. */
  clockElapsed() {
    return Math.max(0, clientNow() - this.clockBase);
  }

  /**
   * Remembers when the clock values were true: the server's serverTime in the client's time, with the offset
   * between the two clocks estimated by the quickest message seen so far (a late message keeps its age).
   */
  stampClock() {
    const now = clientNow();
    const st = this.game && this.game.clock && this.game.clock.serverTime;
    if (typeof st !== 'number') { this.clockBase = now; return; }
    this.clockOffset = Math.min(this.clockOffset, now - st);
    this.clockBase = Math.min(now, st + this.clockOffset);
  }

  /**
   * One message: a whole game, a feed message ({type: 'game'} or an event), or an action answer
   * ({version, events}). Returns nothing; the page hears of changes through onChange.
   */
  receive(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (isWholeGame(msg)) {
      this.setGame(msg);
    } else if (msg.type === 'game' && isWholeGame(msg.game)) {
      this.setGame(typeof msg.game.version === 'number' || typeof msg.version !== 'number' ? msg.game : { ...msg.game, version: msg.version });
    } else if (Array.isArray(msg.events)) {
      const changes = {};
      for (const ev of msg.events) this.event(ev, changes);
      this.notify(changes);
      // an answer ahead of what its events brought (events the page missed): fetch the game
      if (typeof msg.version === 'number' && this.version !== null && msg.version > this.version) this.resync();
    } else if (typeof msg.type === 'string' && typeof msg.version === 'number') {
      const changes = {};
      this.event(msg, changes);
      this.notify(changes);
    }
  }

  notify(changes) {
    if (Object.keys(changes).length) this.onChange(changes);
  }

  /** A whole game: taken unless it is older than the one the page has. */
  setGame(g) {
    const cur = this.game;
    if (cur) {
      const versioned = typeof g.version === 'number' && typeof cur.version === 'number';
      if (versioned && g.version < cur.version) return false;
      // the old server's games have no version: a game with fewer moves and the same status is older
      if (!versioned && g.ply < cur.ply && g.status === cur.status) return false;
    }
    const same = !!cur && typeof g.version === 'number' && g.version === cur.version;
    const seat = !cur || cur.you !== g.you;
    this.game = g;
    this.stampClock();
    if (same) {
      // nothing happened in between: only the clock readings (and perhaps the seat) are newer
      this.notify({ clock: true, seat: seat || undefined });
    } else {
      this.notify({ whole: true, seat, moves: true, position: true, status: true, drawOffer: true, clock: true, rematch: true, chat: true });
    }
    this.drain();
    return true;
  }

  /** One event into changes (accumulated for one onChange); a gap keeps the event and fetches the game. */
  event(ev, changes) {
    if (!ev || typeof ev.version !== 'number' || !this.game) return;
    const own = this.version;
    if (own === null) { this.resync(); return; }
    if (ev.version <= own) return;
    if (ev.version > own + 1) {
      this.pending.set(ev.version, ev);
      this.resync();
      return;
    }
    const before = this.game.ply;
    let c;
    try {
      c = applyEvent(this.game, ev, this.variant);
    } catch (e) {
      this.resync();
      return;
    }
    if (c.clock) this.stampClock();
    if (c.moves) changes.newMoves = (changes.newMoves || 0) + (this.game.ply - before);
    Object.assign(changes, c);
    this.fruitless = 0;
    this.pending.delete(ev.version);
    const next = this.pending.get(this.version + 1);
    if (next) this.event(next, changes);
  }

  /** Applies the waiting events that now follow on; forgets those already covered. */
  drain() {
    for (const v of [...this.pending.keys()]) if (v <= this.version) this.pending.delete(v);
    if (this.pending.has(this.version + 1)) {
      const changes = {};
      this.event(this.pending.get(this.version + 1), changes);
      this.notify(changes);
    }
  }

  /** Fetches the whole game (one request at a time); again later while a gap remains, a few times. */
  resync() {
    if (this.resyncing) { this.resyncAgain = true; return this.resyncing; }
    clearTimeout(this.retryTimer);
    const before = this.version;
    this.fetches++;
    this.resyncing = (async () => {
      try {
        this.setGame(await this.fetchGame());
      } catch (e) {
        /* the feed or the next poll brings the game */
      }
      this.resyncing = null;
      const again = this.resyncAgain;
      this.resyncAgain = false;
      if (!this.pending.size) { this.fruitless = 0; return; }
      if (this.version === before) this.fruitless++;
      if (this.fruitless >= MAX_FRUITLESS_RESYNCS) {
        // events the server does not have: forget them (the next real event finds the gap again)
        this.pending.clear();
        this.fruitless = 0;
      } else {
        this.retryTimer = setTimeout(() => this.resync(), again ? 0 : RESYNC_RETRY_MS);
      }
    })();
    return this.resyncing;
  }
}
