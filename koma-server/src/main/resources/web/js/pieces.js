// Piece drawings as SVG markup in a 100x100 box: kanji (shogi family), "international" move diagrams
// generated from the rule set's move data, and chess figures (Unicode glyphs styled) for chess and Shodo.

/** Shogi: one kanji per piece, as on printed diagrams. The first player's king is 玉, the second's 王. */
const SHOGI_KANJI = {
  K: '玉', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
  '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と',
};

/** Wa shogi: the two-kanji names of RULES.md 3.3 (front and promoted side). */
const WA_KANJI = {
  K: '鶴玉', E: '雲鷲', X: '隠狐', F: '飛鷹', S: '燕羽', R: '走兎', W: '猛狼', V: '猛鹿', G: '鳫飛',
  C: '鶏飛', U: '烏行', L: '鴟行', D: '盲犬', M: '登猿', H: '風馬', O: '牛車', P: '萑歩',
  '+F': '鷙鷹', '+S': '燕行', '+R': '隠狐', '+W': '熊眼', '+V': '行猪', '+G': '燕羽', '+C': '延鷹',
  '+U': '飛鷹', '+L': '雲鷲', '+D': '猛狼', '+M': '猛鹿', '+H': '天馬', '+O': '歬牛', '+P': '金鳥',
};

/** Chess figures (the filled glyphs, coloured by side; U+FE0E asks for text presentation). */
const CHESS_GLYPH = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };

export function kanjiOf(variant, letter, side) {
  if (variant === 'shogi') {
    if (letter === 'K' && side === 'second') return '王';
    return SHOGI_KANJI[letter] || letter;
  }
  return WA_KANJI[letter] || letter;
}

/** The pentagon of a shogi piece, pointing up; smaller for pawns. */
function pentagon(small) {
  const s = small ? 0.86 : 1;
  const pts = [[50, 6], [82, 22], [90, 94], [10, 94], [18, 22]]
    .map(([x, y]) => [50 + (x - 50) * s, 94 - (94 - y) * s].map((v) => v.toFixed(1)).join(','));
  return `<polygon class="pc-body" points="${pts.join(' ')}"/>`;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

/** The move diagram of a piece (arrows for slides, dots for steps, rings for jumps) around (cx, cy). */
export function moveDiagram(moves, cx, cy, unit, maxReach) {
  let out = '';
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
      out += `<line class="${cls} mv-slide" x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${(x2 - ux * ah * 0.6).toFixed(1)}" y2="${(y2 - uy * ah * 0.6).toFixed(1)}"/>`;
      out += `<polygon class="${cls} mv-head" points="${x2.toFixed(1)},${y2.toFixed(1)} ${(x2 - ux * ah + hx * ah * 0.55).toFixed(1)},${(y2 - uy * ah + hy * ah * 0.55).toFixed(1)} ${(x2 - ux * ah - hx * ah * 0.55).toFixed(1)},${(y2 - uy * ah - hy * ah * 0.55).toFixed(1)}"/>`;
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
          out += `<polygon class="${cls} mv-jump" points="${x.toFixed(1)},${(y - d).toFixed(1)} ${(x + d).toFixed(1)},${y.toFixed(1)} ${x.toFixed(1)},${(y + d).toFixed(1)} ${(x - d).toFixed(1)},${y.toFixed(1)}"/>`;
        } else {
          out += `<circle class="${cls} mv-step" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r.toFixed(1)}"/>`;
        }
        if (i < steps) {
          out += `<line class="${cls} mv-link" x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x + m.dx * k).toFixed(1)}" y2="${(y - m.dy * k).toFixed(1)}"/>`;
        }
      }
    }
  }
  return out;
}

/**
 * SVG markup (100x100 box) of one piece.
 * opts: {variant, family: 'chess'|'shogi', set: 'kanji'|'international', letter, side, rotate, info}
 * info is the piece's entry of GET /api/variants/{id} (its moves), needed by the international set.
 */
export function pieceMarkup(opts) {
  const { variant, family, set, letter, side, rotate, info } = opts;
  const promoted = letter.startsWith('+');
  if (family === 'chess') {
    const g = CHESS_GLYPH[letter.replace('+', '')] || letter;
    return `<g class="piece chess ${side}" data-letter="${esc(letter)}"><text x="50" y="54" class="chess-glyph">${g}\uFE0E</text></g>`;
  }
  const rot = rotate ? ' transform="rotate(180 50 50)"' : '';
  const small = letter.replace('+', '') === 'P';
  let inner = pentagon(small);
  if (set === 'international') {
    inner += `<g class="diagram${promoted ? ' promoted' : ''}">${moveDiagram(info ? info.moves : [], 50, 58, 17, 38)}</g>`;
    inner += `<text x="50" y="64" class="intl-letter${promoted ? ' promoted' : ''}">${esc(letter.replace('+', ''))}</text>`;
  } else {
    const k = kanjiOf(variant, letter, side);
    if (k.length === 1) {
      inner += `<text x="50" y="62" class="kanji k1${promoted ? ' promoted' : ''}">${esc(k)}</text>`;
    } else {
      const cls = `kanji k2${small ? ' small' : ''}${promoted ? ' promoted' : ''}`;
      inner += `<text x="50" y="${small ? 56 : 50}" class="${cls}">${esc(k[0])}</text>`;
      inner += `<text x="50" y="${small ? 86 : 84}" class="${cls}">${esc(k[1])}</text>`;
    }
  }
  return `<g class="piece shogi ${side}${promoted ? ' promoted' : ''}" data-letter="${esc(letter)}"${rot}>${inner}</g>`;
}

/** A standalone <svg> of one piece (hands, dialogs, rules page). */
export function pieceSvg(opts, size = 44) {
  return `<svg class="piece-svg" viewBox="0 0 100 100" width="${size}" height="${size}">${pieceMarkup(opts)}</svg>`;
}
