// The SVG board: squares, coordinates, pieces, hands, highlights, and move input (click-click, drag and
// drop, drops from hand by click or drag) against the game's legalMoves; a promotion choice when a move has
// variants; one premove while the other side is to move (any destination: its legality is known only on the turn).
// Built with DOM calls (js/dom.js), never from markup.

import { pieceGroup, pieceSvg, localPieceName } from './pieces.js';
import { h, svg, clear } from './dom.js';
import { squareName, squareIndex, parseMove } from './fen.js';
import { t } from './i18n.js';

const SQ = 100;
const MARGIN = 34;
const KANJI_NUM = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一'];

/** Board view of one rule set; call setState() with the position and options, it redraws. */
export class BoardView {
  /**
   * root: element to draw in; variant: GET /api/variants/{id} answer; family: 'chess' | 'shogi';
   * onMove(moveString): called with a legal move chosen by the user; onPremove(premove or null): told when the
   * premove is set or cancelled by the user.
   */
  constructor(root, variant, family, onMove, onPremove = () => {}) {
    this.root = root;
    this.variant = variant;
    this.family = family;
    this.onMove = onMove;
    this.onPremove = onPremove;
    /** The premove: {from, to} or {drop: true, piece, to}; null when none. */
    this.premove = null;
    this.files = variant.files;
    this.ranks = variant.ranks;
    this.info = new Map((variant.pieces || []).map((p) => [p.letter, p]));
    this.state = { board: new Map(), hands: { first: {}, second: {} }, legalMoves: [], interactive: false };
    this.opts = { flipped: false, pieceSet: 'kanji', coords: family === 'shogi' ? 'shogi' : 'chess', kanjiNumerals: false };
    this.selected = null;
    this.drag = null;
    root.classList.add('board-wrap', family === 'shogi' ? 'family-shogi' : 'family-chess');
    this.handTop = h('div', { class: 'hand hand-top' });
    this.box = h('div', { class: 'board-box' });
    this.handBottom = h('div', { class: 'hand hand-bottom' });
    this.promoLayer = h('div', { class: 'promo-layer' });
    clear(root, this.handTop, this.box, this.handBottom, this.promoLayer);
    this.box.addEventListener('pointerdown', (e) => this.pointerDown(e));
    window.addEventListener('pointermove', this.moveListener = (e) => this.pointerMove(e));
    window.addEventListener('pointerup', this.upListener = (e) => this.pointerUp(e));
    root.addEventListener('click', (e) => this.handClick(e));
    root.addEventListener('pointerdown', (e) => this.handPointerDown(e));
  }

  destroy() {
    window.removeEventListener('pointermove', this.moveListener);
    window.removeEventListener('pointerup', this.upListener);
  }

  /**
   * state: {board: Map, hands, legalMoves, lastMove, checkSquare, interactive, sideToMove, premoveSide}; premoveSide
   * is the page's own side while the other is to move (a premove may be set), else null (any premove is dropped).
   */
  setState(state) {
    this.state = { ...this.state, ...state };
    if (!this.state.premoveSide && !this.state.interactive) this.premove = null; // over, or an old ply shown
    if (!this.state.interactive && !this.state.premoveSide) this.selected = null;
    this.closePromotion();
    this.render();
  }

  setOptions(opts) {
    this.opts = { ...this.opts, ...opts };
    this.render();
  }

  /** Screen position (file column, row from the top) of a square. */
  cell(sq) {
    const [f, r] = squareIndex(sq);
    return this.opts.flipped ? [this.files - 1 - f, r] : [f, this.ranks - 1 - r];
  }

  pieceOpts(letter, side) {
    const rotate = this.family === 'shogi' && ((side === 'second') !== this.opts.flipped);
    return {
      family: this.family, set: this.opts.pieceSet, letter, side, rotate,
      info: this.info.get(letter),
    };
  }

  /** The legal moves starting from a square or dropping a hand piece, grouped by destination. */
  movesFrom(sel) {
    const byDest = new Map();
    for (const m of this.state.legalMoves || []) {
      const p = parseMove(m);
      if (!p) continue;
      const match = sel.drop ? (p.drop && p.piece === sel.piece) : (!p.drop && p.from === sel.square);
      if (!match) continue;
      if (!byDest.has(p.to)) byDest.set(p.to, []);
      byDest.get(p.to).push(m);
    }
    return byDest;
  }

  render() {
    const W = this.files * SQ + 2 * MARGIN;
    const H = this.ranks * SQ + 2 * MARGIN;
    const { board, lastMove, checkSquare } = this.state;
    const light = this.family === 'chess';
    const root = svg('svg', { class: 'board', viewBox: `0 0 ${W} ${H}`, 'data-files': this.files, 'data-ranks': this.ranks },
      svg('rect', { class: 'board-bg', x: 0, y: 0, width: W, height: H }));
    const lm = lastMove ? parseMove(lastMove) : null;
    const dests = this.selected ? this.movesFrom(this.selected) : new Map();
    for (let f = 0; f < this.files; f++) {
      for (let r = 0; r < this.ranks; r++) {
        const sq = squareName(f, r);
        const [c, row] = this.cell(sq);
        let cls = 'sq';
        if (light) cls += (f + r) % 2 === 0 ? ' dark' : ' light';
        if (lm && (lm.to === sq || lm.from === sq)) cls += ' last';
        if (this.selected && this.selected.square === sq) cls += ' selected';
        if (this.premove && (this.premove.to === sq || this.premove.from === sq)) cls += ' premove';
        if (checkSquare === sq) cls += ' check';
        root.appendChild(svg('rect', { class: cls, 'data-square': sq, x: MARGIN + c * SQ, y: MARGIN + row * SQ, width: SQ, height: SQ }));
      }
    }
    if (this.family === 'shogi') root.append(...this.gridLines());
    root.append(...this.coordLabels());
    for (const [sq, p] of board) {
      if (this.drag && this.drag.moved && !this.drag.drop && this.drag.square === sq) continue;
      const [c, row] = this.cell(sq);
      root.appendChild(svg('g', { class: 'pc', 'data-on': sq, 'data-side': p.side, 'data-piece': p.piece,
        transform: `translate(${MARGIN + c * SQ} ${MARGIN + row * SQ})` }, pieceGroup(this.pieceOpts(p.piece, p.side))));
    }
    for (const [sq] of dests) {
      const [c, row] = this.cell(sq);
      const cx = MARGIN + c * SQ + SQ / 2;
      const cy = MARGIN + row * SQ + SQ / 2;
      root.appendChild(board.has(sq)
        ? svg('circle', { class: 'dest capture', 'data-dest': sq, cx, cy, r: SQ * 0.46 })
        : svg('circle', { class: 'dest', 'data-dest': sq, cx, cy, r: SQ * 0.15 }));
    }
    if (this.arrows && this.arrows.length) root.append(...this.arrowNodes());
    if (this.drag && this.drag.moved) {
      const p = this.drag.drop ? { piece: this.drag.piece, side: this.drag.side } : board.get(this.drag.square);
      if (p) {
        root.appendChild(svg('g', { class: 'pc dragging', transform: `translate(${this.drag.x - SQ / 2} ${this.drag.y - SQ / 2})` },
          pieceGroup(this.pieceOpts(p.piece, p.side))));
      }
    }
    clear(this.box, root);
    this.svg = root;
    this.renderHands();
  }

  /** Arrows over the board (the analysis board's engine lines): [{move, rank}], rank 0 the strongest. */
  setArrows(list) {
    this.arrows = list || [];
    this.render();
  }

  /** The arrows' SVG: a line with a head from square to square, a ring on the square of a drop. */
  arrowNodes() {
    const centre = (sq) => {
      const [c, row] = this.cell(sq);
      return [MARGIN + c * SQ + SQ / 2, MARGIN + row * SQ + SQ / 2];
    };
    const out = [svg('defs', null, svg('marker', { id: 'koma-arrowhead', viewBox: '0 0 10 10', refX: 5, refY: 5,
      markerWidth: 3, markerHeight: 3, orient: 'auto' }, svg('path', { class: 'arrowhead', d: 'M 0 0 L 10 5 L 0 10 z' })))];
    for (const a of this.arrows) {
      const p = parseMove(a.move);
      if (!p) continue;
      const [tx, ty] = centre(p.to);
      const cls = `arrow arrow-${Math.min(a.rank, 2)}`;
      if (p.drop) {
        out.push(svg('circle', { class: cls, 'data-arrow': a.move, cx: tx, cy: ty, r: SQ * 0.4 }));
        continue;
      }
      const [fx, fy] = centre(p.from);
      // the line stops short so that the head's tip lands near the centre of the square
      const len = Math.hypot(tx - fx, ty - fy) || 1;
      const back = SQ * 0.28;
      out.push(svg('line', { class: cls, 'data-arrow': a.move, x1: fx, y1: fy, x2: tx - (tx - fx) * back / len,
        y2: ty - (ty - fy) * back / len, 'marker-end': 'url(#koma-arrowhead)' }));
    }
    return out;
  }

  /** Shogi-style board: lines between the squares, and the four star points on 9x9. */
  gridLines() {
    const out = [];
    const W = this.files * SQ;
    const H = this.ranks * SQ;
    for (let i = 0; i <= this.files; i++) out.push(svg('line', { class: 'grid', x1: MARGIN + i * SQ, y1: MARGIN, x2: MARGIN + i * SQ, y2: MARGIN + H }));
    for (let i = 0; i <= this.ranks; i++) out.push(svg('line', { class: 'grid', x1: MARGIN, y1: MARGIN + i * SQ, x2: MARGIN + W, y2: MARGIN + i * SQ }));
    if (this.files === 9) {
      for (const [a, b] of [[3, 3], [6, 3], [3, 6], [6, 6]]) out.push(svg('circle', { class: 'hoshi', cx: MARGIN + a * SQ, cy: MARGIN + b * SQ, r: 5 }));
    }
    return out;
  }

  /** Chess style: files a.. under the board, ranks 1.. at its left; shogi style: files 11..1 above, ranks a.. (or 一..) at the right. */
  coordLabels() {
    const out = [];
    const W = this.files * SQ;
    const H = this.ranks * SQ;
    const shogi = this.opts.coords === 'shogi';
    for (let f = 0; f < this.files; f++) {
      const [c] = this.cell(squareName(f, 0));
      const x = MARGIN + c * SQ + SQ / 2;
      const label = shogi ? String(this.files - f) : String.fromCharCode(97 + f);
      const y = shogi ? MARGIN - 9 : MARGIN + H + 25;
      out.push(svg('text', { class: 'coord coord-file', x, y }, label));
    }
    for (let r = 0; r < this.ranks; r++) {
      const [, row] = this.cell(squareName(0, r));
      const y = MARGIN + row * SQ + SQ / 2 + 8;
      const idx = this.ranks - 1 - r;
      const label = shogi ? (this.opts.kanjiNumerals ? KANJI_NUM[idx] : String.fromCharCode(97 + idx)) : String(r + 1);
      const x = shogi ? MARGIN + W + MARGIN / 2 : MARGIN / 2;
      out.push(svg('text', { class: `coord coord-rank${shogi && this.opts.kanjiNumerals && idx === 10 ? ' narrow' : ''}`, x, y }, label));
    }
    return out;
  }

  renderHands() {
    if (!this.variant.drops) {
      this.handTop.hidden = true;
      this.handBottom.hidden = true;
      return;
    }
    const bottom = this.opts.flipped ? 'second' : 'first';
    const top = bottom === 'first' ? 'second' : 'first';
    clear(this.handTop, this.handNodes(top));
    clear(this.handBottom, this.handNodes(bottom));
    this.handTop.dataset.side = top;
    this.handBottom.dataset.side = bottom;
  }

  /** The label and the pieces in one side's hand (buttons, enabled when that side may drop now). */
  handNodes(side) {
    const hand = (this.state.hands && this.state.hands[side]) || {};
    const order = (this.variant.pieces || []).filter((p) => !p.promoted && !p.royal).map((p) => p.letter);
    const letters = Object.keys(hand).filter((l) => hand[l] > 0)
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const canDrop = (this.state.interactive && this.state.sideToMove === side) || this.state.premoveSide === side;
    const out = [h('span', { class: 'hand-label' }, t(side === 'first' ? 'side.first.shogi' : 'side.second.shogi'))];
    if (!letters.length) out.push(h('span', { class: 'hand-empty' }, t('hand.empty')));
    for (const l of letters) {
      const sel = this.selected && this.selected.drop && this.selected.piece === l && canDrop;
      const info = this.info.get(l);
      out.push(h('button', { type: 'button', class: 'hand-piece' + (sel ? ' selected' : ''), 'data-hand': l, 'data-side': side,
        disabled: !canDrop, title: info ? localPieceName(info, this.variant) : l },
      pieceSvg(this.pieceOpts(l, side), 46), h('span', { class: 'count' }, hand[l])));
    }
    return out;
  }

  handClick(e) {
    const b = e.target.closest('[data-hand]');
    if (!b || b.disabled) return;
    if (this.handDragged) { this.handDragged = false; return; }
    const l = b.dataset.hand;
    this.selected = (this.selected && this.selected.drop && this.selected.piece === l) ? null : { drop: true, piece: l };
    this.render();
  }

  /** Board coordinates of a pointer event, in viewBox units. */
  svgPoint(e) {
    const r = this.svg.getBoundingClientRect();
    const vb = this.svg.viewBox.baseVal;
    return [(e.clientX - r.left) * vb.width / r.width, (e.clientY - r.top) * vb.height / r.height];
  }

  squareAt(x, y) {
    const c = Math.floor((x - MARGIN) / SQ);
    const row = Math.floor((y - MARGIN) / SQ);
    if (c < 0 || row < 0 || c >= this.files || row >= this.ranks) return null;
    return this.opts.flipped ? squareName(this.files - 1 - c, row) : squareName(c, this.ranks - 1 - row);
  }

  /** A press on a piece in hand: the start of a drag to the board (without moving, the click selects it). */
  handPointerDown(e) {
    const b = e.target.closest('[data-hand]');
    if (!b || b.disabled || !this.svg || e.button > 0) return;
    const [x, y] = this.svgPoint(e);
    this.handDragged = false;
    this.drag = { drop: true, piece: b.dataset.hand, side: b.dataset.side, startX: x, startY: y, x, y, moved: false };
  }

  pointerDown(e) {
    if (!this.svg || e.button > 0) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (!sq) return;
    if (!this.state.interactive && this.state.premoveSide) {
      this.premoveDown(e, sq, x, y);
      return;
    }
    if (this.selected) {
      const dests = this.movesFrom(this.selected);
      if (dests.has(sq)) {
        e.preventDefault();
        this.choose(dests.get(sq));
        return;
      }
    }
    const p = this.state.board.get(sq);
    if (this.state.interactive && p && p.side === this.state.sideToMove && this.movesFrom({ square: sq }).size) {
      e.preventDefault();
      const again = this.selected && this.selected.square === sq;
      this.selected = { square: sq };
      this.drag = { square: sq, startX: x, startY: y, x, y, moved: false, again };
      this.render();
    } else if (this.selected) {
      this.selected = null;
      this.render();
    }
  }

  pointerMove(e) {
    if (!this.drag) return;
    const [x, y] = this.svgPoint(e);
    if (!this.drag.moved && Math.hypot(x - this.drag.startX, y - this.drag.startY) < SQ * 0.2) return;
    this.drag.x = x;
    this.drag.y = y;
    this.drag.moved = true;
    this.render();
  }

  pointerUp(e) {
    if (!this.drag) return;
    const d = this.drag;
    this.drag = null;
    if (!d.moved) {
      if (d.again) this.selected = null;
      if (!d.drop) this.render();
      return;
    }
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (d.drop) this.handDragged = true;
    if (!this.state.interactive && this.state.premoveSide) {
      if (sq && (d.drop ? !this.state.board.has(sq) : sq !== d.square)) {
        this.setPremove(d.drop ? { drop: true, piece: d.piece, to: sq } : { from: d.square, to: sq });
      } else {
        this.render();
      }
      return;
    }
    const dests = this.movesFrom(d.drop ? { drop: true, piece: d.piece } : { square: d.square });
    if (sq && dests.has(sq)) {
      this.choose(dests.get(sq));
    } else {
      this.render();
    }
  }

  /**
   * A press while the other side is to move: a piece of the premove side selects it (a second press on it lets
   * go), then another square sets the premove; a press elsewhere cancels the premove.
   */
  premoveDown(e, sq, x, y) {
    const side = this.state.premoveSide;
    const p = this.state.board.get(sq);
    if (this.selected && (this.selected.drop ? !p : sq !== this.selected.square)) {
      e.preventDefault();
      this.setPremove(this.selected.drop ? { drop: true, piece: this.selected.piece, to: sq }
        : { from: this.selected.square, to: sq });
      return;
    }
    if (p && p.side === side) {
      e.preventDefault();
      const again = !!this.selected && this.selected.square === sq;
      this.selected = { square: sq };
      this.drag = { square: sq, startX: x, startY: y, x, y, moved: false, again };
      this.render();
      return;
    }
    this.selected = null;
    if (this.premove) this.setPremove(null);
    else this.render();
  }

  setPremove(pm) {
    this.premove = pm;
    this.selected = null;
    this.render();
    this.onPremove(pm);
  }

  /**
   * On the page's turn: the legal move the premove stands for (with a promotion choice, the promotion: the queen in
   * chess, promoting in the shogi family, as lichess and lishogi premove), or null when it is not legal now. The
   * premove is gone either way.
   */
  takePremove() {
    const pm = this.premove;
    this.premove = null;
    if (!pm) return null;
    const rank = (m) => { const suf = parseMove(m).suffix; return suf === '+' || suf === 'q' ? 2 : suf ? 1 : 0; };
    const candidates = (this.state.legalMoves || []).filter((m) => {
      const p = parseMove(m);
      return p && p.to === pm.to && (pm.drop ? p.drop && p.piece === pm.piece : !p.drop && p.from === pm.from);
    }).sort((a, b) => rank(b) - rank(a));
    return candidates.length ? candidates[0] : null;
  }

  /** One candidate: play it; several (promotion variants): ask. */
  choose(candidates) {
    if (candidates.length === 1) {
      this.play(candidates[0]);
      return;
    }
    this.askPromotion(candidates);
  }

  play(move) {
    this.selected = null;
    this.closePromotion();
    this.render();
    this.onMove(move);
  }

  askPromotion(candidates) {
    const p = parseMove(candidates[0]);
    const piece = p.drop ? null : this.state.board.get(p.from);
    const side = piece ? piece.side : this.state.sideToMove;
    const sorted = [...candidates].sort((a, b) => parseMove(b).suffix.length - parseMove(a).suffix.length);
    const options = sorted.map((m) => {
      const suf = parseMove(m).suffix;
      let letter;
      if (suf === '+') letter = '+' + piece.piece;
      else if (suf) letter = suf.toUpperCase();
      else letter = piece.piece;
      // a choice of piece (the chess pawn) is named by the piece; shogi's '+' by promoting or not
      const info = suf && suf !== '+' ? this.info.get(letter) : null;
      let label;
      if (info) label = localPieceName(info, this.variant);
      else label = suf ? t('promo.promote') : t('promo.keep');
      return h('button', { type: 'button', class: 'promo-option', 'data-promo': suf || '=', 'data-move': m, title: label,
        'aria-label': label, onclick: () => this.play(m) }, pieceSvg(this.pieceOpts(letter, side), 64), h('span', null, label));
    });
    const cancel = () => { this.closePromotion(); this.selected = null; this.render(); };
    const title = sorted.some((m) => /^[a-z]$/i.test(parseMove(m).suffix)) ? t('promo.choose') : t('promo.title');
    clear(this.promoLayer, h('div', { class: 'promo-dialog', role: 'dialog', 'aria-label': title },
      h('div', { class: 'promo-title' }, title),
      h('div', { class: 'promo-options' }, options),
      h('button', { type: 'button', class: 'promo-cancel', onclick: cancel }, t('promo.cancel'))));
  }

  closePromotion() {
    clear(this.promoLayer);
  }
}
