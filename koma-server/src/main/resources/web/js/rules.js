// The rules page of one rule set: board facts and every piece (promoted too) with its moves drawn on a
// small board from the diagram data of GET /api/variants/{id}.

import { variantInfo } from './api.js';
import { t } from './i18n.js';
import { moveDiagram, pieceGroup, pieceSvg, localPieceName } from './pieces.js';
import { h, svg, clear } from './dom.js';

const CELL = 24;

/** How far the diagrams of a rule set reach: the longest limited move, slides drawn 4 squares, 2 to 5. */
export function diagramReach(pieces) {
  let reach = 2;
  for (const p of pieces) {
    for (const m of p.moves) {
      reach = Math.max(reach, m.range === 0 ? 4 : Math.max(Math.abs(m.dx), Math.abs(m.dy)) * m.range);
    }
  }
  return Math.min(reach, 5);
}

/** A small board (odd size) with the piece (an SVG group, 100x100) in the centre and its moves as arrows, dots and rings. */
export function diagramSvg(piece, pieceNode, reach) {
  const n = 2 * reach + 1;
  const size = n * CELL;
  const c = Math.floor(n / 2);
  const root = svg('svg', { class: 'rules-diagram', viewBox: `0 0 ${size} ${size}`, width: size, height: size, 'data-piece': piece.letter });
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) root.appendChild(svg('rect', { class: 'dsq', x: i * CELL, y: j * CELL, width: CELL, height: CELL }));
  }
  const cx = c * CELL + CELL / 2;
  root.appendChild(svg('g', { class: 'diagram' + (piece.promoted ? ' promoted' : '') }, moveDiagram(piece.moves, cx, cx, CELL, c * CELL + CELL * 0.3)));
  root.appendChild(svg('svg', { x: c * CELL, y: c * CELL, width: CELL, height: CELL, viewBox: '0 0 100 100' }, pieceNode));
  return root;
}

/** A legend icon: an 18 px SVG with the given diagram marks. */
function icon(...marks) {
  return svg('svg', { class: 'lg', viewBox: '0 0 20 20', width: 18, height: 18 }, svg('g', { class: 'diagram' }, marks));
}

/** The rules page. */
export class RulesPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.render();
  }

  async render() {
    clear(this.root, h('p', { class: 'loading' }, t('common.loading')));
    let v;
    try {
      v = await variantInfo(this.id);
    } catch (e) {
      clear(this.root, h('p', { class: 'error' }, t('error.noVariant', { id: this.id }) + ': ' + e.message));
      return;
    }
    this.v = v;
    const family = v.family;
    const reach = diagramReach(v.pieces);
    const byLetter = new Map(v.pieces.map((p) => [p.letter, p]));
    const dot = (cls, r = 4) => icon(svg('circle', { class: 'mv ' + cls, cx: 10, cy: 10, r }));
    const legend = [
      [icon(svg('line', { class: 'mv mv-both mv-slide', x1: 1, y1: 10, x2: 13, y2: 10 }),
        svg('polygon', { class: 'mv mv-both mv-head', points: '19,10 12,5.5 12,14.5' })), 'rules.legend.slide'],
      [dot('mv-both mv-step'), 'rules.legend.step'],
      [icon(svg('polygon', { class: 'mv mv-both mv-jump', points: '10,3 17,10 10,17 3,10' })), 'rules.legend.jump'],
      [dot('mv-move mv-step'), 'rules.legend.moveOnly'], [dot('mv-capture mv-step'), 'rules.legend.captureOnly'],
      [dot('mv-move mv-step mv-initial'), 'rules.legend.initial'],
    ].flatMap(([i, k], n) => [n ? ' ' : null, h('span', { class: 'lg-item' }, i, ' ' + t(k))]);
    const cards = v.pieces.map((p) => {
      const optsK = { family, set: 'kanji', letter: p.letter, side: 'first', rotate: false, info: p };
      const optsI = { ...optsK, set: 'international' };
      const promos = (Array.isArray(p.promotesTo) ? p.promotesTo : p.promotesTo ? [p.promotesTo] : [])
        .map((l) => byLetter.get(l) || byLetter.get(l.toUpperCase())).filter(Boolean);
      return h('article', { class: 'piece-card' + (p.promoted ? ' promoted' : ''), 'data-letter': p.letter },
        h('h2', null, localPieceName(p, v) + ' ', h('span', { class: 'letter' }, p.letter)),
        h('div', { class: 'card-body' }, diagramSvg(p, pieceGroup(optsK), reach),
          h('div', { class: 'card-side' }, pieceSvg(optsK, 54), v.pieceSets.includes('international') ? pieceSvg(optsI, 54) : null,
            h('details', { class: 'betza' }, h('summary', { title: t('rules.betzaTitle') }, 'Betza'), h('code', null, p.betza)),
            promos.length ? h('div', { class: 'promotes' }, t('rules.promotesTo', { name: promos.map((q) => localPieceName(q, v)).join(', ') })) : null,
            p.royal ? h('div', { class: 'royal' }, t('rules.royal')) : null)));
    });
    clear(this.root, h('section', { class: 'rules-page', 'data-variant': v.id },
      h('h1', null, t('variant.' + v.id)),
      h('p', { class: 'rules-summary' }, t('rules.board', { files: v.files, ranks: v.ranks }) + ' '
        + (v.drops ? t('rules.drops.yes') : t('rules.drops.no')) + ' ' + t('rules.text.' + v.id)),
      this.ruleList(v, family),
      h('p', { class: 'legend' }, legend),
      h('div', { class: 'piece-cards' }, cards)));
  }

  /**
   * The rules the rule set's data states beyond the moves: pieces that must promote on the last ranks, nifu and
   * uchifuzume for drops, and the impasse count (GET /api/variants/{id}: pieces[].forcedRanks, dropOneFile,
   * dropNoMate; claims.impasse). Null when there are none.
   */
  ruleList(v, family) {
    const items = [];
    for (const p of v.pieces) {
      const name = localPieceName(p, v);
      if (p.forcedRanks > 0) {
        const key = (v.drops ? 'rules.forcedDrop' : 'rules.forced') + (p.forcedRanks === 1 ? '1' : '');
        items.push(['forced', t(key, { name, n: p.forcedRanks })]);
      }
      if (p.dropOneFile) items.push(['nifu', t('rules.nifu', { name })]);
      if (p.dropNoMate) items.push(['uchifuzume', t('rules.uchifuzume', { name })]);
    }
    if (v.claims && v.claims.impasse) items.push(['impasse', t('rules.impasse')]);
    if (!items.length) return null;
    return h('ul', { class: 'rules-list' }, items.map(([k, text]) => h('li', { 'data-rule': k }, text)));
  }

  relabel() {
    this.render();
  }
}
