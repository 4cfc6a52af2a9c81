// The analysis board (/analysis?variant=V&fen=F&moves=m1,m2): any position of any rule set, set up from FEN/SFEN or
// a game record, moves played freely for both sides, a move list to step through (a move played at an earlier ply
// replaces the line after it), and the engine's best lines (MultiPV 1-5) with an arrow on the board for each
// line's first move. Positions come from POST /api/analysis/position, lines from POST /api/analysis/lines (the
// server's engine queue: one request of a client at a time; a newer wish waits for the running one).

import { api, variantInfo, VARIANT_IDS, isShogiFamily } from './api.js';
import { BoardView } from './board.js';
import { boardFromList } from './fen.js';
import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { errorText } from './game.js';

const MAX_MULTIPV = 5;

/** The analysis board page. */
export class AnalysisPage {
  constructor(root, params) {
    this.root = root;
    this.variantId = VARIANT_IDS.includes(params.get('variant')) ? params.get('variant') : VARIANT_IDS[0];
    this.start = { fen: params.get('fen') || null, record: null };
    this.line = (params.get('moves') || '').split(',').filter((m) => m);
    this.ply = null;
    this.multiPv = 3;
    this.engineOn = true;
    this.position = null;
    this.lines = null;
    this.running = false;
    this.wanted = null;
    this.render();
    this.load();
  }

  destroy() {
    this.destroyed = true;
    if (this.board) this.board.destroy();
  }

  relabel() {
    if (this.board) this.board.destroy();
    this.board = null;
    this.render();
    this.load();
  }

  q(css) {
    return this.root.querySelector(css);
  }

  render() {
    const opt = (v, cur, label) => h('option', { value: v, selected: v === cur }, label);
    clear(this.root, h('section', { class: 'analysis-page' },
      h('div', { class: 'analysis-main' },
        h('div', { id: 'board' }),
        h('div', { class: 'nav', id: 'an-nav' },
          h('button', { type: 'button', 'data-nav': 'first', 'aria-label': t('analysis.nav.first') }, '«'), ' ',
          h('button', { type: 'button', 'data-nav': 'prev', 'aria-label': t('analysis.nav.prev') }, '‹'), ' ',
          h('span', { id: 'an-ply' }), ' ',
          h('button', { type: 'button', 'data-nav': 'next', 'aria-label': t('analysis.nav.next') }, '›'), ' ',
          h('button', { type: 'button', 'data-nav': 'last', 'aria-label': t('analysis.nav.last') }, '»'))),
      h('aside', { class: 'analysis-side' },
        h('h1', null, t('analysis.title')),
        h('form', { id: 'an-setup', class: 'analysis-setup' },
          h('label', { for: 'an-variant' }, t('new.variant')), ' ',
          h('select', { id: 'an-variant' }, VARIANT_IDS.map((id) => opt(id, this.variantId, t('variant.' + id)))),
          h('label', { for: 'an-fen' }, t('new.fen')),
          h('input', { id: 'an-fen', type: 'text', spellcheck: 'false', value: this.start.fen || '' }),
          h('label', { for: 'an-record' }, t('new.record')),
          h('textarea', { id: 'an-record', rows: 3, spellcheck: 'false' }),
          h('button', { type: 'submit', id: 'an-load' }, t('analysis.setUp'))),
        h('p', { class: 'error', id: 'an-error', role: 'alert' }),
        h('div', { class: 'analysis-engine' },
          h('label', null, h('input', { type: 'checkbox', id: 'an-engine', checked: this.engineOn }), ' ', t('analysis.engine')), ' ',
          h('label', null, t('analysis.multiPv'), ' ',
            h('select', { id: 'an-multipv' }, [1, 2, 3, 4, 5].map((n) => opt(String(n), String(this.multiPv), String(n)))))),
        h('ol', { class: 'analysis-lines', id: 'an-lines', 'aria-live': 'polite' }),
        h('div', { class: 'move-list', id: 'an-moves' }))));
    this.q('#an-setup').addEventListener('submit', (e) => {
      e.preventDefault();
      const fen = this.q('#an-fen').value.trim();
      const record = this.q('#an-record').value.trim();
      this.variantId = this.q('#an-variant').value;
      this.start = { fen: fen || null, record: record || null };
      this.line = [];
      this.ply = null;
      this.load();
    });
    this.q('#an-variant').addEventListener('change', (e) => {
      this.variantId = e.target.value;
      this.start = { fen: null, record: null };
      this.q('#an-fen').value = '';
      this.line = [];
      this.ply = null;
      this.load();
    });
    this.q('#an-engine').addEventListener('change', (e) => { this.engineOn = e.target.checked; this.showLines(); this.askEngine(); });
    this.q('#an-multipv').addEventListener('change', (e) => { this.multiPv = Number(e.target.value); this.askEngine(); });
    this.q('#an-nav').addEventListener('click', (e) => {
      const b = e.target.closest('[data-nav]');
      if (!b || !this.position) return;
      const total = this.position.moves.length;
      const cur = this.shownPly();
      const to = { first: 0, prev: Math.max(0, cur - 1), next: Math.min(total, cur + 1), last: total }[b.dataset.nav];
      this.goTo(to);
    });
    this.q('#an-moves').addEventListener('click', (e) => {
      const b = e.target.closest('[data-ply]');
      if (b) this.goTo(Number(b.dataset.ply));
    });
  }

  shownPly() {
    return this.ply === null ? this.line.length : this.ply;
  }

  /** The body that names the start and the moves up to `upto` (the whole line by default). */
  body(upto) {
    const b = { variant: this.variantId, moves: this.line.slice(0, upto ?? this.line.length) };
    if (this.start.fen) b.fen = this.start.fen;
    if (this.start.record) b.record = this.start.record;
    return b;
  }

  /** Fetches the whole line's position (checking it), then draws the shown ply and asks the engine. */
  async load() {
    this.showError('');
    try {
      this.variant = await variantInfo(this.variantId);
      const p = await api('POST', '/api/analysis/position', this.body());
      if (this.destroyed) return;
      if (this.start.record) {
        // a record's moves become the line: the start is the record's start position
        this.start = { fen: p.initialFen, record: null };
        this.line = p.moves.map((m) => m.move);
        this.q('#an-fen').value = p.initialFen;
        this.q('#an-record').value = '';
      }
      this.position = p;
      this.newBoard();
      this.draw();
    } catch (e) {
      this.showError(t('analysis.badSetup') + ': ' + errorText(e));
    }
    const share = new URLSearchParams({ variant: this.variantId });
    if (this.start.fen) share.set('fen', this.start.fen);
    if (this.line.length) share.set('moves', this.line.join(','));
    history.replaceState(null, '', '/analysis?' + share.toString());
  }

  newBoard() {
    if (this.board) this.board.destroy();
    this.family = isShogiFamily(this.variantId) ? 'shogi' : 'chess';
    this.board = new BoardView(this.q('#board'), this.variant, this.family, (m) => this.play(m));
    this.board.setOptions({ pieceSet: 'kanji', coords: this.family === 'shogi' ? 'shogi' : 'chess' });
  }

  /** A move played on the board at the shown ply: the line after it is replaced. */
  async play(move) {
    const at = this.shownPly();
    const line = [...this.line.slice(0, at), move];
    try {
      const p = await api('POST', '/api/analysis/position', { ...this.body(0), moves: line });
      if (this.destroyed) return;
      this.line = line;
      this.ply = null;
      this.position = p;
      this.draw();
    } catch (e) {
      this.showError(errorText(e));
      this.draw();
    }
  }

  goTo(ply) {
    this.ply = ply >= this.line.length ? null : ply;
    this.draw();
  }

  /** The board, move list and ply label at the shown ply; then the engine's lines for it. */
  draw() {
    const p = this.position;
    const ply = this.shownPly();
    this.shown = ply === p.moves.length ? p : null;
    const state = this.shown
      ? { board: boardFromList(p.board), hands: p.hands, sideToMove: p.sideToMove, legalMoves: p.legalMoves,
        lastMove: p.lastMove }
      : null;
    if (state) {
      this.board.setState({ ...state, interactive: p.legalMoves.length > 0, checkSquare: this.checkSquare(p), premoveSide: null });
    } else {
      this.showAt(ply);
      return;
    }
    this.afterDraw(ply);
  }

  /** An earlier ply: its position is asked of the server (it checks the line up to there). */
  async showAt(ply) {
    try {
      const p = await api('POST', '/api/analysis/position', this.body(ply));
      if (this.destroyed || this.shownPly() !== ply) return;
      this.board.setState({ board: boardFromList(p.board), hands: p.hands, sideToMove: p.sideToMove,
        legalMoves: p.legalMoves, lastMove: p.lastMove, interactive: p.legalMoves.length > 0,
        checkSquare: this.checkSquare(p), premoveSide: null });
      this.atPly = p;
      this.afterDraw(ply);
    } catch (e) {
      this.showError(errorText(e));
    }
  }

  checkSquare(p) {
    if (!p.check) return null;
    const royals = new Set(this.variant.pieces.filter((x) => x.royal).map((x) => x.letter));
    const own = p.board.find((x) => x.side === p.sideToMove && royals.has(x.piece));
    return own ? own.square : null;
  }

  afterDraw(ply) {
    const total = this.position.moves.length;
    this.q('#an-ply').textContent = t('nav.ply', { ply, total });
    this.renderMoves(ply);
    this.lines = null;
    this.board.setArrows([]);
    this.showLines();
    this.askEngine();
  }

  renderMoves(current) {
    const el = this.q('#an-moves');
    const moves = this.position.moves;
    if (!moves.length) {
      clear(el, h('p', { class: 'muted' }, t('moves.none')));
      return;
    }
    const text = (m) => m.san || m.western || m.move;
    clear(el, h('ol', { class: 'analysis-move-list' }, moves.map((m, i) => h('li', null,
      h('button', { type: 'button', class: 'mv' + (i + 1 === current ? ' current' : ''), 'data-ply': i + 1 }, text(m))))));
  }

  /**
   * Asks the engine for the shown position unless it is off or the position has no move; one request at a time:
   * while one runs, only the latest wanted position waits.
   */
  async askEngine() {
    if (!this.engineOn || !this.position) return;
    const ply = this.shownPly();
    const key = ply + '|' + this.multiPv + '|' + this.line.slice(0, ply).join(',');
    this.wanted = key;
    if (this.running) return;
    this.running = true;
    try {
      while (this.wanted && !this.destroyed) {
        const want = this.wanted;
        this.wanted = null;
        const [p, mpv] = want.split('|');
        let answer;
        try {
          answer = await api('POST', '/api/analysis/lines', { ...this.body(Number(p)), multiPv: Number(mpv) });
        } catch (e) {
          if (e.status === 429 || e.status === 503) {
            await new Promise((r) => setTimeout(r, 1000 * (e.retryAfter || 1)));
            if (!this.wanted) this.wanted = want;
            continue;
          }
          if (e.status !== 409) this.showError(errorText(e));
          continue;
        }
        const now = this.shownPly() + '|' + this.multiPv + '|' + this.line.slice(0, this.shownPly()).join(',');
        if (now === want && !this.destroyed) {
          this.lines = answer.lines;
          this.showLines();
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** The lines (score from the side to move's view, depth, the moves in the page's notation) and their arrows. */
  showLines() {
    const el = this.q('#an-lines');
    if (!this.engineOn) {
      clear(el);
      if (this.board) this.board.setArrows([]);
      return;
    }
    if (!this.lines) {
      clear(el, h('li', { class: 'muted' }, t('analysis.thinking')));
      return;
    }
    const score = (s) => s.mate !== undefined ? '#' + s.mate : (s.cp > 0 ? '+' : '') + (s.cp / 100).toFixed(2);
    clear(el, this.lines.map((l, i) => h('li', { class: 'analysis-line', 'data-line': i },
      h('span', { class: 'line-score' }, score(l.score)), ' ',
      h('span', { class: 'line-depth' }, t('analysis.depth', { depth: l.depth })), ' ',
      h('span', { class: 'line-moves' }, (l.pvText || l.pv).join(' ')))));
    if (this.board) this.board.setArrows(this.lines.filter((l) => l.pv.length).map((l, i) => ({ move: l.pv[0], rank: i })));
  }

  showError(msg) {
    const el = this.q('#an-error');
    if (el) el.textContent = msg;
  }
}
