// Piece drawings as SVG markup in a 100x100 box: kanji (shogi family), "international" move diagrams
// generated from the rule set's move data, and chess figures (Unicode glyphs styled) for chess and Shodo.
// Everything is built as SVG elements (js/dom.js), never as markup.

import { svg } from './dom.js';
import { t, pieceName } from './i18n.js';

/**
 * A piece's name in the page's language. A rule set with a translation family (its pieceNames: shogi's 歩兵,
 * 角行...) and languages that do not name pieces by their kanji use the translations (i18n piece.NAME); in a
 * language whose translations say so (ja.json: piece.byKanji = true) the other rule sets' pieces are called by the
 * kanji their definition gives, and a promoted piece that takes another piece's name says which piece it was
 * (隠狐（成走兎）).
 * p: the piece's entry of GET /api/variants/{id}; v: that answer.
 */
export function localPieceName(p, v) {
  if (v.pieceNames || !p.kanji || t('piece.byKanji') !== 'true') return pieceName(p.name, v.pieceNames);
  const base = p.promoted ? v.pieces.find((q) => q.letter === p.letter.slice(1)) : null;
  const same = base && base.kanji && v.pieces.some((q) => !q.promoted && q.kanji && q.kanji.name === p.kanji.name);
  return same ? p.kanji.name + '（成' + base.kanji.name + '）' : p.kanji.name;
}

/** Chess figures (the filled glyphs, coloured by side; U+FE0E asks for text presentation). */
const CHESS_GLYPH = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };

/**
 * The kanji drawn on a piece, from its entry of GET /api/variants/{id} (the rule set's definition): one or two
 * characters, the second player's own name where the rule set has one (王 for the shogi king); the letter when the
 * rule set gives no kanji; with the one-kanji set ('kanji-single', for small screens), the piece's single character.
 */
export function kanjiOf(info, letter, side, set) {
  const k = info && info.kanji;
  if (!k) return letter.replace('+', '');
  if (set === 'kanji-single' && k.single) return k.single;
  return (side === 'second' && k.second) || k.board || k.name;
}

/** The pentagon of a shogi piece, pointing up; smaller for pawns. */
function pentagon(small) {
  const s = small ? 0.86 : 1;
  const pts = [[50, 6], [82, 22], [90, 94], [10, 94], [18, 22]]
    .map(([x, y]) => [50 + (x - 50) * s, 94 - (94 - y) * s].map((v) => v.toFixed(1)).join(','));
  return svg('polygon', { class: 'pc-body', points: pts.join(' ') });
}

const f1 = (v) => v.toFixed(1);

/** The move diagram of a piece (arrows for slides, dots for steps, rings for jumps) around (cx, cy): SVG elements. */
export function moveDiagram(moves, cx, cy, unit, maxReach) {
  const out = [];
  for (const m of moves || []) {
    const len = Math.hypot(m.dx, m.dy);
    const ux = m.dx / len;
    const uy = -m.dy / len;
    const cls = 'mv mv-' + m.mode + (m.initial ? ' mv-initial' : '');
    if (m.range === 0) {
      const r = maxReach;
      const x2 = cx + ux * r;
      const y2 = cy + uy * r;
      const x1 = cx + ux * unit * 0.45;
      const y1 = cy + uy * unit * 0.45;
      const hx = -uy;
      const hy = ux;
      const ah = unit * 0.42;
      out.push(svg('line', { class: cls + ' mv-slide', x1: f1(x1), y1: f1(y1), x2: f1(x2 - ux * ah * 0.6), y2: f1(y2 - uy * ah * 0.6) }));
      out.push(svg('polygon', { class: cls + ' mv-head',
        points: `${f1(x2)},${f1(y2)} ${f1(x2 - ux * ah + hx * ah * 0.55)},${f1(y2 - uy * ah + hy * ah * 0.55)} ${f1(x2 - ux * ah - hx * ah * 0.55)},${f1(y2 - uy * ah - hy * ah * 0.55)}` }));
    } else {
      const steps = m.range;
      const reach = Math.max(Math.abs(m.dx), Math.abs(m.dy)) * steps;
      const k = Math.min(unit, (maxReach * 0.8) / reach);
      for (let i = 1; i <= steps; i++) {
        const x = cx + m.dx * k * i;
        const y = cy - m.dy * k * i;
        const r = unit * 0.2;
        if (m.jump) {
          const d = r * 1.6;
          out.push(svg('polygon', { class: cls + ' mv-jump', points: `${f1(x)},${f1(y - d)} ${f1(x + d)},${f1(y)} ${f1(x)},${f1(y + d)} ${f1(x - d)},${f1(y)}` }));
        } else {
          out.push(svg('circle', { class: cls + ' mv-step', cx: f1(x), cy: f1(y), r: f1(r) }));
        }
        if (i < steps) {
          out.push(svg('line', { class: cls + ' mv-link', x1: f1(x), y1: f1(y), x2: f1(x + m.dx * k), y2: f1(y - m.dy * k) }));
        }
      }
    }
  }
  return out;
}

/**
 * The SVG group (100x100 box) of one piece.
 * opts: {family: 'chess'|'shogi', set: 'kanji'|'international', letter, side, rotate, info}
 * info is the piece's entry of GET /api/variants/{id}: its moves (the international set) and its kanji.
 */
export function pieceGroup(opts) {
  const { family, set, letter, side, rotate, info } = opts;
  const promoted = letter.startsWith('+');
  if (family === 'chess') {
    const g = CHESS_GLYPH[letter.replace('+', '')] || letter;
    return svg('g', { class: `piece chess ${side}`, 'data-letter': letter },
      svg('text', { x: 50, y: 54, class: 'chess-glyph' }, g + '\uFE0E'));
  }
  const small = letter.replace('+', '') === 'P';
  const inner = [pentagon(small)];
  const pro = promoted ? ' promoted' : '';
  if (set === 'international') {
    inner.push(svg('g', { class: 'diagram' + pro }, moveDiagram(info ? info.moves : [], 50, 58, 17, 38)));
    inner.push(svg('text', { x: 50, y: 64, class: 'intl-letter' + pro }, letter.replace('+', '')));
  } else {
    const k = kanjiOf(info, letter, side, set);
    if (k.length === 1) {
      inner.push(svg('text', { x: 50, y: 62, class: 'kanji k1' + pro }, k));
    } else {
      const cls = `kanji k2${small ? ' small' : ''}${pro}`;
      inner.push(svg('text', { x: 50, y: small ? 59 : 53, class: cls }, k[0]));
      inner.push(svg('text', { x: 50, y: small ? 90 : 90, class: cls }, k[1]));
    }
  }
  return svg('g', { class: `piece shogi ${side}${pro}`, 'data-letter': letter, transform: rotate ? 'rotate(180 50 50)' : null }, inner);
}

/** A standalone <svg> element of one piece (hands, dialogs, rules page). */
export function pieceSvg(opts, size = 44) {
  return svg('svg', { class: 'piece-svg', viewBox: '0 0 100 100', width: size, height: size }, pieceGroup(opts));
}
