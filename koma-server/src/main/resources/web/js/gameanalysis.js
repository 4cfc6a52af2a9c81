// The whole-game analysis of a finished game (POST/GET /api/games/{id}/analysis/game): a button asks for it, the
// page polls while the server's background jobs run, then draws the evaluation graph (one point per ply, from the
// first player's view, clamped; a mate at the edge; a click goes to that ply), marks inaccuracies, mistakes and
// blunders in the move list and counts them per side, and shows the engine's best move at the shown ply as an arrow.
//
// A move's cost is the drop in the mover's winning chances, lichess's measure: chances = 2 / (1 + e^(-0.00368208
// cp)) - 1, from -1 to 1; a drop of 0.1 or more is an inaccuracy, 0.2 a mistake, 0.3 a blunder.

import { api } from './api.js';
import { t } from './i18n.js';
import { h, svg, clear } from './dom.js';

const POLL_MS = 1500;
const GRAPH_W = 600;
const GRAPH_H = 120;
/** Centipawns the graph shows at most either way (a mate is drawn at the edge). */
const CLAMP_CP = 1000;
const KINDS = [['blunder', 0.3], ['mistake', 0.2], ['inaccuracy', 0.1]];

/** Winning chances from -1 to 1 of a score {cp} or {mate} (from the side it is given for). */
function chances(score) {
  // mate 0: the side to move is mated (or has lost otherwise at the game's end)
  const cp = score.mate !== undefined ? (score.mate > 0 ? CLAMP_CP : -CLAMP_CP)
    : Math.max(-CLAMP_CP, Math.min(CLAMP_CP, score.cp));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** The whole-game analysis panel of a game page. */
export class GameAnalysisView {
  /** page: the GamePage (its game, showPly, sideName, firstMovesAtStart, renderPosition). */
  constructor(page, root) {
    this.page = page;
    this.root = root;
    this.data = null;
    this.timer = null;
    root.addEventListener('click', (e) => {
      if (e.target.closest('#game-analysis-request')) this.request();
      const pt = e.target.closest('[data-graph-ply]');
      if (pt) this.page.showPly(Number(pt.dataset.graphPly));
    });
  }

  destroy() {
    clearTimeout(this.timer);
    this.gone = true;
  }

  /** Shows the panel for a finished game: the stored analysis if there is one, else the button. */
  async show() {
    const g = this.page.game;
    this.root.hidden = g.status !== 'finished';
    if (this.root.hidden || this.loaded === g.id) return;
    this.loaded = g.id;
    try {
      this.take(await api('GET', `/api/games/${encodeURIComponent(g.id)}/analysis/game`));
    } catch (e) {
      this.render(e.message);
    }
  }

  async request() {
    const g = this.page.game;
    try {
      this.take(await api('POST', `/api/games/${encodeURIComponent(g.id)}/analysis/game`, {}));
    } catch (e) {
      this.render(t('gameAnalysis.refused'));
    }
  }

  take(data) {
    if (this.gone) return;
    this.data = data;
    this.render(null);
    clearTimeout(this.timer);
    if (data.status === 'running') {
      this.timer = setTimeout(async () => {
        try {
          this.take(await api('GET', `/api/games/${encodeURIComponent(this.page.game.id)}/analysis/game`));
        } catch (e) {
          this.render(e.message);
        }
      }, POLL_MS);
    }
    this.page.renderPosition();
  }

  /** Each move's kind (null, inaccuracy, mistake, blunder) by ply, from the stored plies. */
  kinds() {
    const plies = this.data ? this.data.plies : [];
    const out = new Map();
    for (let i = 1; i < plies.length; i++) {
      // the mover's chances before (score of ply i-1 is for the mover) and after (ply i's score is the opponent's)
      const drop = chances(plies[i - 1].score) - (-chances(plies[i].score));
      const kind = KINDS.find(([, limit]) => drop >= limit);
      if (kind) out.set(i, kind[0]);
    }
    return out;
  }

  render(error) {
    const d = this.data;
    const parts = [h('h2', null, t('gameAnalysis.title'))];
    if (error) parts.push(h('p', { class: 'error' }, error));
    if (!d || d.status === 'none') {
      parts.push(h('button', { type: 'button', id: 'game-analysis-request' }, t('gameAnalysis.request')));
    } else {
      if (d.status === 'running') parts.push(h('p', { class: 'muted', id: 'game-analysis-progress' },
        t('gameAnalysis.progress', { done: d.plies.length, total: d.total })));
      if (d.plies.length > 1) parts.push(this.graph(), this.summary());
    }
    clear(this.root, parts);
    this.markMoves();
  }

  /** The evaluation graph: an SVG polyline over the plies, from the first player's view. */
  graph() {
    const plies = this.data.plies;
    const first = this.page.firstMovesAtStart();
    const n = Math.max(1, this.data.total - 1);
    const x = (i) => (i * GRAPH_W) / n;
    const y = (p) => {
      // the score is the side to move's; the first player moves at even plies when it moves first
      const own = (p.ply % 2 === 0) === first;
      const c = chances(p.score) * (own ? 1 : -1);
      return GRAPH_H / 2 - (c * GRAPH_H) / 2;
    };
    const pts = plies.map((p) => `${x(p.ply).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
    const kinds = this.kinds();
    return svg('svg', { class: 'eval-graph', id: 'eval-graph', viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, role: 'img',
      'aria-label': t('gameAnalysis.graph') },
    svg('line', { class: 'eval-mid', x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2 }),
    svg('polyline', { class: 'eval-line', points: pts }),
    plies.map((p) => svg('circle', { class: 'eval-point' + (kinds.has(p.ply) ? ' ' + kinds.get(p.ply) : ''),
      'data-graph-ply': p.ply, cx: x(p.ply), cy: y(p), r: kinds.has(p.ply) ? 6 : 3.5 })));
  }

  /** The counts of inaccuracies, mistakes and blunders per side. */
  summary() {
    const first = this.page.firstMovesAtStart();
    const counts = { first: {}, second: {} };
    for (const [ply, kind] of this.kinds()) {
      // the move of ply i was made by the side to move at ply i-1
      const side = ((ply - 1) % 2 === 0) === first ? 'first' : 'second';
      counts[side][kind] = (counts[side][kind] || 0) + 1;
    }
    return h('table', { class: 'analysis-summary' },
      h('tbody', null, ['first', 'second'].map((side) => h('tr', { 'data-side': side },
        h('th', null, this.page.sideName(side)),
        KINDS.map(([kind]) => h('td', { 'data-kind': kind }, t('gameAnalysis.' + kind, { n: counts[side][kind] || 0 })))))));
  }

  /** Marks the move list's moves by kind (classes on the move buttons, a title naming the kind). */
  markMoves() {
    const kinds = this.kinds();
    for (const b of this.page.root.querySelectorAll('.move-list [data-ply]')) {
      const ply = Number(b.dataset.ply);
      for (const [kind] of KINDS) b.classList.toggle(kind, kinds.get(ply) === kind);
      if (kinds.has(ply)) b.title = t('gameAnalysis.kind.' + kinds.get(ply));
      else b.removeAttribute('title');
    }
  }

  /** The best move at a ply (for the board's arrow), or null. */
  bestAt(ply) {
    const p = this.data && this.data.plies[ply];
    return p && p.best ? p.best : null;
  }
}
