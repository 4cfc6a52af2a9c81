// A player's page (/@/{name}): ratings per rule set ("?" while provisional), a rating-history chart, and their
// games filtered by rule set and result, paginated, each with its record downloads. And "my games" (/games) for a
// guest, from the seats this browser holds.

import { api, VARIANT_IDS } from './api.js';
import { t } from './i18n.js';
import { h, svg, clear } from './dom.js';
import { account, myGameIds } from './session.js';
import { navigate } from './main.js';

const FORMATS = ['pgn', 'kif', 'csa'];

/** One row of a games table: date, rule set, players, result, moves, links. */
function gameRow(g, outcome) {
  const side = (i) => {
    const s = g.sides[i];
    if (s.account) return s.name ? h('a', { href: '/@/' + encodeURIComponent(s.name), 'data-link': true }, s.name) : t('profile.deleted');
    if (String(s.player || '').startsWith('computer')) return t('player.computer', { level: s.player.split(':')[1] ?? '' });
    return t('lobby.anonymous');
  };
  const result = g.winner === 'first' ? '1-0' : g.winner === 'second' ? '0-1' : g.winner === 'draw' ? '½-½'
    : g.winner === 'none' ? '*' : t('profile.playing');
  return h('tr', { 'data-game': g.id, class: outcome ? 'outcome-' + outcome : null },
    h('td', null, new Date(g.createdAt).toLocaleDateString()),
    h('td', null, t('variant.' + g.variant), g.rated ? h('span', { class: 'muted' }, ' · ' + t('lobby.ratedShort')) : null),
    h('td', null, side(0), ' – ', side(1)),
    h('td', null, result, outcome ? h('span', { class: 'outcome' }, ' ' + t('profile.' + outcome)) : null,
      typeof g.ratingDiff === 'number' ? h('span', { class: 'diff ' + (g.ratingDiff >= 0 ? 'up' : 'down') },
        ' ' + (g.ratingDiff >= 0 ? '+' : '') + g.ratingDiff) : null),
    h('td', null, String(g.ply)),
    h('td', null, h('a', { href: '/game/' + encodeURIComponent(g.id), 'data-link': true }, t('profile.open')), ' ',
      FORMATS.map((f) => [h('a', { href: '/api/games/' + encodeURIComponent(g.id) + '/export?format=' + f,
        download: g.id + '.' + f }, f.toUpperCase()), ' '])));
}

function gamesTable(rows) {
  return h('table', { class: 'history' }, h('thead', null, h('tr', null, h('th', null, t('profile.date')),
    h('th', null, t('new.variant')), h('th', null, t('profile.players')), h('th', null, t('profile.result')),
    h('th', null, t('profile.plies')), h('th', null, ''))), h('tbody', null, rows));
}

/** The rating-history chart: one polyline over time, with the rating axis labelled. */
function chart(points) {
  const W = 600, H = 200, P = 36;
  if (points.length === 0) return h('p', { class: 'muted' }, t('profile.noRated'));
  const rs = points.map((p) => p.rating);
  const lo = Math.min(...rs) - 20, hi = Math.max(...rs) + 20;
  const t0 = points[0].at, t1 = points[points.length - 1].at;
  const x = (p, i) => P + (t1 > t0 ? (p.at - t0) / (t1 - t0) : (points.length > 1 ? i / (points.length - 1) : 0.5)) * (W - 2 * P);
  const y = (r) => H - P / 2 - (r - lo) / (hi - lo) * (H - P);
  return svg('svg', { class: 'rating-chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': t('profile.chart') },
    svg('line', { x1: P, y1: H - P / 2, x2: W - P, y2: H - P / 2, class: 'axis' }),
    svg('text', { x: 4, y: y(hi - 20) + 4, class: 'tick' }, String(Math.round(hi - 20))),
    svg('text', { x: 4, y: y(lo + 20) + 4, class: 'tick' }, String(Math.round(lo + 20))),
    svg('polyline', { class: 'line', points: points.map((p, i) => x(p, i).toFixed(1) + ',' + y(p.rating).toFixed(1)).join(' ') }),
    points.map((p, i) => svg('circle', { cx: x(p, i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, class: 'dot' },
      svg('title', null, new Date(p.at).toLocaleString() + ': ' + p.rating))));
}

/** A player's page. */
export class ProfilePage {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    this.filter = { variant: '', result: '', page: 0 };
    this.load();
  }

  relabel() {
    this.render();
  }

  async load() {
    clear(this.root, h('p', { class: 'loading' }, t('common.loading')));
    try {
      this.user = await api('GET', '/api/users/' + encodeURIComponent(this.name));
    } catch (e) {
      clear(this.root, h('p', { class: 'error' }, e.message));
      return;
    }
    this.chartVariant = this.user.ratings.length ? this.user.ratings[0].variant : VARIANT_IDS[0];
    this.render();
  }

  render() {
    const u = this.user;
    if (!u) return;
    const me = account();
    const opt = (v, label, cur) => h('option', { value: v, selected: v === cur }, label);
    clear(this.root, h('div', { class: 'profile-page' },
      h('h1', null, u.name, u.bot ? h('span', { class: 'badge' }, ' BOT') : null),
      h('p', { class: 'muted' }, t('profile.since', { date: new Date(u.createdAt).toLocaleDateString() }),
        me && me.name === u.name ? [' · ', h('a', { href: '/account', 'data-link': true }, t('account.settings'))] : null),
      me && me.name !== u.name ? this.challengeForm(u) : null,
      h('section', { class: 'panel' }, h('h2', null, t('profile.ratings')),
        u.ratings.length ? h('table', { class: 'ratings' }, h('tbody', null, u.ratings.map((r) => h('tr', { 'data-variant': r.variant },
          h('td', null, t('variant.' + r.variant)),
          h('td', { class: 'rating' }, r.rating + (r.provisional ? '?' : '')),
          h('td', { class: 'muted' }, t('profile.games', { n: r.games })))))) : h('p', { class: 'muted' }, t('profile.noRated'))),
      h('section', { class: 'panel' }, h('h2', null, t('profile.chart')),
        h('select', { id: 'chart-variant', onchange: (e) => { this.chartVariant = e.target.value; this.loadChart(); } },
          VARIANT_IDS.map((v) => opt(v, t('variant.' + v), this.chartVariant))),
        h('div', { id: 'chart' })),
      h('section', { class: 'panel' }, h('h2', null, t('profile.history')),
        h('div', { class: 'filters' },
          h('select', { id: 'f-variant', onchange: (e) => { this.filter.variant = e.target.value; this.filter.page = 0; this.loadGames(); } },
            opt('', t('profile.allVariants'), this.filter.variant), VARIANT_IDS.map((v) => opt(v, t('variant.' + v), this.filter.variant))),
          h('select', { id: 'f-result', onchange: (e) => { this.filter.result = e.target.value; this.filter.page = 0; this.loadGames(); } },
            opt('', t('profile.allResults'), this.filter.result), ['win', 'loss', 'draw'].map((r) => opt(r, t('profile.' + r), this.filter.result)))),
        h('div', { id: 'games' }))));
    this.loadChart();
    this.loadGames();
  }

  /** A challenge to this player (POST /api/challenge/{name}); the game opens when they accept. */
  challengeForm(u) {
    const opt = (v, label, sel) => h('option', { value: v, selected: v === sel }, label);
    const status = h('p', { class: 'muted', id: 'challenge-status', role: 'status' });
    const f = h('form', { id: 'challenge-form', class: 'challenge-form', novalidate: true },
      h('label', { class: 'form-row' }, h('span', null, t('new.variant')),
        h('select', { name: 'variant', id: 'ch-variant' }, VARIANT_IDS.map((v) => opt(v, t('variant.' + v), VARIANT_IDS[0])))),
      h('label', { class: 'form-row' }, h('span', null, t('lobby.clock')),
        h('input', { name: 'clock', id: 'ch-clock', value: '5+3', size: 7 }), h('small', { class: 'muted' }, t('lobby.clockHint'))),
      h('label', { class: 'form-row' }, h('span', null, t('lobby.color')),
        h('select', { name: 'color', id: 'ch-color' }, opt('random', t('lobby.random'), 'random'),
          opt('white', t('lobby.first'), null), opt('black', t('lobby.second'), null))),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'rated', id: 'ch-rated' }), ' ', t('lobby.rated')),
      h('button', { type: 'submit', class: 'primary', id: 'ch-send' }, t('profile.challenge')), status);
    f.addEventListener('submit', (e) => { e.preventDefault(); this.sendChallenge(u, f, status); });
    return h('section', { class: 'panel' }, h('h2', null, t('profile.challengeTitle', { name: u.name })), f);
  }

  async sendChallenge(u, f, status) {
    const m = /^(\d{1,3})([+|])(\d{1,3})$/.exec(f.elements.clock.value.trim());
    if (!m) { status.textContent = t('lobby.clockHint'); return; }
    const body = { variant: f.elements.variant.value, 'clock.limit': String(Number(m[1]) * 60), color: f.elements.color.value,
      rated: String(f.elements.rated.checked) };
    body[m[2] === '+' ? 'clock.increment' : 'clock.byoyomi'] = m[3];
    try {
      // the opponent may accept (and gameStart arrive) before the POST's answer does: wait for their game from now
      this.awaiting = u.name.toLowerCase();
      this.listen();
      const c = await api('POST', '/api/challenge/' + encodeURIComponent(u.name), body);
      this.challengeId = c.id;
      status.textContent = t('profile.challengeSent');
    } catch (e) {
      this.awaiting = null;
      status.textContent = e.message;
    }
  }

  /** Reads the account's event stream (NDJSON over fetch) for the answer to our challenge. */
  async listen() {
    if (this.stream) return;
    this.stream = new AbortController();
    try {
      const res = await fetch('/api/stream/event', { credentials: 'same-origin', signal: this.stream.signal });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (line) this.onEvent(JSON.parse(line));
        }
      }
    } catch (e) { /* aborted when the page closes */ }
    this.stream = null;
  }

  onEvent(e) {
    const status = this.root.querySelector('#challenge-status');
    if (e.type === 'gameStart' && this.awaiting && e.game.opponent && e.game.opponent.id === this.awaiting) {
      navigate('/game/' + encodeURIComponent(e.game.gameId));
    } else if (e.type === 'challengeDeclined' && e.challenge.id === this.challengeId && status) {
      this.awaiting = null;
      status.textContent = t('profile.challengeDeclined');
    }
  }

  destroy() {
    if (this.stream) this.stream.abort();
  }

  async loadChart() {
    const el = this.root.querySelector('#chart');
    try {
      const r = await api('GET', '/api/users/' + encodeURIComponent(this.name) + '/rating-history?variant=' + encodeURIComponent(this.chartVariant));
      clear(el, chart(r.points));
    } catch (e) {
      el.textContent = e.message;
    }
  }

  async loadGames() {
    const el = this.root.querySelector('#games');
    const f = this.filter;
    const qs = new URLSearchParams({ page: String(f.page) });
    if (f.variant) qs.set('variant', f.variant);
    if (f.result) qs.set('result', f.result);
    try {
      const r = await api('GET', '/api/users/' + encodeURIComponent(this.name) + '/games?' + qs);
      clear(el, r.games.length ? gamesTable(r.games.map((g) => gameRow(g, g.outcome))) : h('p', { class: 'muted' }, t('profile.noGames')),
        h('div', { class: 'pager' },
          h('button', { type: 'button', id: 'prev-page', disabled: f.page === 0, onclick: () => { f.page--; this.loadGames(); } }, '‹'),
          ' ' + t('profile.page', { page: f.page + 1, pages: r.pages }) + ' ',
          h('button', { type: 'button', id: 'next-page', disabled: f.page + 1 >= r.pages, onclick: () => { f.page++; this.loadGames(); } }, '›')));
    } catch (e) {
      el.textContent = e.message;
    }
  }
}

/** "My games": the games this browser holds a seat in (a signed-in player also finds them on their page). */
export class MyGamesPage {
  constructor(root) {
    this.root = root;
    this.load();
  }

  relabel() {
    this.load();
  }

  async load() {
    const me = account();
    const ids = myGameIds().slice(0, 100);
    let games = [];
    try {
      games = ids.length ? (await api('GET', '/api/games?ids=' + ids.map(encodeURIComponent).join(','))).games : [];
    } catch (e) {
      clear(this.root, h('p', { class: 'error' }, e.message));
      return;
    }
    let playing = [];
    if (me) {
      try { playing = (await api('GET', '/api/account/playing')).nowPlaying; } catch (e) { playing = []; }
    }
    const left = (s) => s === null || s === undefined ? '' : s >= 86400 ? Math.floor(s / 86400) + 'd ' + Math.floor(s % 86400 / 3600) + 'h'
      : Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
    const now = playing.length ? h('section', { class: 'panel now-playing' }, h('h2', null, t('profile.nowPlaying')),
      h('ul', { class: 'games-now' }, playing.map((g) => h('li', { 'data-game': g.gameId, class: g.isMyTurn ? 'my-turn' : null },
        h('a', { href: '/game/' + encodeURIComponent(g.gameId), 'data-link': true }, t('variant.' + g.variant.key), ' – ',
          g.opponent && g.opponent.name ? g.opponent.name : t('lobby.anonymous')), ' ',
        h('span', { class: g.isMyTurn ? 'turn' : 'muted' }, g.isMyTurn ? t('profile.yourTurn') : t('profile.theirTurn')),
        g.secondsLeft !== null && g.secondsLeft !== undefined ? h('span', { class: 'muted' }, ' · ' + left(g.secondsLeft)) : null)))) : null;
    clear(this.root, h('div', { class: 'my-games' }, h('h1', null, t('nav.myGames')),
      me ? h('p', null, h('a', { href: '/@/' + encodeURIComponent(me.name), 'data-link': true }, t('account.profile'))) : h('p', { class: 'hint' }, t('profile.guestHint')),
      now,
      games.length ? gamesTable(games.map((g) => gameRow(g, null))) : h('p', { class: 'muted' }, t('profile.noGames'))));
  }
}
