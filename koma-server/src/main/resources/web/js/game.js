// The game page: board, hands, clocks, move list with stepping, actions (move, resign, draw, claim,
// join), live feed over the WebSocket, analysis after the game, and record export.

import { api, variantInfo, isShogiFamily } from './api.js';
import { t } from './i18n.js';
import { BoardView } from './board.js';
import { parseFen, boardFromList } from './fen.js';

const PREFS_KEY = 'koma.prefs';

function loadPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS_KEY)) || {}; } catch (e) { return {}; }
}

function savePrefs(p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch (e) { /* not remembered */ }
}

function esc(s) {
  return String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
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
    this.game = null;
    this.viewPly = null;
    this.destroyed = false;
    this.prefs = loadPrefs();
    this.analysisOn = false;
    this.analysisSeq = 0;
    this.keyListener = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyListener);
    this.start();
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
  }

  async start() {
    this.root.innerHTML = `<p class="loading">${t('common.loading')}</p>`;
    let g;
    try {
      g = await api('GET', '/api/games/' + encodeURIComponent(this.id));
      this.variant = await variantInfo(g.variant);
    } catch (e) {
      this.root.innerHTML = `<p class="error">${t('error.noGame')}: ${esc(e.message)}</p>`;
      return;
    }
    if (this.destroyed) return;
    this.family = isShogiFamily(g.variant) ? 'shogi' : 'chess';
    this.royals = new Set(this.variant.pieces.filter((p) => p.royal).map((p) => p.letter));
    this.layout();
    this.board = new BoardView(this.root.querySelector('#board'), this.variant, this.family, (m) => this.sendMove(m));
    this.board.setOptions({
      pieceSet: this.prefs.pieceSet || 'kanji',
      coords: this.prefs['coords_' + this.family] || (this.family === 'shogi' ? 'shogi' : 'chess'),
      kanjiNumerals: !!this.prefs.kanjiNumerals,
      flipped: g.you === 'second',
    });
    this.update(g);
    this.connect();
    this.timer = setInterval(() => this.tickClocks(), 100);
    this.poll = setInterval(() => { if (!this.ws || this.ws.readyState !== 1) this.refresh(); }, 3000);
  }

  layout() {
    this.root.innerHTML = `
<section class="game-page" data-game="${esc(this.id)}">
  <div class="game-main">
    <div class="player-bar" id="bar-top"></div>
    <div id="board"></div>
    <div class="player-bar" id="bar-bottom"></div>
  </div>
  <aside class="game-side">
    <h1 class="game-title"></h1>
    <div class="status" id="status" aria-live="polite"></div>
    <div class="result" id="result" hidden></div>
    <div class="join-box" id="join-box" hidden></div>
    <p class="error" id="game-error" role="alert"></p>
    <div class="actions" id="actions"></div>
    <div class="view-controls">
      <button type="button" id="flip"></button>
      <label class="shogi-only"><span data-t="view.pieces"></span> <select id="piece-set"></select></label>
      <label><span data-t="view.coords"></span> <select id="coords"></select></label>
      <label class="shogi-only"><input type="checkbox" id="kanji-numerals"> <span data-t="view.kanjiNumerals"></span></label>
      <label class="shogi-only"><span data-t="view.notation"></span> <select id="notation"></select></label>
    </div>
    <div class="nav" id="nav">
      <button type="button" data-nav="first" aria-label="first">«</button>
      <button type="button" data-nav="prev" aria-label="previous">‹</button>
      <span id="ply-label"></span>
      <button type="button" data-nav="next" aria-label="next">›</button>
      <button type="button" data-nav="last" aria-label="last">»</button>
    </div>
    <div class="move-list" id="move-list"></div>
    <div class="analysis" id="analysis" hidden>
      <button type="button" id="analyse"></button>
      <div id="analysis-out"></div>
    </div>
    <div class="export">
      <span data-t="export.title"></span>
      <span id="export-buttons"></span>
      <a id="export-download" hidden></a>
      <textarea id="export-out" rows="5" readonly hidden></textarea>
    </div>
  </aside>
</section>`;
    const q = (s) => this.root.querySelector(s);
    q('#flip').onclick = () => this.board.setOptions({ flipped: !this.board.opts.flipped }) || this.renderBars();
    q('#piece-set').onchange = (e) => { this.prefs.pieceSet = e.target.value; this.prefsChanged(); };
    q('#coords').onchange = (e) => { this.prefs['coords_' + this.family] = e.target.value; this.prefsChanged(); };
    q('#kanji-numerals').onchange = (e) => { this.prefs.kanjiNumerals = e.target.checked; this.prefsChanged(); };
    q('#notation').onchange = (e) => { this.prefs.notation = e.target.value; this.prefsChanged(); };
    q('#nav').onclick = (e) => {
      const b = e.target.closest('[data-nav]');
      if (b) this.step(b.dataset.nav);
    };
    q('#move-list').onclick = (e) => {
      const b = e.target.closest('[data-ply]');
      if (b) this.showPly(Number(b.dataset.ply));
    };
    q('#analyse').onclick = () => { this.analysisOn = true; this.analyse(); };
    q('#export-buttons').onclick = (e) => {
      const b = e.target.closest('[data-export]');
      if (b) this.exportRecord(b.dataset.export);
    };
    q('#actions').onclick = (e) => {
      const b = e.target.closest('[data-action]');
      if (b) this.action(b.dataset.action, b);
    };
    q('#join-box').onclick = (e) => {
      if (e.target.closest('#join')) this.join();
      if (e.target.closest('#copy-link')) this.copyLink();
    };
    if (this.family !== 'shogi') for (const el of this.root.querySelectorAll('.shogi-only')) el.hidden = true;
    this.relabelStatic();
  }

  /** Texts that do not depend on the game state (redone on a language switch). */
  relabelStatic() {
    const q = (s) => this.root.querySelector(s);
    for (const el of this.root.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
    q('.game-title').textContent = t('variant.' + this.variant.id);
    q('#flip').textContent = t('view.flip');
    const opt = (v, cur, label) => `<option value="${v}"${v === cur ? ' selected' : ''}>${label}</option>`;
    q('#piece-set').innerHTML = opt('kanji', this.board ? this.board.opts.pieceSet : this.prefs.pieceSet || 'kanji', t('view.set.kanji'))
      + opt('international', this.board ? this.board.opts.pieceSet : this.prefs.pieceSet, t('view.set.international'));
    const coords = this.prefs['coords_' + this.family] || (this.family === 'shogi' ? 'shogi' : 'chess');
    q('#coords').innerHTML = opt('chess', coords, t('view.coords.chess')) + opt('shogi', coords, t('view.coords.shogi'));
    q('#kanji-numerals').checked = !!this.prefs.kanjiNumerals;
    const notation = this.prefs.notation || 'western';
    q('#notation').innerHTML = opt('western', notation, t('view.notation.western')) + opt('japanese', notation, t('view.notation.japanese'));
    q('#analyse').textContent = t('analysis.run');
    // KIF and CSA are defined for shogi only; Wa shogi records are PGN with UCI moves (README, Game records)
    const formats = this.variant.id === 'shogi' ? ['kif', 'csa', 'fen'] : ['pgn', 'fen'];
    q('#export-buttons').innerHTML = formats.map((f) => `<button type="button" data-export="${f}">${f === 'fen' ? (this.variant.id === 'shogi' ? 'SFEN' : 'FEN') : f.toUpperCase()}</button>`).join(' ');
  }

  relabel() {
    if (!this.game) { this.start(); return; }
    this.relabelStatic();
    this.board.render();
    this.update(this.game);
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

  connect() {
    if (this.destroyed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.type === 'game' && msg.game) this.update(msg.game);
    };
    ws.onopen = () => { this.root.querySelector('.game-page')?.classList.remove('offline'); this.retries = 0; };
    ws.onclose = () => {
      if (this.destroyed || this.ws !== ws) return;
      this.root.querySelector('.game-page')?.classList.add('offline');
      this.retries = (this.retries || 0) + 1;
      this.reconnectTimer = setTimeout(() => this.connect(), Math.min(10000, 500 * 2 ** this.retries));
    };
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => { if (ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
  }

  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect();
  }

  /** A newer game state (from an answer or the feed); older states are ignored. */
  update(g) {
    if (this.game && g.ply < this.game.ply && g.status === this.game.status) return;
    const atEnd = this.viewPly === null || (this.game && this.viewPly >= this.game.ply);
    const prevStatus = this.game && this.game.status;
    this.game = g;
    this.receivedAt = performance.now();
    if (atEnd) this.viewPly = null;
    if (prevStatus && prevStatus !== 'finished' && g.status === 'finished') this.analysisOn = false;
    this.renderPosition();
    this.renderStatus();
    this.renderBars();
    this.renderMoves();
    this.tickClocks();
  }

  shownPly() {
    return this.viewPly === null ? this.game.ply : this.viewPly;
  }

  canMove() {
    const g = this.game;
    return g.status === 'active' && this.viewPly === null
      && (g.you === 'both' || g.you === g.sideToMove) && g.players[g.sideToMove] === 'human';
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
        ({ board, hands, sideToMove: side } = parseFen(fen, this.variant.files, this.variant.ranks, this.variant.id === 'shogi'));
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
      legalMoves: p === g.ply ? g.legalMoves : [], interactive: this.canMove(),
    });
    const label = this.root.querySelector('#ply-label');
    label.textContent = t('nav.ply', { ply: p, total: g.ply });
    label.dataset.ply = p;
    if (this.analysisOn) this.analyse();
    else this.root.querySelector('#analysis-out').innerHTML = '';
  }

  sideName(side) {
    return t('side.' + side + '.' + this.family);
  }

  playerName(side) {
    const who = this.game.players[side];
    let s;
    if (!who) s = t('player.open');
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
      const el = this.root.querySelector(id);
      el.dataset.side = side;
      const mark = this.family === 'shogi' ? (side === 'first' ? '☗' : '☖') : (side === 'first' ? '○' : '●');
      const toMove = this.game.status === 'active' && this.game.sideToMove === side;
      el.classList.toggle('to-move', toMove);
      el.innerHTML = `<span class="side-mark">${mark}</span> <span class="side-name">${this.sideName(side)}</span>`
        + ` <span class="player-name">${esc(this.playerName(side))}</span>`
        + (this.game.clock && this.game.clock.type !== 'none' ? `<span class="clock" data-clock="${side}"></span>` : '');
    }
  }

  renderStatus() {
    const g = this.game;
    const st = this.root.querySelector('#status');
    const res = this.root.querySelector('#result');
    let s;
    if (g.status === 'waiting') s = t('status.waiting');
    else if (g.status === 'finished') s = t('status.finished');
    else if (g.players[g.sideToMove] && g.players[g.sideToMove].startsWith('computer')) s = t('status.thinking');
    else s = t('status.toMove', { side: this.sideName(g.sideToMove) }) + (g.check ? ' — ' + t('status.check') : '');
    st.textContent = s;
    st.dataset.status = g.status;
    if (g.result) {
      const r = g.result;
      const who = r.winner ? t('result.wins', { side: this.sideName(r.winner) }) : t('result.draw');
      const term = t('termination.' + String(r.termination).toLowerCase().replace(/[^a-z]+/g, '_'));
      res.hidden = false;
      res.dataset.winner = r.winner || 'none';
      res.dataset.termination = r.termination;
      res.innerHTML = `<strong>${esc(r.text || '')}</strong> ${esc(who)} (${esc(term.startsWith('termination.') ? r.termination : term)})`;
    } else {
      res.hidden = true;
    }
    this.renderJoin();
    this.renderActions();
    this.root.querySelector('#analysis').hidden = g.status !== 'finished';
  }

  renderJoin() {
    const g = this.game;
    const box = this.root.querySelector('#join-box');
    let s = '';
    if (g.status === 'waiting' && !g.you && g.mode === 'friend') {
      s = `<p>${t('join.invited')}</p><button type="button" id="join" class="primary">${t('join.button')}</button>`;
    } else if (g.status === 'waiting' && g.you && g.mode === 'friend') {
      const url = location.origin + (g.joinUrl || `/game/${g.id}?join`);
      s = `<p>${t('join.share')}</p><input type="text" id="share-link" readonly value="${esc(url)}"> <button type="button" id="copy-link">${t('join.copy')}</button>`;
    } else if (!g.you && g.status !== 'waiting') {
      s = `<p class="spectating">${t('join.spectating')}</p>`;
    }
    box.innerHTML = s;
    box.hidden = !s;
  }

  renderActions() {
    const g = this.game;
    const el = this.root.querySelector('#actions');
    if (g.status !== 'active' || !g.you) { el.innerHTML = ''; return; }
    const mine = g.you === 'both' ? g.sideToMove : g.you;
    let s = `<button type="button" data-action="resign" id="resign">${t('action.resign')}</button>`;
    if (g.drawOffer && g.drawOffer !== mine && g.you !== 'both') {
      s += ` <span class="draw-offer">${t('draw.offered')}</span> <button type="button" data-action="accept" id="draw-accept">${t('action.accept')}</button>`
        + ` <button type="button" data-action="decline" id="draw-decline">${t('action.decline')}</button>`;
    } else if (g.drawOffer === mine) {
      s += ` <span class="draw-offer">${t('draw.pending')}</span>`;
    } else {
      s += ` <button type="button" data-action="offer" id="draw-offer">${t('action.offerDraw')}</button>`;
    }
    s += this.family === 'shogi'
      ? ` <button type="button" data-action="impasse" id="claim">${t('action.claimImpasse')}</button>`
      : ` <button type="button" data-action="claim" id="claim">${t('action.claimDraw')}</button>`;
    el.innerHTML = s;
  }

  renderMoves() {
    const g = this.game;
    if (!g) return;
    const notation = this.prefs.notation || 'western';
    const shown = this.shownPly();
    let s = '';
    g.moves.forEach((m, i) => {
      const ply = i + 1;
      let text;
      if (this.family === 'chess') text = m.san || m.move;
      else if (notation === 'japanese' && m.japanese) text = (this.plyIsFirst(ply) ? '▲' : '△') + m.japanese;
      else text = m.western || m.move;
      if (this.family === 'chess') {
        if (this.plyIsFirst(ply)) s += `<span class="mvno">${this.moveNumber(ply)}.</span>`;
        else if (ply === 1) s += `<span class="mvno">${this.moveNumber(ply)}…</span>`;
      } else {
        s += `<span class="mvno">${ply}.</span>`;
      }
      s += `<button type="button" class="mv${ply === shown ? ' current' : ''}" data-ply="${ply}">${esc(text)}</button>`;
    });
    const list = this.root.querySelector('#move-list');
    list.innerHTML = s || `<span class="empty">${t('moves.none')}</span>`;
    const cur = list.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  /** True when the first player moves first from the game's start position. */
  firstMovesAtStart() {
    try {
      return parseFen(this.game.initialFen, this.variant.files, this.variant.ranks, this.variant.id === 'shogi').sideToMove === 'first';
    } catch (e) {
      return true;
    }
  }

  plyIsFirst(ply) {
    return ((ply % 2 === 1) === this.firstMovesAtStart());
  }

  moveNumber(ply) {
    return Math.floor((ply - 1 + (this.firstMovesAtStart() ? 0 : 1)) / 2) + 1;
  }

  tickClocks() {
    const g = this.game;
    if (!g || !g.clock || g.clock.type === 'none') return;
    const elapsed = performance.now() - this.receivedAt;
    for (const side of ['first', 'second']) {
      const el = this.root.querySelector(`[data-clock="${side}"]`);
      const c = g.clock[side];
      if (!el || !c) continue;
      const running = g.status === 'active' && g.clock.running === side;
      let ms = c.ms - (running ? elapsed : 0);
      let inByoyomi = !!c.inByoyomi;
      if (g.clock.type === 'byoyomi' && ms < 0 && !inByoyomi && g.clock.byoyomiMs > 0 && c.periods > 0) {
        // main time ran out locally: the byoyomi period runs until the server's next word
        inByoyomi = true;
        ms = g.clock.byoyomiMs + ms;
      }
      let s = formatClock(ms);
      if (g.clock.type === 'byoyomi') {
        if (inByoyomi) s += ` ${t('clock.byoyomiShort')}`;
        if (c.periods !== undefined) s += ` (${c.periods}×)`;
      }
      el.textContent = s;
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms < 10000);
    }
  }

  showError(msg) {
    const el = this.root.querySelector('#game-error');
    if (el) el.textContent = msg;
  }

  async sendMove(move) {
    this.showError('');
    try {
      this.update(await api('POST', `/api/games/${encodeURIComponent(this.id)}/moves`, { move, ply: this.game.ply }));
    } catch (e) {
      this.showError(t('error.move', { move }) + ': ' + e.message);
      this.refresh();
    }
  }

  async refresh() {
    try {
      this.update(await api('GET', '/api/games/' + encodeURIComponent(this.id)));
    } catch (e) { /* the feed will bring the state */ }
  }

  async action(name, button) {
    const base = `/api/games/${encodeURIComponent(this.id)}/`;
    if (name === 'resign' && !button.classList.contains('confirm')) {
      button.classList.add('confirm');
      button.textContent = t('action.confirmResign');
      setTimeout(() => { if (button.isConnected) { button.classList.remove('confirm'); button.textContent = t('action.resign'); } }, 4000);
      return;
    }
    this.showError('');
    try {
      let g;
      if (name === 'resign') g = await api('POST', base + 'resign', {});
      else if (name === 'offer' || name === 'accept' || name === 'decline') g = await api('POST', base + 'draw', { action: name });
      else if (name === 'claim') g = await api('POST', base + 'claim', { kind: 'draw' });
      else if (name === 'impasse') g = await api('POST', base + 'claim', { kind: 'impasse' });
      if (g) this.update(g);
    } catch (e) {
      this.showError(t('error.action') + ': ' + e.message);
    }
  }

  async join() {
    try {
      this.update(await api('POST', `/api/games/${encodeURIComponent(this.id)}/join`, {}));
      this.board.setOptions({ flipped: this.game.you === 'second' });
      this.renderBars();
      history.replaceState(null, '', '/game/' + encodeURIComponent(this.id));
      this.reconnect();
    } catch (e) {
      this.showError(t('error.join') + ': ' + e.message);
    }
  }

  copyLink() {
    const input = this.root.querySelector('#share-link');
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
  }

  showPly(p) {
    const g = this.game;
    this.viewPly = p >= g.ply ? null : Math.max(0, p);
    this.renderPosition();
    this.renderMoves();
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

  async analyse() {
    const out = this.root.querySelector('#analysis-out');
    const ply = this.shownPly();
    const seq = ++this.analysisSeq;
    out.innerHTML = `<span class="loading">${t('analysis.running')}</span>`;
    try {
      const a = await api('GET', `/api/games/${encodeURIComponent(this.id)}/analysis?ply=${ply}`);
      if (seq !== this.analysisSeq) return;
      let score = '';
      if (a.score && a.score.mate !== undefined) score = t('analysis.mate', { n: a.score.mate });
      else if (a.score) score = (a.score.cp >= 0 ? '+' : '') + (a.score.cp / 100).toFixed(2);
      const line = (a.pvText && a.pvText.length ? a.pvText : a.pv || []).join(' ');
      out.innerHTML = `<div class="eval" data-ply="${ply}"><span class="score">${esc(score)}</span> `
        + `<span class="depth">${t('analysis.depth', { depth: a.depth })}</span></div>`
        + `<div class="pv"><span>${t('analysis.bestLine')}:</span> ${esc(line)}</div>`
        + `<div class="note">${t('analysis.view')}</div>`;
    } catch (e) {
      if (seq === this.analysisSeq) out.innerHTML = `<span class="error">${esc(e.message)}</span>`;
    }
  }

  async exportRecord(format) {
    const out = this.root.querySelector('#export-out');
    try {
      const ply = this.shownPly();
      const text = await api('GET', `/api/games/${encodeURIComponent(this.id)}/export?format=${format}` + (format === 'fen' ? `&ply=${ply}` : ''));
      out.hidden = false;
      out.value = typeof text === 'string' ? text : JSON.stringify(text);
      out.dataset.format = format;
      const a = this.root.querySelector('#export-download');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([out.value], { type: 'text/plain' }));
      a.download = `koma-${this.id}.${format === 'fen' ? 'txt' : format}`;
      a.textContent = t('export.download');
      a.hidden = false;
    } catch (e) {
      this.showError(t('error.export') + ': ' + e.message);
    }
  }
}
