// The lobby (/lobby): open seeks live over /ws/lobby (post, cancel, accept), quick pairing across rule sets and
// clocks, the games being played now, and how many players are online. docs/server-api.md, "Lobby".

import { api, VARIANT_IDS } from './api.js';
import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { account, rememberGame } from './session.js';
import { navigate } from './main.js';

const RECONNECT_MS = 2000;

/** "name (1500?)" for a seek or a seated account; a guest is "Anonymous". */
export function playerLabel(a) {
  if (!a) return t('lobby.anonymous');
  const name = a.name === null ? t('profile.deleted') : a.name;
  return a.rating === undefined || a.rating === null ? name : name + ' (' + a.rating + (a.provisional ? '?' : '') + ')';
}

/** The lobby page. */
export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.seeks = new Map();
    this.mine = new Set();
    this.games = [];
    this.online = 0;
    this.poolClocks = [];
    this.waiting = false;
    this.layout();
    this.connect();
  }

  relabel() {
    this.layout();
    this.renderAll();
  }

  layout() {
    const me = account();
    const opt = (v, label, sel) => h('option', { value: v, selected: v === sel }, label);
    clear(this.root, h('div', { class: 'lobby-page' },
      h('div', { class: 'lobby-head' }, h('h1', null, t('lobby.title')), h('span', { id: 'online', class: 'online' })),
      h('p', { class: 'error', id: 'lobby-error', role: 'alert' }),
      h('div', { class: 'lobby-grid' },
        h('section', { class: 'panel pool' }, h('h2', null, t('lobby.quick')),
          h('div', { class: 'checks', id: 'pool-variants' }, VARIANT_IDS.map((v) => h('label', { class: 'check' },
            h('input', { type: 'checkbox', value: v, checked: VARIANT_IDS.indexOf(v) < 2 }), ' ', t('variant.' + v)))),
          h('div', { class: 'checks', id: 'pool-clocks' }),
          h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'pool-rated', disabled: !me, checked: !!me }),
            ' ', t('lobby.rated')),
          h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', id: 'pool-play', onclick: () => this.joinPool() },
            t('lobby.play')), h('button', { type: 'button', id: 'pool-leave', hidden: true, onclick: () => this.leavePool() },
            t('lobby.cancel')), h('span', { id: 'pool-status', class: 'muted' }))),
        h('section', { class: 'panel create-seek' }, h('h2', null, t('lobby.create')),
          h('form', { id: 'seek-form', novalidate: true },
            h('label', { class: 'form-row' }, h('span', null, t('new.variant')),
              h('select', { name: 'variant', id: 'seek-variant' }, VARIANT_IDS.map((v) => opt(v, t('variant.' + v), VARIANT_IDS[0])))),
            h('label', { class: 'form-row' }, h('span', null, t('lobby.clock')),
              h('input', { name: 'clock', id: 'seek-clock', value: '5+3', size: 7 }), h('small', { class: 'muted' }, t('lobby.clockHint'))),
            h('label', { class: 'form-row' }, h('span', null, t('lobby.color')),
              h('select', { name: 'color', id: 'seek-color' }, opt('random', t('lobby.random'), 'random'),
                opt('first', t('lobby.first'), null), opt('second', t('lobby.second'), null))),
            h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'rated', id: 'seek-rated', disabled: !me, checked: !!me }),
              ' ', t('lobby.rated')),
            me ? null : h('p', { class: 'hint' }, h('a', { href: '/account', 'data-link': true }, t('lobby.signInToRate'))),
            h('button', { type: 'submit', class: 'primary', id: 'seek-post' }, t('lobby.post'))))),
      h('section', { class: 'panel' }, h('h2', null, t('lobby.seeks')),
        h('table', { class: 'seeks' }, h('thead', null, h('tr', null, h('th', null, t('lobby.player')), h('th', null, t('new.variant')),
          h('th', null, t('lobby.clock')), h('th', null, t('lobby.mode')), h('th', null, t('lobby.color')), h('th', null, ''))),
        h('tbody', { id: 'seek-rows' }))),
      h('section', { class: 'panel' }, h('h2', null, t('lobby.playing')), h('ul', { class: 'games-now', id: 'games-now' }))));
    this.root.querySelector('#seek-form').addEventListener('submit', (e) => { e.preventDefault(); this.postSeek(); });
  }

  q(sel) {
    return this.root.querySelector(sel);
  }

  connect() {
    if (this.destroyed) return;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/lobby';
    this.ws = new WebSocket(url);
    this.ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch (x) { return; }
      this.receive(m);
    };
    this.ws.onclose = () => {
      this.sri = null;
      if (!this.destroyed) this.reconnect = setTimeout(() => this.connect(), RECONNECT_MS);
    };
  }

  receive(m) {
    if (m.type === 'hello') {
      this.sri = m.sri;
      this.seeks = new Map(m.seeks.map((s) => [s.id, s]));
      this.mine = new Set();
      if (m.games) this.games = m.games;
      this.online = m.online;
      this.poolClocks = m.poolClocks || [];
      this.waiting = false;
      this.renderClocks();
      this.renderAll();
    } else if (m.type === 'seekAdded') {
      this.seeks.set(m.seek.id, m.seek);
      this.renderSeeks();
    } else if (m.type === 'seekRemoved') {
      this.seeks.delete(m.id);
      this.mine.delete(m.id);
      this.renderSeeks();
    } else if (m.type === 'games') {
      this.games = m.games;
      this.renderGames();
    } else if (m.type === 'online') {
      this.online = m.count;
      this.renderOnline();
    } else if (m.type === 'pool') {
      this.waiting = !!m.waiting;
      this.renderPool();
    } else if (m.type === 'paired') {
      this.takeSeat(m.game);
    }
  }

  renderAll() {
    this.renderSeeks();
    this.renderGames();
    this.renderOnline();
    this.renderPool();
  }

  renderClocks() {
    const el = this.q('#pool-clocks');
    const checked = new Set([...el.querySelectorAll('input:checked')].map((i) => i.value));
    if (!checked.size) ['5+3', '10|30'].forEach((c) => checked.add(c));
    clear(el, this.poolClocks.map((c) => h('label', { class: 'check' },
      h('input', { type: 'checkbox', value: c, checked: checked.has(c) }), ' ', c)));
  }

  renderOnline() {
    this.q('#online').textContent = t('lobby.online', { n: this.online });
  }

  renderSeeks() {
    const rows = [...this.seeks.values()].map((s) => h('tr', { 'data-seek': s.id, class: this.mine.has(s.id) ? 'mine' : null },
      h('td', null, s.name ? h('a', { href: '/@/' + encodeURIComponent(s.name), 'data-link': true }, playerLabel(s)) : playerLabel(null)),
      h('td', null, t('variant.' + s.variant)), h('td', null, s.clock), h('td', null, s.rated ? t('lobby.ratedShort') : t('lobby.casual')),
      h('td', null, t('lobby.' + s.color)),
      h('td', null, this.mine.has(s.id)
        ? h('button', { type: 'button', class: 'cancel-seek', onclick: () => this.cancel(s.id) }, t('lobby.cancel'))
        : h('button', { type: 'button', class: 'accept-seek primary', onclick: () => this.accept(s.id) }, t('lobby.accept')))));
    clear(this.q('#seek-rows'), rows.length ? rows : h('tr', null, h('td', { colspan: 6, class: 'muted' }, t('lobby.noSeeks'))));
  }

  renderGames() {
    const items = this.games.map((g) => h('li', { 'data-game': g.id },
      h('a', { href: '/game/' + encodeURIComponent(g.id), 'data-link': true },
        playerLabel(g.accounts[0]), ' – ', playerLabel(g.accounts[1])),
      ' ', h('span', { class: 'muted' }, t('variant.' + g.variant) + (g.clock ? ' · ' + g.clock : '') + ' · '
        + (g.rated ? t('lobby.ratedShort') : t('lobby.casual')) + ' · ' + t('lobby.ply', { n: g.ply }))));
    clear(this.q('#games-now'), items.length ? items : h('li', { class: 'muted' }, t('lobby.noGames')));
  }

  renderPool() {
    this.q('#pool-play').hidden = this.waiting;
    this.q('#pool-leave').hidden = !this.waiting;
    this.q('#pool-status').textContent = this.waiting ? t('lobby.waiting') : '';
  }

  error(e) {
    this.q('#lobby-error').textContent = e ? e.message : '';
  }

  async postSeek() {
    const f = this.q('#seek-form');
    this.error(null);
    try {
      const s = await api('POST', '/api/lobby/seeks', { sri: this.sri, variant: f.elements.variant.value,
        clock: f.elements.clock.value.trim(), color: f.elements.color.value, rated: f.elements.rated.checked });
      this.mine.add(s.id);
      this.seeks.set(s.id, s);
      this.renderSeeks();
    } catch (e) {
      this.error(e);
    }
  }

  async cancel(id) {
    try {
      await api('POST', '/api/lobby/seeks/' + encodeURIComponent(id) + '/cancel', { sri: this.sri });
    } catch (e) {
      this.error(e);
    }
  }

  async accept(id) {
    this.error(null);
    try {
      const r = await api('POST', '/api/lobby/seeks/' + encodeURIComponent(id) + '/accept');
      rememberGame(r.game);
      navigate('/game/' + encodeURIComponent(r.game));
    } catch (e) {
      this.error(e);
    }
  }

  async joinPool() {
    this.error(null);
    const values = (sel) => [...this.q(sel).querySelectorAll('input:checked')].map((i) => i.value);
    try {
      await api('POST', '/api/lobby/pool', { sri: this.sri, variants: values('#pool-variants'), clocks: values('#pool-clocks'),
        rated: this.q('#pool-rated').checked });
    } catch (e) {
      this.error(e);
    }
  }

  async leavePool() {
    try {
      await api('POST', '/api/lobby/pool/leave', { sri: this.sri });
    } catch (e) {
      this.error(e);
    }
  }

  async takeSeat(game) {
    try {
      await api('POST', '/api/lobby/seat', { sri: this.sri, game });
      rememberGame(game);
      navigate('/game/' + encodeURIComponent(game));
    } catch (e) {
      this.error(e);
    }
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.reconnect);
    if (this.ws) this.ws.close();
  }
}
