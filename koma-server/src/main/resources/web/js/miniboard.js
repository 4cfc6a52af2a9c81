// A small picture of a position (the home page's game list): squares and pieces drawn from a FEN/SFEN and the
// rule set's data (GET /api/variants/{id}), no interaction. Built with DOM calls (js/dom.js), never from markup.

import { svg } from './dom.js';
import { parseFen, squareIndex } from './fen.js';
import { pieceGroup } from './pieces.js';

const SQ = 100;

/** An <svg> of the rule set's start position, `size` px wide, with an accessible name. */
export function miniBoard(variant, size, label) {
  const family = variant.family === 'shogi' ? 'shogi' : 'chess';
  const W = variant.files * SQ;
  const H = variant.ranks * SQ;
  const root = svg('svg', { class: `mini-board family-${family}`, viewBox: `0 0 ${W} ${H}`, width: size,
    height: Math.round(size * H / W), role: 'img', 'aria-label': label });
  const { board } = parseFen(variant.startFen, variant.files, variant.ranks, variant.sfen);
  for (let f = 0; f < variant.files; f++) {
    for (let r = 0; r < variant.ranks; r++) {
      const cls = family === 'chess' ? ((f + r) % 2 === 0 ? 'sq dark' : 'sq light') : 'sq';
      root.appendChild(svg('rect', { class: cls, x: f * SQ, y: (variant.ranks - 1 - r) * SQ, width: SQ, height: SQ }));
    }
  }
  const info = new Map((variant.pieces || []).map((p) => [p.letter, p]));
  for (const [sq, p] of board) {
    const [f, r] = squareIndex(sq);
    root.appendChild(svg('g', { transform: `translate(${f * SQ} ${(variant.ranks - 1 - r) * SQ})` },
      pieceGroup({ family, set: 'kanji', letter: p.piece, side: p.side,
        rotate: family === 'shogi' && p.side === 'second', info: info.get(p.piece) })));
  }
  return root;
}
