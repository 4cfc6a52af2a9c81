// FEN / SFEN reading for the board at any ply (RULES.md 9.2): placement, hands and side to move.

/** Square name ("e4", "k11") of file index f and rank index r (0-based, from the first player's side). */
export function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

/** [file, rank] indexes (0-based) of a square name. */
export function squareIndex(sq) {
  return [sq.charCodeAt(0) - 97, parseInt(sq.slice(1), 10) - 1];
}

function looksLikeSfen(fields) {
  return fields.length >= 2 && fields.length <= 4 && !fields[0].includes('[')
    && (fields.length < 3 || /^(-|(\d*[A-Za-z+])+)$/.test(fields[2]));
}

function addHand(hands, letter, n) {
  const side = letter === letter.toUpperCase() ? 'first' : 'second';
  const up = letter.toUpperCase();
  hands[side][up] = (hands[side][up] || 0) + n;
}

/**
 * Parses a FEN (or, for shogi, SFEN) into { board: Map square -> {piece, side}, hands, sideToMove }.
 * Throws an Error naming the field when the text is malformed.
 */
export function parseFen(text, files, ranks, sfenAllowed) {
  const fields = String(text).trim().split(/\s+/);
  let boardField = fields[0];
  const hands = { first: {}, second: {} };
  const sfen = sfenAllowed && looksLikeSfen(fields);
  const br = boardField.indexOf('[');
  if (br >= 0) {
    for (const ch of boardField.slice(br + 1, -1)) if (/[A-Za-z]/.test(ch)) addHand(hands, ch, 1);
    boardField = boardField.slice(0, br);
  }
  const rows = boardField.split('/');
  if (rows.length < ranks) throw new Error('FEN board: expected ' + ranks + ' ranks, got ' + rows.length);
  const board = new Map();
  for (let i = 0; i < ranks; i++) {
    const r = ranks - 1 - i;
    let f = 0;
    const row = rows[i];
    for (let j = 0; j < row.length; j++) {
      const ch = row[j];
      if (/\d/.test(ch)) {
        let n = ch;
        while (j + 1 < row.length && /\d/.test(row[j + 1])) n += row[++j];
        f += parseInt(n, 10);
      } else {
        let promoted = false;
        let c = ch;
        if (c === '+') { promoted = true; c = row[++j]; }
        if (!c || !/[A-Za-z]/.test(c)) throw new Error('FEN board: bad piece in rank ' + (r + 1));
        const side = c === c.toUpperCase() ? 'first' : 'second';
        board.set(squareName(f, r), { piece: (promoted ? '+' : '') + c.toUpperCase(), side });
        f++;
      }
    }
  }
  let sideToMove = 'first';
  if (fields[1]) sideToMove = sfen ? (fields[1] === 'b' ? 'first' : 'second') : (fields[1] === 'w' ? 'first' : 'second');
  if (sfen && fields[2] && fields[2] !== '-') {
    for (const m of fields[2].matchAll(/(\d*)([A-Za-z])/g)) addHand(hands, m[2], m[1] ? parseInt(m[1], 10) : 1);
  }
  return { board, hands, sideToMove };
}

/** Board list of the game JSON ([{square, piece, side}]) as a Map. */
export function boardFromList(list) {
  const board = new Map();
  for (const p of list || []) board.set(p.square, { piece: p.piece, side: p.side });
  return board;
}

/** Parses a move string: {drop, piece, from, to, suffix}; null when it is not a move. */
export function parseMove(m) {
  let x = /^(\+?[A-Z])@([a-p])(\d{1,2})$/.exec(m);
  if (x) return { drop: true, piece: x[1], from: null, to: x[2] + x[3], suffix: '' };
  x = /^([a-p])(\d{1,2})([a-p])(\d{1,2})(.*)$/.exec(m);
  if (x) return { drop: false, piece: null, from: x[1] + x[2], to: x[3] + x[4], suffix: x[5] };
  return null;
}
