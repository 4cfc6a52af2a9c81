// The game page: board, hands, clocks, move list with stepping, actions (move, resign, draw, claim,
// join, abort, takeback, rematch), the chat room of the page's seat (players) or of the spectators, live updates by versioned events (js/gamestate.js) from the action answers and the WebSocket feed,
// analysis after the game, and record export. Built with DOM calls (js/dom.js), never from markup.

import { api, variantInfo, isShogiFamily } from './api.js';
import { t, lang } from './i18n.js';
import { BoardView } from './board.js';
import { localPieceName } from './pieces.js';
import { play as playSound, muted, setMuted } from './sound.js';
import { GameAnalysisView } from './gameanalysis.js';
import { parseFen, boardFromList, squareIndex } from './fen.js';
import { GameState } from './gamestate.js';
import { h, clear } from './dom.js';
import { navigate } from './main.js';
import { rememberGame } from './session.js';
import { playerLabel } from './lobby.js';

const PREFS_KEY = 'koma.prefs';

/** Milliseconds between polls of the game while the feed is down. */
const POLL_MS = 3000;
/** Where the board column's width set by its resize grip is kept. */
const BOARD_WIDTH_KEY = 'koma.boardWidth';
/** The low-time sound plays when the page's own clock falls below this (ms). */
const LOW_TIME_MS = 10000;
/** The board themes (css/koma.css), the first the default: two light, two dark. */
const THEMES = ['wood', 'green', 'blue', 'night'];
/** The piece themes (css/koma.css), the first the default: classic, ivory (light), ebony (dark). */
const PIECE_THEMES = ['classic', 'ivory', 'ebony'];
/** Clocks from this much starting time (ms) count as slow: their moves are confirmed by default. */
const SLOW_CLOCK_MS = 30 * 60000;

/** Longest chat message (docs/server-api.md, Chat). */
const CHAT_MAX = 140;

/** Terminations with a short explanation under the result (result.note.{key}). */
const EXPLAINED = new Set(['aborted', 'abandoned']);

function loadPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS_KEY)) || {}; } catch (e) { return {}; }
}

function savePrefs(p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch (e) { /* not remembered */ }
}

/** The i18n key part of a termination ("time forfeit" -> "time_forfeit"). */
function terminationKey(termination) {
  return String(termination).toLowerCase().replace(/[^a-z]+/g, '_');
}

/** A premove as text: "e2-e4" or a drop "P*e5". */
function premoveText(pm) {
  return pm.drop ? `${pm.piece}*${pm.to}` : `${pm.from}-${pm.to}`;
}

/** The translation of key, or null when there is none. */
function tOrNull(key, params) {
  const s = t(key, params);
  return s === key ? null : s;
}

/**
 * The server's error text without the name of the request field it concerns: "kind: impasse needs ..." ->
 * "impasse needs ...". The server's texts name the field first (docs/server-api.md); the page names the action.
 */
export function errorText(e) {
  const s = String(e && e.message !== undefined ? e.message : e);
  return s.replace(/^[a-z][A-Za-z0-9_.[\]]*: /, '');
}

/** A correspondence clock's time: days and hours ("2d 23h"), hours and minutes under a day ("5h 07m"). */
export function formatDays(ms) {
  const v = Math.max(0, ms);
  const hours = Math.floor(v / 3600000);
  if (hours >= 24) return t('clock.daysHours', { d: Math.floor(hours / 24), h: hours % 24 });
  if (v >= 3600000) return t('clock.hoursMinutes', { h: hours, m: String(Math.floor((v % 3600000) / 60000)).padStart(2, '0') });
  return formatClock(v);
}

/** mm:ss (h:mm:ss over an hour, tenths under ten seconds). */
export function formatClock(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) return (v / 1000).toFixed(1);
  const s = Math.floor(v / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The board page of one game. */
export class GamePage {
  constructor(root, id, joinRequested) {
    this.root = root;
    this.id = id;
    this.joinRequested = joinRequested;
    this.state = null;
    this.viewPly = null;
    this.destroyed = false;
    this.prefs = loadPrefs();
    this.analysisOn = false;
    this.analysisWanted = null;
    this.analysisBusy = false;
    this.analysisShown = null;
    this.retries = 0;
    this.keyListener = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyListener);
    this.start();
  }

  /** The game as the page knows it (null while loading). */
  get game() {
    return this.state && this.state.game;
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.keyListener);
    clearInterval(this.timer);
    clearInterval(this.poll);
    clearInterval(this.pingTimer);
    clearTimeout(this.reconnectTimer);
    if (this.ws) this.ws.close();
    if (this.board) this.board.destroy();
    if (this.resizeObserver) this.resizeObserver.disconnect();
    if (this.gameAnalysis) this.gameAnalysis.destroy();
    if (this.state) this.state.destroy();
    if (window.__komaFeed && window.__komaFeed.page === this) delete window.__komaFeed;
  }

  gamePath(suffix = '') {
    return '/api/games/' + encodeURIComponent(this.id) + suffix;
  }

  async start() {
    clear(this.root, h('p', { class: 'loading' }, t('common.loading')));
    let g;
    try {
      g = await api('GET', this.gamePath());
      this.variant = await variantInfo(g.variant);
    } catch (e) {
      clear(this.root, h('p', { class: 'error' }, t('error.noGame') + ': ' + e.message));
      return;
    }
    if (this.destroyed) return;
    this.family = isShogiFamily(g.variant) ? 'shogi' : 'chess';
    this.royals = new Set(this.variant.pieces.filter((p) => p.royal).map((p) => p.letter));
    this.layout();
    this.rememberBoardWidth();
    this.applyTheme();
    this.gameAnalysis = new GameAnalysisView(this, this.q('#game-analysis'));
    this.board = new BoardView(this.q('#board'), this.variant, this.family, (m) => this.proposeMove(m),
      (pm) => this.showNotice(pm ? t('premove.set', { move: premoveText(pm) }) : ''));
    this.board.setOptions({
      pieceSet: this.prefs.pieceSet || 'kanji',
      coords: this.prefs['coords_' + this.family] || (this.family === 'shogi' ? 'shogi' : 'chess'),
      kanjiNumerals: !!this.prefs.kanjiNumerals,
      flipped: g.you === 'second',
    });
    if (this.state) this.state.destroy();
    this.state = new GameState(this.variant, () => api('GET', this.gamePath()), (c) => this.changed(c));
    this.exposeFeed();
    this.state.receive(g);
    this.connect();
    this.timer = setInterval(() => this.tickClocks(), 100);
    this.poll = setInterval(() => { if (!this.ws || this.ws.readyState !== 1) this.refresh(); }, POLL_MS);
  }

  /**
   * window.__komaFeed: the feed's socket, the page's version, a way in for a message, and the number of
   * whole-game fetches; read by the browser tests (and handy in the console). Gives no more power than the page's
   * own scripts have.
   */
  exposeFeed() {
    const page = this;
    window.__komaFeed = {
      page,
      get socket() { return page.ws; },
      get version() { return page.state ? page.state.version : null; },
      get fetches() { return page.state ? page.state.fetches : 0; },
      receive(msg) { if (page.state) page.state.receive(msg); },
    };
  }

  /**
   * The board column's width: the one the player last set with its resize grip (kept in localStorage
   * 'koma.boardWidth'), else the CSS default that fits the window. The grip sets an inline width, which is what is
   * kept.
   */
  rememberBoardWidth() {
    const main = this.q('.game-main');
    const page = this.q('.game-page');
    if (this.variant.drops) page.classList.add('has-hands');
    try {
      const w = Number(localStorage.getItem(BOARD_WIDTH_KEY));
      if (w >= 200 && w <= 4000 && window.innerWidth >= 900) main.style.width = w + 'px';
    } catch {
      // no storage: the default width
    }
    if (typeof ResizeObserver === 'undefined') return;
    this.resizeObserver = new ResizeObserver(() => {
      const w = parseInt(main.style.width, 10);
      if (w > 0) {
        try { localStorage.setItem(BOARD_WIDTH_KEY, String(w)); } catch { /* not kept */ }
      }
    });
    this.resizeObserver.observe(main);
  }

  q(css) {
    return this.root.querySelector(css);
  }

  layout() {
    const navButton = (nav, label, text) => h('button', { type: 'button', 'data-nav': nav, 'aria-label': label }, text);
    const tSpan = (key) => h('span', { 'data-t': key });
    clear(this.root, h('section', { class: 'game-page', 'data-game': this.id },
      h('div', { class: 'game-main' },
        h('div', { class: 'player-bar', id: 'bar-top' }),
        h('div', { id: 'board' }),
        h('div', { class: 'player-bar', id: 'bar-bottom' })),
      h('aside', { class: 'game-side' },
        h('h1', { class: 'game-title' }),
        h('div', { class: 'side-clocks', id: 'side-clocks' }),
        h('div', { class: 'status', id: 'status', 'aria-live': 'polite' }),
        h('div', { class: 'result', id: 'result', hidden: true }),
        h('div', { class: 'rematch-box', id: 'rematch-box', hidden: true }),
        h('div', { class: 'join-box', id: 'join-box', hidden: true }),
        h('p', { class: 'error', id: 'game-error', role: 'alert' }),
        h('p', { class: 'notice', id: 'game-notice', 'aria-live': 'polite' }),
        h('div', { class: 'confirm-box', id: 'confirm-box', hidden: true, role: 'group' }),
        h('div', { class: 'actions', id: 'actions' }),
        h('form', { class: 'move-form', id: 'move-form', hidden: true },
          h('label', { for: 'move-input', id: 'move-input-label' }), ' ',
          h('input', { type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', maxlength: 12 }), ' ',
          h('button', { type: 'submit', id: 'move-send' })),
        h('div', { class: 'view-controls' },
          h('button', { type: 'button', id: 'flip' }), ' ',
          h('button', { type: 'button', id: 'sound', 'aria-pressed': 'false' }), ' ',
          h('label', { class: 'shogi-only' }, tSpan('view.pieces'), ' ', h('select', { id: 'piece-set' })), ' ',
          h('label', null, tSpan('view.coords'), ' ', h('select', { id: 'coords' })), ' ',
          h('label', { class: 'shogi-only' }, h('input', { type: 'checkbox', id: 'kanji-numerals' }), ' ', tSpan('view.kanjiNumerals')), ' ',
          h('label', { class: 'shogi-only' }, tSpan('view.notation'), ' ', h('select', { id: 'notation' })), ' ',
          h('label', null, tSpan('view.confirm'), ' ', h('select', { id: 'confirm-moves' })), ' ',
          h('label', null, tSpan('view.theme'), ' ', h('select', { id: 'board-theme' })), ' ',
          h('label', null, tSpan('view.pieceTheme'), ' ', h('select', { id: 'piece-theme' }))),
        h('div', { class: 'nav', id: 'nav' },
          navButton('first', 'first', '«'), ' ', navButton('prev', 'previous', '‹'), ' ',
          h('span', { id: 'ply-label' }), ' ',
          navButton('next', 'next', '›'), ' ', navButton('last', 'last', '»')),
        h('div', { class: 'move-list', id: 'move-list' }),
        h('details', { class: 'notation-key', id: 'notation-key', hidden: true }),
        h('div', { class: 'chat', id: 'chat', hidden: true },
          h('h2', { class: 'chat-title', id: 'chat-title' }),
          h('ol', { class: 'chat-log', id: 'chat-log', 'aria-live': 'polite' }),
          h('form', { class: 'chat-form', id: 'chat-form' },
            h('input', { type: 'text', id: 'chat-input', maxlength: CHAT_MAX, autocomplete: 'off' }), ' ',
            h('button', { type: 'submit', id: 'chat-send' }))),
        h('div', { class: 'analysis', id: 'analysis', hidden: true },
          h('button', { type: 'button', id: 'analyse' }),
          h('div', { id: 'analysis-out' })),
        h('section', { class: 'game-analysis', id: 'game-analysis', hidden: true }),
        h('a', { id: 'analysis-link', 'data-link': true, hidden: true }),
        h('div', { class: 'export' },
          tSpan('export.title'), ' ',
          h('span', { id: 'export-buttons' }), ' ',
          h('a', { id: 'export-download', hidden: true }), ' ',
          h('textarea', { id: 'export-out', rows: 5, readonly: true, hidden: true })))));
    const q = (s) => this.q(s);
    q('#flip').addEventListener('click', () => { this.board.setOptions({ flipped: !this.board.opts.flipped }); this.renderBars(); });
    q('#sound').addEventListener('click', () => { setMuted(!muted()); this.relabelStatic(); });
    q('#move-form').addEventListener('submit', (e) => { e.preventDefault(); this.typedMove(); });
    q('#piece-set').addEventListener('change', (e) => { this.prefs.pieceSet = e.target.value; this.prefsChanged(); });
    q('#coords').addEventListener('change', (e) => { this.prefs['coords_' + this.family] = e.target.value; this.prefsChanged(); });
    q('#kanji-numerals').addEventListener('change', (e) => { this.prefs.kanjiNumerals = e.target.checked; this.prefsChanged(); });
    q('#notation').addEventListener('change', (e) => { this.prefs.notation = e.target.value; this.prefsChanged(); this.renderNotationKey(); });
    q('#board-theme').addEventListener('change', (e) => { this.prefs.theme = e.target.value; savePrefs(this.prefs); this.applyTheme(); });
    q('#piece-theme').addEventListener('change', (e) => { this.prefs.pieceTheme = e.target.value; savePrefs(this.prefs); this.applyTheme(); });
    q('#confirm-moves').addEventListener('change', (e) => { this.prefs.confirmMoves = e.target.value; savePrefs(this.prefs); });
    q('#confirm-box').addEventListener('click', (e) => {
      const b = e.target.closest('[data-confirm]');
      if (b) this.confirmMove(b.dataset.confirm === 'yes');
    });
    q('#nav').addEventListener('click', (e) => {
      const b = e.target.closest('[data-nav]');
      if (b) this.step(b.dataset.nav);
    });
    q('#move-list').addEventListener('click', (e) => {
      const b = e.target.closest('[data-ply]');
      if (b) this.showPly(Number(b.dataset.ply));
    });
    q('#analyse').addEventListener('click', () => { this.analysisOn = true; this.analysisShown = null; this.requestAnalysis(); });
    q('#export-buttons').addEventListener('click', (e) => {
      const b = e.target.closest('[data-export]');
      if (b) this.exportRecord(b.dataset.export);
    });
    q('#actions').addEventListener('click', (e) => {
      const b = e.target.closest('[data-action]');
      if (b) this.action(b.dataset.action, b);
    });
    q('#rematch-box').addEventListener('click', (e) => {
      const b = e.target.closest('[data-rematch]');
      if (b) this.rematch(b.dataset.rematch);
    });
    q('#chat-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.sendChat();
    });
    q('#join-box').addEventListener('click', (e) => {
      if (e.target.closest('#join')) this.join();
      if (e.target.closest('#copy-link')) this.copyLink();
    });
    if (this.family !== 'shogi') for (const el of this.root.querySelectorAll('.shogi-only')) el.hidden = true;
    this.relabelStatic();
  }

  /** Texts that do not depend on the game state (redone on a language switch). */
  relabelStatic() {
    const q = (s) => this.q(s);
    for (const el of this.root.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
    q('.game-title').textContent = t('variant.' + this.variant.id);
    q('#flip').textContent = t('view.flip');
    q('#sound').textContent = t(muted() ? 'view.sound.off' : 'view.sound.on');
    q('#sound').setAttribute('aria-pressed', String(!muted()));
    q('#move-input-label').textContent = t('move.type');
    // a rule set may have its own example (a real first move in its move style: the 5x5 board has no 7g); else the family's
    q('#move-input').placeholder = tOrNull('move.type.example.' + this.variant.id) ?? t('move.type.example.' + this.family);
    q('#move-send').textContent = t('move.play');
    const opt = (v, cur, label) => h('option', { value: v, selected: v === cur }, label);
    const set = this.board ? this.board.opts.pieceSet : this.prefs.pieceSet || 'kanji';
    // the rule set's piece sets (its definition's piece-sets), kanji first
    const sets = (this.variant.pieceSets || ['kanji', 'international']).filter((x) => x !== 'figures');
    clear(q('#piece-set'), sets.map((x) => opt(x, set, t('view.set.' + x))));
    const coords = this.prefs['coords_' + this.family] || (this.family === 'shogi' ? 'shogi' : 'chess');
    clear(q('#coords'), opt('chess', coords, t('view.coords.chess')), opt('shogi', coords, t('view.coords.shogi')));
    q('#kanji-numerals').checked = !!this.prefs.kanjiNumerals;
    const notation = this.prefs.notation || 'western';
    clear(q('#notation'), opt('western', notation, t('view.notation.western')), opt('japanese', notation, t('view.notation.japanese')));
    clear(q('#board-theme'), THEMES.map((name) => opt(name, this.theme(), t('view.theme.' + name))));
    clear(q('#piece-theme'), PIECE_THEMES.map((name) => opt(name, this.pieceTheme(), t('view.pieceTheme.' + name))));
    const confirm = this.prefs.confirmMoves || 'slow';
    clear(q('#confirm-moves'), opt('never', confirm, t('view.confirm.never')), opt('slow', confirm, t('view.confirm.slow')),
      opt('always', confirm, t('view.confirm.always')));
    q('#analyse').textContent = t('analysis.run');
    this.renderNotationKey();
    q('#chat-send').textContent = t('chat.send');
    q('#chat-input').setAttribute('placeholder', t('chat.placeholder'));
    q('#chat-input').setAttribute('aria-label', t('chat.placeholder'));
    // KIF and CSA are defined for shogi only; Wa shogi records are PGN with UCI moves (README, Game records)
    const formats = [...this.variant.records, 'fen'];
    clear(q('#export-buttons'), formats.map((f, i) => [i ? ' ' : null,
      h('button', { type: 'button', 'data-export': f }, f === 'fen' ? (this.variant.sfen ? 'SFEN' : 'FEN') : f.toUpperCase())]));
  }

  relabel() {
    if (!this.game) { this.start(); return; }
    this.drawn = {};
    this.relabelStatic();
    this.board.render();
    this.renderAll();
    if (this.analysisOn) { this.analysisShown = null; this.requestAnalysis(); }
  }

  prefsChanged() {
    savePrefs(this.prefs);
    this.board.setOptions({
      pieceSet: this.prefs.pieceSet || 'kanji',
      coords: this.prefs['coords_' + this.family] || (this.family === 'shogi' ? 'shogi' : 'chess'),
      kanjiNumerals: !!this.prefs.kanjiNumerals,
    });
    this.renderMoves();
  }

  // ---- the feed ----

  /** Opens the WebSocket feed; its first message is the whole game, then events (docs/server-api.md, Feed). */
  connect() {
    if (this.destroyed || this.feedGone) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.type === 'pong' || msg.type === 'error') return;
      if (msg.type === 'game') {
        // the connection works: the next drop starts its back-off afresh
        this.retries = 0;
        this.q('.game-page')?.classList.remove('offline');
      }
      this.state.receive(msg);
    });
    ws.addEventListener('open', () => { this.q('.game-page')?.classList.remove('offline'); });
    ws.addEventListener('close', (e) => {
      if (this.destroyed || this.ws !== ws) return;
      this.q('.game-page')?.classList.add('offline');
      if (e.code === 4404) {
        // the game is gone: no reconnecting, no polling
        this.feedGone = true;
        clearInterval(this.poll);
        this.showError(t('error.noGame'));
        return;
      }
      this.retries++;
      let delay = Math.min(10000, 500 * 2 ** this.retries);
      if (e.code === 4429) delay = Math.min(60000, 5000 * 2 ** Math.min(this.retries, 4));
      else if (e.code === 4008 && this.retries === 1) delay = 100;
      this.reconnectTimer = setTimeout(() => this.connect(), delay * (0.8 + 0.4 * Math.random()));
    });
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => { if (ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
  }

  /** A new connection now (after joining: the feed then knows the page's seat). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    clearTimeout(this.reconnectTimer);
    if (old) old.close();
    this.connect();
  }

  /** Fetches the whole game (while the feed is down, and after a refused request). */
  refresh() {
    if (this.state && !this.destroyed) this.state.resync();
  }

  // ---- rendering ----

  /** What GameState reports as changed, redrawn (the move list gains entries rather than being rebuilt). */
  changed(c) {
    const g = this.game;
    if (!g || this.destroyed) return;
    this.noticeDeclinedOffer();
    this.sounds(c);
    if (this.viewPly !== null && this.viewPly >= g.ply) this.viewPly = null;
    if (this.lastStatus && this.lastStatus !== 'finished' && g.status === 'finished') {
      this.analysisOn = false;
      if (g.rated) this.fetchRatingDiffs();
    }
    this.lastStatus = g.status;
    if (g.you && g.you !== this.remembered) {
      this.remembered = g.you;
      rememberGame(g.id);
    }
    if (c.whole) {
      this.renderAll();
      this.followRematch();
      return;
    }
    if (c.rematch || c.status) this.renderRematch();
    if (c.rematch) this.followRematch();
    if (c.chat) this.renderChat();
    if (c.moves) this.appendMoves(c.newMoves || 0);
    if (c.position || c.status) this.renderPosition();
    if (c.status) this.renderStatus();
    else if (c.moves) this.renderStatusLine();
    if (c.seat && !c.status) this.renderJoin();
    // a move can bring the kings into their zones (impasse), an event can take an offer back
    if (!c.status && (c.moves || c.drawOffer || c.seat)) this.renderActions();
    if (c.takeback) this.renderStatusLine();
    if (c.moves || c.status || c.seat || c.players) this.renderBars();
    this.tickClocks();
  }

  /**
   * The sound of a change: the end of the game; else, for new moves, a check, a capture (fewer pieces on the board
   * than before) or a move. A whole game (the first load, a resync) makes no sound.
   */
  sounds(c) {
    const g = this.game;
    const pieces = g.board ? g.board.length : 0;
    const before = this.pieceCount;
    this.pieceCount = pieces;
    if (c.whole) return;
    if (c.status && g.status === 'finished' && this.lastStatus && this.lastStatus !== 'finished') playSound('end');
    else if (c.moves && (c.newMoves || 0) > 0) {
      if (g.check) playSound('check');
      else if (before !== undefined && pieces < before) playSound('capture');
      else playSound('move');
    }
  }

  /**
   * A rated game just ended: the rating changes are stored with the result, so the whole game is fetched once more
   * for them (with a few retries while the writer catches up).
   */
  async fetchRatingDiffs(tries = 3) {
    try {
      const g = await api('GET', this.gamePath());
      if (this.destroyed || !this.game) return;
      if (g.accounts && g.accounts[0] && typeof g.accounts[0].diff === 'number') {
        this.game.accounts = g.accounts;
        this.renderBars();
      } else if (tries > 1) {
        setTimeout(() => this.fetchRatingDiffs(tries - 1), 500);
      }
    } catch (e) { /* the bars keep the ratings without changes */ }
  }

  renderAll() {
    this.renderPosition();
    this.renderStatus();
    this.renderBars();
    this.renderMoves();
    this.renderRematch();
    this.renderChat();
    this.tickClocks();
  }

  /**
   * The chat room the page may read: a player's page shows the players' room, anyone else's the spectators' room
   * (docs/server-api.md, Chat). Shown in friend games and to spectators; every text is a text node.
   */
  renderChat() {
    const g = this.game;
    const box = this.q('#chat');
    const shown = g.mode === 'friend' || !g.you;
    box.hidden = !shown;
    if (!shown) return;
    this.q('#chat-title').textContent = t(g.you ? 'chat.players' : 'chat.spectators');
    const lines = (Array.isArray(g.chat) ? g.chat : []).map((m) => h('li', { class: 'chat-line', 'data-from': m.from },
      h('span', { class: 'chat-from' }, this.chatSender(m.from) + ':'), ' ', h('span', { class: 'chat-text' }, String(m.text))));
    const log = this.q('#chat-log');
    clear(log, lines.length ? lines : h('li', { class: 'chat-empty' }, t('chat.empty')));
    log.scrollTop = log.scrollHeight;
  }

  chatSender(from) {
    if (from === 'first' || from === 'second') return this.sideName(from);
    return t('chat.spectator');
  }

  /** The rematch offer and its answers (friend games, for their players, once the game is over). */
  renderRematch() {
    const g = this.game;
    const box = this.q('#rematch-box');
    const r = g.rematch || {};
    const mine = g.you === 'first' || g.you === 'second' ? g.you : null;
    // the game JSON and its events say whether a rematch may be offered (the game over, both seats were taken)
    const bothSeated = r.available === true || !!r.offer || !!r.gameId;
    if (this.unchanged('rematch', g.status, mine, g.mode, r.offer, r.declined, r.gameId, bothSeated)) return;
    let content = null;
    if (g.status === 'finished' && g.mode === 'friend' && mine && bothSeated) {
      const button = (action, id, key) => h('button', { type: 'button', 'data-rematch': action, id }, t(key));
      if (r.gameId) content = [button('seat', 'rematch-go', 'rematch.go')];
      else if (r.declined) content = [h('span', { class: 'rematch-state' }, t('rematch.declined'))];
      else if (r.offer === mine) content = [h('span', { class: 'rematch-state' }, t('rematch.pending'))];
      else if (r.offer) {
        content = [h('span', { class: 'rematch-state' }, t('rematch.offered')), ' ',
          button('accept', 'rematch-accept', 'action.accept'), ' ', button('decline', 'rematch-decline', 'action.decline')];
      } else content = [button('offer', 'rematch', 'action.rematch')];
    }
    clear(box, content);
    box.hidden = !content;
  }

  /**
   * When a rematch is agreed while the page is open (a rematch event, or a resync that brings it), both players'
   * pages take their seat in the new game and open it. A page opened on an old game with a rematch only offers a
   * button.
   */
  followRematch() {
    const g = this.game;
    const id = g.rematch && g.rematch.gameId;
    if (this.rematchSeen === undefined) { this.rematchSeen = id || null; return; }
    if (!id || id === this.rematchSeen) return;
    this.rematchSeen = id;
    if (g.you === 'first' || g.you === 'second') this.rematch('seat');
  }

  shownPly() {
    return this.viewPly === null ? this.game.ply : this.viewPly;
  }

  canMove() {
    const g = this.game;
    return g.status === 'active' && this.viewPly === null
      && (g.you === 'both' || g.you === g.sideToMove) && g.players[g.sideToMove] === 'human';
  }

  /**
   * The link to the analysis board at the shown ply (the start position and the moves up to it), offered once the
   * game is over and at one board (hot-seat), never while a game between opponents goes on.
   */
  linkAnalysis(ply) {
    const g = this.game;
    const a = this.q('#analysis-link');
    a.hidden = !(g.status !== 'active' && g.status !== 'waiting' || g.mode === 'hotseat');
    const params = new URLSearchParams({ variant: g.variant, fen: g.initialFen });
    const moves = g.moves.slice(0, ply).map((m) => m.move);
    if (moves.length) params.set('moves', moves.join(','));
    a.setAttribute('href', '/analysis?' + params.toString());
    a.textContent = t('analysis.openBoard');
  }

  /** The page's own side while the other side (a person or the computer) is to move in a live game, else null. */
  premoveSide() {
    const g = this.game;
    if (g.status !== 'active' || this.viewPly !== null || !g.you || g.you === 'both' || g.sideToMove === g.you) return null;
    return g.you;
  }

  renderPosition() {
    const g = this.game;
    const p = this.shownPly();
    let board;
    let hands;
    let side;
    let lastMove;
    let check = false;
    if (p === g.ply) {
      board = boardFromList(g.board);
      hands = g.hands;
      side = g.sideToMove;
      lastMove = g.lastMove;
      check = g.check;
    } else {
      const fen = p === 0 ? g.initialFen : g.moves[p - 1].fen;
      try {
        ({ board, hands, sideToMove: side } = parseFen(fen, this.variant.files, this.variant.ranks, this.variant.sfen));
      } catch (e) {
        this.showError(e.message);
        return;
      }
      lastMove = p > 0 ? g.moves[p - 1].move : null;
      const san = p > 0 ? g.moves[p - 1].san : null;
      check = !!san && /[+#]$/.test(san);
    }
    let checkSquare = null;
    if (check) {
      for (const [sq, pc] of board) if (pc.side === side && this.royals.has(pc.piece)) checkSquare = sq;
    }
    this.board.setState({
      board, hands, lastMove, checkSquare, sideToMove: side,
      legalMoves: p === g.ply ? g.legalMoves : [], interactive: this.canMove(), premoveSide: this.premoveSide(),
    });
    if (this.canMove() && this.board.premove) {
      const m = this.board.takePremove();
      this.board.render();
      if (m) this.sendMove(m);
      else this.showNotice(t('premove.cancelled'));
    }
    const label = this.q('#ply-label');
    label.textContent = t('nav.ply', { ply: p, total: g.ply });
    this.linkAnalysis(p);
    if (this.gameAnalysis) {
      // a finished game's analysis: the panel, the marks in the move list, the best move at the shown ply
      this.gameAnalysis.show();
      this.gameAnalysis.markMoves();
      const best = g.status === 'finished' ? this.gameAnalysis.bestAt(p) : null;
      this.board.setArrows(best ? [{ move: best, rank: 0 }] : []);
    }
    label.dataset.ply = p;
    if (!this.analysisOn) {
      this.analysisShown = null;
      clear(this.q('#analysis-out'));
    } else if (this.analysisShown !== p) {
      this.requestAnalysis();
    }
  }

  sideName(side) {
    return t('side.' + side + '.' + this.family);
  }

  playerName(side) {
    const who = this.game.players[side];
    const acc = this.game.accounts && this.game.accounts[side === 'first' ? 0 : 1];
    let s;
    if (acc) s = playerLabel(acc);
    else if (!who) s = t('player.open');
    else if (who.startsWith('computer')) s = t('player.computer', { level: who.split(':')[1] ?? '' });
    else s = t('player.human');
    if (this.game.you === side || this.game.you === 'both') s += ' ' + t('player.you');
    return s;
  }

  renderBars() {
    if (!this.game) return;
    const bottom = this.board.opts.flipped ? 'second' : 'first';
    const top = bottom === 'first' ? 'second' : 'first';
    for (const [id, side] of [['#bar-top', top], ['#bar-bottom', bottom]]) {
      const el = this.q(id);
      el.dataset.side = side;
      const mark = this.family === 'shogi' ? (side === 'first' ? '☗' : '☖') : (side === 'first' ? '○' : '●');
      const toMove = this.game.status === 'active' && this.game.sideToMove === side;
      el.classList.toggle('to-move', toMove);
      const acc = this.game.accounts && this.game.accounts[side === 'first' ? 0 : 1];
      const diff = acc && typeof acc.diff === 'number'
        ? h('span', { class: 'diff ' + (acc.diff >= 0 ? 'up' : 'down') }, (acc.diff >= 0 ? '+' : '') + acc.diff) : null;
      clear(el, h('span', { class: 'side-mark' }, mark), ' ', h('span', { class: 'side-name' }, this.sideName(side)),
        ' ', acc && acc.name ? h('a', { class: 'player-name', href: '/@/' + encodeURIComponent(acc.name), 'data-link': true },
          this.playerName(side)) : h('span', { class: 'player-name' }, this.playerName(side)), diff ? ' ' : null, diff,
        this.game.clock && this.game.clock.type !== 'none' ? h('span', { class: 'clock', 'data-clock': side }) : null);
    }
    this.renderSideClocks(top, bottom);
    this.tickClocks();
  }

  /**
   * The clocks beside the board on wide screens (as lichess and lishogi have them): the top player's above, the
   * bottom player's below, next to the board rather than under it at the window's edge. The player bars keep
   * their own clocks for narrow screens; the style sheet shows one pair or the other.
   */
  renderSideClocks(top, bottom) {
    const el = this.q('#side-clocks');
    const clocked = !!(this.game.clock && this.game.clock.type !== 'none');
    this.q('.game-page').classList.toggle('has-clock', clocked);
    if (!clocked) { clear(el); return; }
    const row = (side, where) => h('div', { class: 'side-clock ' + where, 'data-side': side },
      h('span', { class: 'side-clock-name' }, this.sideName(side)), h('span', { class: 'clock', 'data-clock': side }));
    clear(el, row(top, 'top'), row(bottom, 'bottom'));
  }

  /** The one-line status (whose move, check, waiting, over). */
  renderStatusLine() {
    const g = this.game;
    const st = this.q('#status');
    let s;
    if (g.status === 'waiting') s = t('status.waiting');
    else if (g.status === 'finished') s = t('status.finished');
    else if (g.players[g.sideToMove] && g.players[g.sideToMove].startsWith('computer')) s = t('status.thinking');
    else s = t('status.toMove', { side: this.sideName(g.sideToMove) }) + (g.check ? ' — ' + t('status.check') : '');
    st.textContent = s;
    st.dataset.status = g.status;
  }

  renderStatus() {
    const g = this.game;
    this.renderStatusLine();
    const res = this.q('#result');
    if (g.result) {
      const r = g.result;
      const key = terminationKey(r.termination);
      let who;
      if (r.winner) who = t('result.wins', { side: this.sideName(r.winner) });
      else if (key === 'aborted') who = t('result.none');
      else who = t('result.draw');
      const term = tOrNull('termination.' + key) ?? String(r.termination);
      res.hidden = false;
      res.dataset.winner = r.winner || 'none';
      res.dataset.termination = r.termination;
      // a player of a game against the computer or at one board may start the next one with the same settings
      const again = g.you && (g.mode === 'computer' || g.mode === 'hotseat')
        ? h('p', null, h('button', { type: 'button', id: 'again', onclick: () => this.playAgain() }, t('action.again')))
        : null;
      clear(res, h('strong', null, r.text || ''), ` ${who} (${term})`,
        EXPLAINED.has(key) ? h('p', { class: 'result-note', 'data-note': key }, t('result.note.' + key)) : null, again);
    } else {
      res.hidden = true;
      clear(res);
    }
    this.renderJoin();
    this.renderActions();
    this.q('#analysis').hidden = g.status !== 'finished';
  }

  /**
   * True when a part drawn from these inputs (and the language) would come out as it is now: then it is left as
   * it is, so that an update that does not concern it does not replace buttons under the user's pointer.
   */
  unchanged(part, ...inputs) {
    const key = JSON.stringify([lang(), ...inputs]);
    this.drawn = this.drawn || {};
    if (this.drawn[part] === key) return true;
    this.drawn[part] = key;
    return false;
  }

  renderJoin() {
    const g = this.game;
    const box = this.q('#join-box');
    if (this.unchanged('join', g.status, g.you, g.mode, g.joinUrl)) return;
    let content = null;
    if (g.status === 'waiting' && !g.you && g.mode === 'friend') {
      content = [h('p', null, t('join.invited')), h('button', { type: 'button', id: 'join', class: 'primary' }, t('join.button'))];
    } else if (g.status === 'waiting' && g.you && g.mode === 'friend') {
      const url = location.origin + (g.joinUrl || `/game/${encodeURIComponent(g.id)}?join`);
      content = [h('p', null, t('join.share')), h('input', { type: 'text', id: 'share-link', readonly: true, value: url, 'aria-label': t('join.share') }), ' ',
        h('button', { type: 'button', id: 'copy-link' }, t('join.copy'))];
    } else if (!g.you && g.status !== 'waiting') {
      content = [h('p', { class: 'spectating' }, t('join.spectating'))];
    }
    clear(box, content);
    box.hidden = !content;
  }

  /**
   * After the page's player offered a draw to the computer, the offer gone without the game ending is the
   * computer's refusal (it answers offers itself, or moves instead): said in #game-notice.
   */
  noticeDeclinedOffer() {
    const g = this.game;
    const prev = this.seenOffer;
    this.seenOffer = g.drawOffer || null;
    if (!prev || g.drawOffer || g.status !== 'active' || g.you !== prev) return;
    const other = prev === 'first' ? 'second' : 'first';
    if (!String(g.players[other] || '').startsWith('computer')) return;
    this.showNotice(t('draw.declinedByComputer'));
  }

  /** True when the royal pieces of both sides stand in their promotion zones (the precondition of impasse). */
  kingsInZones() {
    const g = this.game;
    const zone = this.variant.promotionRanks;
    const ranks = this.variant.ranks;
    if (!zone || !Array.isArray(g.board)) return false;
    const inZone = { first: false, second: false };
    for (const p of g.board) {
      if (!this.royals.has(p.piece)) continue;
      const r = squareIndex(p.square)[1];
      if (p.side === 'first' ? r >= ranks - zone : r < zone) inZone[p.side] = true;
    }
    return inZone.first && inZone.second;
  }

  renderActions() {
    const g = this.game;
    const el = this.q('#actions');
    const claims = this.variant.claims || {};
    const impasse = !!claims.impasse && g.status === 'active' && this.kingsInZones();
    const takeback = this.takebackState();
    this.q('#move-form').hidden = !(g.status === 'active' && g.you);
    if (this.unchanged('actions', g.status, g.you, g.drawOffer, g.you === 'both' ? g.sideToMove : null, impasse,
      g.ply < 2, takeback)) return;
    const button = (action, id, key) => h('button', { type: 'button', 'data-action': action, id }, t(key));
    // the creator of a friend game nobody joined yet may call it off
    if (g.status === 'waiting' && g.you) { clear(el, button('abort', 'abort', 'action.abort')); return; }
    if (g.status !== 'active' || !g.you) { clear(el); return; }
    const mine = g.you === 'both' ? g.sideToMove : g.you;
    // a friend game (a game between two people) may be aborted until both sides have moved, as on lichess
    const abortable = g.mode === 'friend' && g.ply < 2;
    const parts = [abortable ? button('abort', 'abort', 'action.abort') : button('resign', 'resign', 'action.resign')];
    if (g.drawOffer && g.drawOffer !== mine && g.you !== 'both') {
      parts.push(' ', h('span', { class: 'draw-offer' }, t('draw.offered')), ' ', button('accept', 'draw-accept', 'action.accept'),
        ' ', button('decline', 'draw-decline', 'action.decline'));
    } else if (g.drawOffer === mine) {
      parts.push(' ', h('span', { class: 'draw-offer' }, t('draw.pending')));
    } else {
      parts.push(' ', button('offer', 'draw-offer', 'action.offerDraw'));
    }
    // the claims the rule set has (GET /api/variants/{id}: claims): a draw by repetition or the move rule, offered
    // to the player to move only when the position allows it (the game's canClaimDraw), and the impasse count,
    // offered only while both kings are in their zones
    const mayClaimDraw = g.canClaimDraw && (g.you === 'both' || g.you === g.sideToMove);
    if (claims.draw && mayClaimDraw) parts.push(' ', button('claim', 'claim', 'action.claimDraw'));
    else if (impasse) parts.push(' ', button('impasse', 'claim', 'action.claimImpasse'));
    if (takeback === 'answer') {
      parts.push(h('div', { class: 'takeback-offer' }, h('span', null, t('takeback.offered')), ' ',
        button('tb-accept', 'takeback-accept', 'action.accept'), ' ', button('tb-decline', 'takeback-decline', 'action.decline')));
    } else if (takeback === 'pending') {
      parts.push(h('div', { class: 'takeback-offer' }, t('takeback.pending')));
    } else if (takeback === 'ask') {
      parts.push(' ', button('takeback', 'takeback', 'action.takeback'));
    }
    clear(el, parts);
  }

  /**
   * What the page offers about takebacks: 'answer' (the opponent asks), 'pending' (this player asked), 'ask' (this
   * player has a move to take back), or null.
   */
  takebackState() {
    const g = this.game;
    if (g.status !== 'active' || !g.you) return null;
    const mine = g.you === 'both' ? (g.sideToMove === 'first' ? 'second' : 'first') : g.you;
    if (g.takebackOffer && g.takebackOffer !== mine) return 'answer';
    if (g.takebackOffer === mine) return 'pending';
    // its last move, and the reply after it when the opponent has replied (as the server counts)
    const plies = g.sideToMove === mine ? 2 : 1;
    return g.ply >= plies ? 'ask' : null;
  }

  /** The text of one move in the chosen notation. */
  moveText(m, ply) {
    if (this.family === 'chess') return m.san || m.move;
    if ((this.prefs.notation || 'western') === 'japanese' && m.japanese) return (this.plyIsFirst(ply) ? '▲' : '△') + m.japanese;
    return m.western || m.move;
  }

  /**
   * The move list's row of move number n (the last row, or a new one appended): the number, the first side's
   * move, the second side's move. The shogi family numbers every ply, as KIF and lishogi do: one move a row.
   */
  moveRow(list, n) {
    const last = list.lastElementChild;
    if (last && last.dataset.row === String(n)) return last;
    const perPly = this.family === 'shogi';
    list.classList.toggle('per-ply', perPly);
    const row = h('div', { class: 'mv-row', 'data-row': n },
      h('span', { class: 'mvno' }, n + '.'),
      h('span', { class: 'mv-cell', 'data-side': 'first' }),
      perPly ? null : h('span', { class: 'mv-cell', 'data-side': 'second' }));
    list.append(row);
    return row;
  }

  /** Puts one move's button into its row and column of the list. */
  addMove(list, m, ply) {
    const first = this.plyIsFirst(ply);
    const perPly = this.family === 'shogi';
    const row = this.moveRow(list, perPly ? ply : this.moveNumber(ply));
    if (!perPly && !first && ply === 1) clear(row.children[1], h('span', { class: 'mv-skip' }, '…'));
    clear(row.children[perPly || first ? 1 : 2], h('button', { type: 'button', class: 'mv', 'data-ply': ply }, this.moveText(m, ply)));
  }

  renderMoves() {
    const g = this.game;
    if (!g) return;
    const list = this.q('#move-list');
    if (!g.moves.length) {
      clear(list, h('span', { class: 'empty' }, t('moves.none')));
      return;
    }
    clear(list);
    g.moves.forEach((m, i) => this.addMove(list, m, i + 1));
    this.markCurrentMove();
  }

  /** Adds the last n moves of the game to the list (rebuilds it when it does not hold the ones before). */
  appendMoves(n) {
    const g = this.game;
    const list = this.q('#move-list');
    const have = list.querySelectorAll('button.mv').length;
    if (n <= 0 || have !== g.ply - n) { this.renderMoves(); return; }
    if (have === 0) clear(list);
    for (let ply = g.ply - n + 1; ply <= g.ply; ply++) this.addMove(list, g.moves[ply - 1], ply);
    this.markCurrentMove();
  }

  /** Marks the shown ply's move in the list and scrolls it into view. */
  markCurrentMove() {
    const list = this.q('#move-list');
    const shown = this.shownPly();
    let cur = null;
    for (const b of list.querySelectorAll('button.mv')) {
      const on = Number(b.dataset.ply) === shown;
      b.classList.toggle('current', on);
      if (on) cur = b;
    }
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  /** True when the first player moves first from the game's start position. */
  firstMovesAtStart() {
    if (this.firstAtStart === undefined) {
      try {
        this.firstAtStart = parseFen(this.game.initialFen, this.variant.files, this.variant.ranks, this.variant.sfen).sideToMove === 'first';
      } catch (e) {
        this.firstAtStart = true;
      }
    }
    return this.firstAtStart;
  }

  plyIsFirst(ply) {
    return ((ply % 2 === 1) === this.firstMovesAtStart());
  }

  moveNumber(ply) {
    return Math.floor((ply - 1 + (this.firstMovesAtStart() ? 0 : 1)) / 2) + 1;
  }

  /**
   * The low-time sound, once per side and game: when the page's own running clock (not a correspondence one)
   * falls below LOW_TIME_MS, or a tenth of the starting time when that is less.
   */
  warnLowTime(side, running, ms) {
    const g = this.game;
    if (!running || g.clock.type === 'correspondence' || !(g.you === side || g.you === 'both')) return;
    this.lowTimeWarned = this.lowTimeWarned || {};
    const limit = Math.min(LOW_TIME_MS, (g.clock.initialMs || LOW_TIME_MS * 10) / 10);
    if (ms < limit && ms > 0 && !this.lowTimeWarned[side]) {
      this.lowTimeWarned[side] = true;
      playSound('lowTime');
    }
  }

  /** Redraws the clocks: the running side's time counts down from the server's reading at clock.serverTime. */
  tickClocks() {
    const g = this.game;
    if (!g || !g.clock || g.clock.type === 'none') return;
    const elapsed = this.state.clockElapsed();
    for (const side of ['first', 'second']) {
      const els = this.root.querySelectorAll(`[data-clock="${side}"]`);
      const c = g.clock[side];
      if (!els.length || !c) continue;
      const running = g.status === 'active' && g.clock.running === side;
      let ms = c.ms - (running ? elapsed : 0);
      let inByoyomi = !!c.inByoyomi;
      if (g.clock.type === 'byoyomi' && ms < 0 && !inByoyomi && g.clock.byoyomiMs > 0 && c.periods > 0) {
        // main time ran out locally: the byoyomi period runs until the server's next word
        inByoyomi = true;
        ms = g.clock.byoyomiMs + ms;
      }
      this.warnLowTime(side, running, ms);
      let s = g.clock.type === 'correspondence' ? formatDays(ms) : formatClock(ms);
      if (g.clock.type === 'byoyomi') {
        if (inByoyomi) s += ` ${t('clock.byoyomiShort')}`;
        if (c.periods !== undefined) s += ` (${c.periods}×)`;
        // "(1×)": the byoyomi periods left, said in words for the pointer and screen readers
      }
      for (const el of els) {
        if (g.clock.type === 'byoyomi' && c.periods !== undefined) el.title = t('clock.periodsLeft', { n: c.periods });
        el.textContent = s;
        el.classList.toggle('running', running);
        el.classList.toggle('low', ms < (g.clock.type === 'correspondence' ? 3600000 : 10000));
      }
    }
  }

  showError(msg) {
    const el = this.q('#game-error');
    if (el) el.textContent = msg;
  }

  /** A refused request: a heading naming what failed, then the server's reason without its field name. */
  showFailure(heading, e) {
    const el = this.q('#game-error');
    if (el) clear(el, h('strong', { class: 'error-title' }, heading + ':'), ' ', h('span', { class: 'error-detail' }, errorText(e)));
  }

  /** A message that is no error (the computer declined the draw offer); '' clears it. */
  showNotice(msg) {
    const el = this.q('#game-notice');
    if (el) el.textContent = msg;
  }

  // ---- actions ----

  /**
   * A new game with this one's settings: rule set, mode, computer level, the player's side, clock and start
   * position (when it was not the rule set's own); then opens it.
   */
  async playAgain() {
    const g = this.game;
    const body = { variant: g.variant, mode: g.mode, color: g.you === 'second' ? 'second' : 'first' };
    const computer = [g.players.first, g.players.second].find((p) => String(p).startsWith('computer:'));
    if (computer) body.level = Number(computer.split(':')[1]);
    const c = g.clock || { type: 'none' };
    if (c.type === 'fischer') body.clock = { type: 'fischer', initialMs: c.initialMs, incrementMs: c.incrementMs };
    else if (c.type === 'byoyomi') body.clock = { type: 'byoyomi', initialMs: c.initialMs, byoyomiMs: c.byoyomiMs, periods: c.periods };
    if (g.initialFen && g.initialFen !== this.variant.startFen) body.fen = g.initialFen;
    try {
      const created = await api('POST', '/api/games', body);
      navigate('/game/' + encodeURIComponent(created.id));
    } catch (e) {
      this.showFailure(t('error.action.again'), e);
    }
  }

  /**
   * Under the move list of a rule set written in Western shogi notation, the key to its letters (each unpromoted
   * piece's letter and name, in the page's language): Wa shogi's single letters tell a newcomer nothing alone.
   */
  renderNotationKey() {
    const el = this.q('#notation-key');
    const western = !(this.variant.notations || []).includes('san') && (this.prefs.notation || 'western') === 'western';
    el.hidden = !western;
    if (!western) return;
    const pieces = (this.variant.pieces || []).filter((p) => !p.promoted);
    clear(el, h('summary', null, t('notation.key')),
      h('ul', { class: 'notation-key-list' }, pieces.map((p) => h('li', null,
        h('b', null, p.letter), ' ', localPieceName(p, this.variant)))),
      h('p', { class: 'muted' }, t('notation.key.promoted')));
  }

  /** The board theme of the page preferences, one of THEMES. */
  theme() {
    return THEMES.includes(this.prefs.theme) ? this.prefs.theme : THEMES[0];
  }

  /** The piece theme of the page preferences, one of PIECE_THEMES. */
  pieceTheme() {
    return PIECE_THEMES.includes(this.prefs.pieceTheme) ? this.prefs.pieceTheme : PIECE_THEMES[0];
  }

  /**
   * Sets the board's theme classes (css/koma.css: .theme-NAME sets the square, wood and line colours;
   * .piece-theme-NAME the pieces' body and ink).
   */
  applyTheme() {
    const el = this.q('#board');
    for (const name of THEMES) el.classList.toggle('theme-' + name, name === this.theme());
    for (const name of PIECE_THEMES) el.classList.toggle('piece-theme-' + name, name === this.pieceTheme());
  }

  /**
   * Move confirmation (the page preference, as lichess's): 'never', 'slow' (correspondence games and clocks of 30
   * minutes or more, the default) or 'always'. Hot-seat games never ask.
   */
  needsConfirmation() {
    const g = this.game;
    const pref = this.prefs.confirmMoves || 'slow';
    if (pref === 'never' || g.you === 'both') return false;
    if (pref === 'always') return true;
    const c = g.clock || { type: 'none' };
    return c.type === 'correspondence' || ((c.type === 'fischer' || c.type === 'byoyomi') && c.initialMs >= SLOW_CLOCK_MS);
  }

  /** A move chosen on the board or typed: played, or first shown for confirmation. */
  proposeMove(move) {
    if (!this.needsConfirmation()) {
      this.sendMove(move);
      return;
    }
    this.pendingMove = move;
    const box = this.q('#confirm-box');
    box.setAttribute('aria-label', t('confirm.title'));
    clear(box, h('span', null, t('confirm.question', { move })), ' ',
      h('button', { type: 'button', class: 'primary', 'data-confirm': 'yes', id: 'confirm-yes' }, t('confirm.yes')), ' ',
      h('button', { type: 'button', 'data-confirm': 'no', id: 'confirm-no' }, t('confirm.no')));
    box.hidden = false;
  }

  /** The answer to the confirmation: play the waiting move, or forget it. */
  confirmMove(yes) {
    const move = this.pendingMove;
    this.pendingMove = null;
    const box = this.q('#confirm-box');
    box.hidden = true;
    clear(box);
    if (yes && move && this.canMove() && (this.game.legalMoves || []).includes(move)) this.sendMove(move);
    else this.renderPosition();
  }

  /**
   * A move typed in the move box: a move string (e2e4, e7e8q, 7g7f, P*5e, P@e5; case and spaces forgiven) is
   * looked up among the legal moves; anything else is read by the server in the rule set's notations (SAN such
   * as Nf3 or O-O, Western shogi notation such as P-7f, Japanese such as ７六歩). Played when legal, else said why
   * not.
   */
  async typedMove() {
    const input = this.q('#move-input');
    const typed = input.value.trim();
    const text = typed.replace(/\s+/g, '');
    if (!text) return;
    if (!this.canMove()) {
      this.showError(t('move.typed.notYourTurn'));
      return;
    }
    const legal = this.game.legalMoves || [];
    let found = legal.find((m) => m === text) || legal.find((m) => m.toLowerCase() === text.toLowerCase());
    if (!found) {
      try {
        const r = await api('POST', '/api/analysis/parse', { variant: this.game.variant, fen: this.game.fen, text: typed });
        if (legal.includes(r.move)) found = r.move;
      } catch (e) {
        found = null;
      }
    }
    if (!found) {
      this.showError(t('move.typed.illegal', { move: typed }));
      return;
    }
    input.value = '';
    this.proposeMove(found);
  }

  async sendMove(move) {
    this.showError('');
    this.showNotice('');
    try {
      this.state.receive(await api('POST', this.gamePath('/moves'), { move, ply: this.game.ply }));
    } catch (e) {
      this.showFailure(t('error.move', { move }), e);
      this.refresh();
    }
  }

  async action(name, button) {
    if (name === 'resign' && !button.classList.contains('confirm')) {
      button.classList.add('confirm');
      button.textContent = t('action.confirmResign');
      setTimeout(() => { if (button.isConnected) { button.classList.remove('confirm'); button.textContent = t('action.resign'); } }, 4000);
      return;
    }
    this.showError('');
    this.showNotice('');
    try {
      let answer;
      if (name === 'resign') answer = await api('POST', this.gamePath('/resign'), {});
      else if (name === 'offer' || name === 'accept' || name === 'decline') answer = await api('POST', this.gamePath('/draw'), { action: name });
      else if (name === 'claim') answer = await api('POST', this.gamePath('/claim'), { kind: 'draw' });
      else if (name === 'impasse') answer = await api('POST', this.gamePath('/claim'), { kind: 'impasse' });
      else if (name === 'abort') answer = await api('POST', this.gamePath('/abort'), {});
      else if (name === 'takeback') answer = await api('POST', this.gamePath('/takeback'), { action: 'offer' });
      else if (name === 'tb-accept') answer = await api('POST', this.gamePath('/takeback'), { action: 'accept' });
      else if (name === 'tb-decline') answer = await api('POST', this.gamePath('/takeback'), { action: 'decline' });
      if (answer) this.state.receive(answer);
    } catch (e) {
      this.showFailure(tOrNull('error.action.' + name) ?? t('error.action'), e);
    }
  }

  /**
   * A rematch action: offer, accept, decline; or seat: the old seat's cookie proves the player, the answer sets the
   * cookie of its seat in the rematch game, which then opens.
   */
  async rematch(action) {
    this.showError('');
    try {
      const answer = await api('POST', this.gamePath('/rematch'), { action });
      if (action === 'seat') {
        navigate('/game/' + encodeURIComponent(answer.gameId));
        return;
      }
      this.state.receive(answer);
    } catch (e) {
      this.showFailure(t('error.action.rematch'), e);
    }
  }

  /** Sends the chat input's text (the server trims it and checks its length and rate). */
  async sendChat() {
    const input = this.q('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    this.showError('');
    try {
      this.state.receive(await api('POST', this.gamePath('/chat'), { text }));
      input.value = '';
    } catch (e) {
      this.showFailure(t('error.chat'), e);
    }
  }

  async join() {
    try {
      this.state.receive(await api('POST', this.gamePath('/join'), {}));
      this.board.setOptions({ flipped: this.game.you === 'second' });
      this.renderBars();
      history.replaceState(null, '', '/game/' + encodeURIComponent(this.id));
      this.reconnect();
    } catch (e) {
      this.showFailure(t('error.join'), e);
    }
  }

  copyLink() {
    const input = this.q('#share-link');
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
  }

  // ---- stepping through the moves ----

  showPly(p) {
    const g = this.game;
    this.viewPly = p >= g.ply ? null : Math.max(0, p);
    this.renderPosition();
    this.markCurrentMove();
  }

  step(where) {
    const p = this.shownPly();
    if (where === 'first') this.showPly(0);
    else if (where === 'prev') this.showPly(p - 1);
    else if (where === 'next') this.showPly(p + 1);
    else this.showPly(this.game.ply);
  }

  onKey(e) {
    if (!this.game || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === 'ArrowLeft') this.step('prev');
    else if (e.key === 'ArrowRight') this.step('next');
    else if (e.key === 'Home') this.step('first');
    else if (e.key === 'End') this.step('last');
  }

  // ---- analysis ----

  /**
   * Asks for the analysis of the shown ply. One request at a time (the server runs one per client): while
   * one is out, only the latest wanted ply is kept and sent when it returns.
   */
  requestAnalysis() {
    const ply = this.shownPly();
    this.analysisShown = ply;
    this.analysisWanted = ply;
    clear(this.q('#analysis-out'), h('span', { class: 'loading' }, t('analysis.running')));
    if (!this.analysisBusy) this.runAnalysis();
  }

  async runAnalysis() {
    this.analysisBusy = true;
    try {
      while (this.analysisWanted !== null && !this.destroyed) {
        let ply = this.analysisWanted;
        this.analysisWanted = null;
        let a = null;
        let error = null;
        try {
          a = await this.fetchAnalysis(ply);
        } catch (e) {
          if ((e.status === 429 || e.status === 503) && !this.destroyed) {
            // busy: once more after the time the server asks for (the latest wanted ply by then)
            const wait = Math.min(30, Math.max(0.2, e.retryAfter ?? 1)) * 1000;
            await new Promise((resolve) => setTimeout(resolve, wait));
            if (this.analysisWanted !== null) { ply = this.analysisWanted; this.analysisWanted = null; }
            try { a = await this.fetchAnalysis(ply); } catch (e2) { error = e2; }
          } else {
            error = e;
          }
        }
        if (this.analysisWanted === null && this.analysisOn && ply === this.shownPly() && !this.destroyed) {
          this.showAnalysis(ply, a, error);
        }
      }
    } finally {
      this.analysisBusy = false;
    }
  }

  fetchAnalysis(ply) {
    return api('GET', this.gamePath(`/analysis?ply=${ply}`));
  }

  showAnalysis(ply, a, error) {
    const out = this.q('#analysis-out');
    if (error) {
      clear(out, h('span', { class: 'error' }, error.message));
      return;
    }
    let score = '';
    if (a.score && a.score.mate !== undefined) score = t('analysis.mate', { n: a.score.mate });
    else if (a.score) score = (a.score.cp >= 0 ? '+' : '') + (a.score.cp / 100).toFixed(2);
    const line = (a.pvText && a.pvText.length ? a.pvText : a.pv || []).join(' ');
    clear(out,
      h('div', { class: 'eval', 'data-ply': ply }, h('span', { class: 'score' }, score), ' ',
        h('span', { class: 'depth' }, t('analysis.depth', { depth: a.depth }))),
      h('div', { class: 'pv' }, h('span', null, t('analysis.bestLine') + ':'), ' ' + line),
      h('div', { class: 'note' }, t('analysis.view')));
  }

  // ---- export ----

  async exportRecord(format) {
    const out = this.q('#export-out');
    try {
      const ply = this.shownPly();
      const text = await api('GET', this.gamePath(`/export?format=${encodeURIComponent(format)}`) + (format === 'fen' ? `&ply=${ply}` : ''));
      out.hidden = false;
      out.value = typeof text === 'string' ? text : JSON.stringify(text);
      out.dataset.format = format;
      const a = this.q('#export-download');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([out.value], { type: 'text/plain' }));
      a.download = `koma-${this.id}.${format === 'fen' ? 'txt' : format}`;
      a.textContent = t('export.download');
      a.hidden = false;
    } catch (e) {
      this.showFailure(t('error.export'), e);
    }
  }
}
