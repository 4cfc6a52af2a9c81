// The new-game page: rule set, mode, level, colour, clock, optional start position or game record.

import { api, LEVEL_ELO, VARIANT_IDS, variantInfo } from './api.js';
import { miniBoard } from './miniboard.js';
import { t } from './i18n.js';
import { navigate } from './main.js';
import { h, clear } from './dom.js';

/** The days per move a correspondence clock may have (docs/server-api.md). */
const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 14];

/**
 * The levels whose measured Elo (LEVEL_ELO, from the server's table of matches at 100 ms a move) the page shows as
 * it is. From level 11 up the server's longer think time (up to 2 s) makes the computer stronger than those 100 ms
 * games showed, so the page says "that or more".
 */
const LEVELS_SHOWN = 10;

/** The rough worth of a level as words: its Elo estimate and a band a newcomer understands. */
export function levelWorth(level) {
  const band = t('level.band.' + (level <= 2 ? 'beginner' : level <= 6 ? 'casual' : level <= 10 ? 'club' : 'strong'));
  // without the server's table (it did not answer) the band alone
  if (level >= LEVEL_ELO.length) {
    return band;
  }
  return band + ' · ' + t(level > LEVELS_SHOWN ? 'level.eloAbove' : 'level.elo', { elo: LEVEL_ELO[level] });
}

/** The form that POSTs /api/games and opens the new game. */
export class NewGamePage {
  constructor(root) {
    this.root = root;
    this.values = null;
    this.render();
  }

  render() {
    const v = this.values || { variant: VARIANT_IDS[0], mode: 'computer', level: 3, color: 'first', clock: 'none',
      minutes: 5, increment: 3, byoMinutes: 10, byoSeconds: 30, periods: 1, days: '3', fen: '', record: '' };
    const opt = (val, cur, label) => h('option', { value: val, selected: val === cur }, label);
    const radio = (name, val, cur, label) => h('label', { class: 'radio' },
      h('input', { type: 'radio', name, value: val, checked: val === cur }), ' ' + label);
    const num = (label, name, min, max, value, any) => h('label', null, label + ' ',
      h('input', { name, type: 'number', min, max, step: any ? 'any' : null, value }));
    const form = h('form', { id: 'new-game-form', novalidate: true },
      h('div', { class: 'field' }, h('label', { for: 'ng-variant' }, t('new.variant')), '\n      ',
        h('select', { id: 'ng-variant', name: 'variant' }, VARIANT_IDS.map((id) => opt(id, v.variant, t('variant.' + id)))), '\n      ',
        h('a', { class: 'rules-link', href: '/rules/' + v.variant, 'data-link': true }, t('new.rulesLink'))),
      h('fieldset', { class: 'field' }, h('legend', null, t('new.mode')),
        radio('mode', 'computer', v.mode, t('mode.computer')), ' ',
        radio('mode', 'friend', v.mode, t('mode.friend')), ' ',
        radio('mode', 'hotseat', v.mode, t('mode.hotseat'))),
      h('div', { class: 'field', 'data-for': 'computer' }, h('label', { for: 'ng-level' }, t('new.level')), '\n      ',
        h('input', { id: 'ng-level', name: 'level', type: 'range', min: 0, max: 20, value: v.level }), ' ',
        h('output', { id: 'ng-level-out', for: 'ng-level' }, v.level), ' ',
        h('span', { class: 'level-worth', id: 'ng-level-worth' }, levelWorth(v.level))),
      h('div', { class: 'field', 'data-for': 'computer friend' }, h('label', { for: 'ng-color' }, t('new.color')), '\n      ',
        h('select', { id: 'ng-color', name: 'color' }, opt('first', v.color, t('color.first')),
          opt('second', v.color, t('color.second')), opt('random', v.color, t('color.random')))),
      h('fieldset', { class: 'field' }, h('legend', null, t('new.clock')),
        radio('clock', 'none', v.clock, t('clock.none')), ' ',
        radio('clock', 'fischer', v.clock, t('clock.fischer')), ' ',
        radio('clock', 'byoyomi', v.clock, t('clock.byoyomi')), ' ',
        // correspondence (days per move) is for games with a friend only
        h('span', { 'data-for': 'friend' }, radio('clock', 'correspondence', v.clock, t('clock.correspondence'))),
        h('div', { class: 'sub', 'data-clock': 'fischer' }, num(t('clock.minutes'), 'minutes', 0, 600, v.minutes, true), '\n        ',
          num(t('clock.increment'), 'increment', 0, 600, v.increment)),
        h('div', { class: 'sub', 'data-clock': 'byoyomi' }, num(t('clock.minutes'), 'byoMinutes', 0, 600, v.byoMinutes, true), '\n        ',
          num(t('clock.byoyomiSeconds'), 'byoSeconds', 1, 600, v.byoSeconds), '\n        ',
          num(t('clock.periods'), 'periods', 1, 10, v.periods)),
        h('div', { class: 'sub', 'data-clock': 'correspondence' }, h('label', null, t('clock.days') + ' ',
          h('select', { name: 'days', id: 'ng-days' }, CORRESPONDENCE_DAYS.map((d) => opt(String(d), String(v.days), String(d))))))),
      h('details', { class: 'field', open: !!(v.fen || v.record) }, h('summary', null, t('new.startFrom')),
        h('label', { for: 'ng-fen' }, t('new.fen')),
        h('input', { id: 'ng-fen', name: 'fen', type: 'text', spellcheck: 'false', value: v.fen }),
        h('label', { for: 'ng-record' }, t('new.record')),
        h('textarea', { id: 'ng-record', name: 'record', rows: 6, spellcheck: 'false' })),
      h('p', { class: 'error', id: 'ng-error', role: 'alert' }),
      h('button', { type: 'submit', id: 'ng-start', class: 'primary' }, t('new.start')));
    const games = h('section', { class: 'game-list', 'aria-labelledby': 'game-list-title' },
      h('h2', { id: 'game-list-title' }, t('home.games')),
      h('ul', null, VARIANT_IDS.map((id) => h('li', { class: 'game-card', 'data-variant': id },
        h('span', { class: 'game-card-board', 'data-board': id }),
        h('span', { class: 'game-card-text' },
          h('button', { type: 'button', class: 'game-card-name', 'data-pick': id }, t('variant.' + id)),
          h('span', { class: 'game-card-line' }, t('rules.text.' + id)), ' ',
          h('a', { href: '/rules/' + id, 'data-link': true }, t('new.rulesLink')))))));
    clear(this.root, h('div', { class: 'home' }, h('section', { class: 'new-game' }, h('h1', null, t('new.title')), form), games));
    games.addEventListener('click', (e) => {
      const b = e.target.closest('[data-pick]');
      if (!b) return;
      form.elements.variant.value = b.dataset.pick;
      sync();
      form.elements.variant.focus();
    });
    this.drawBoards(games);
    form.elements.record.value = v.record;
    const sync = () => {
      const mode = form.elements.mode.value;
      for (const el of form.querySelectorAll('[data-for]')) el.hidden = !el.dataset.for.split(' ').includes(mode);
      for (const el of form.querySelectorAll('[data-clock]')) el.hidden = el.dataset.clock !== form.elements.clock.value;
      this.root.querySelector('#ng-level-out').textContent = form.elements.level.value;
      this.root.querySelector('#ng-level-worth').textContent = levelWorth(Number(form.elements.level.value));
      for (const c of this.root.querySelectorAll('.game-card')) c.classList.toggle('chosen', c.dataset.variant === form.elements.variant.value);
      this.root.querySelector('.rules-link').setAttribute('href', '/rules/' + encodeURIComponent(form.elements.variant.value));
      this.values = this.read(form);
    };
    form.addEventListener('input', sync);
    form.addEventListener('change', sync);
    sync();
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(form);
    });
  }

  /** The small start-position pictures of the game list (each rule set's data is fetched once and cached). */
  async drawBoards(list) {
    for (const id of VARIANT_IDS) {
      try {
        const v = await variantInfo(id);
        const slot = list.querySelector(`[data-board="${CSS.escape(id)}"]`);
        if (slot && slot.isConnected) slot.replaceChildren(miniBoard(v, 88, t('home.startPosition', { game: t('variant.' + id) })));
      } catch {
        // no picture: the name and the line say enough
      }
    }
  }

  read(form) {
    const el = form.elements;
    return {
      variant: el.variant.value, mode: el.mode.value, level: Number(el.level.value), color: el.color.value,
      clock: el.clock.value, minutes: el.minutes.value, increment: el.increment.value,
      byoMinutes: el.byoMinutes.value, byoSeconds: el.byoSeconds.value, periods: el.periods.value, days: el.days.value,
      fen: el.fen.value, record: el.record.value,
    };
  }

  /** The POST /api/games body, or an error text naming the bad field. */
  body(v) {
    const b = { variant: v.variant, mode: v.mode };
    if (v.mode === 'computer') b.level = v.level;
    if (v.mode !== 'hotseat') b.color = v.color;
    const num = (x, name, min) => {
      const n = Number(x);
      if (x === '' || !Number.isFinite(n) || n < min) throw new Error(t('new.badNumber', { field: t(name) }));
      return n;
    };
    if (v.clock === 'fischer') {
      b.clock = { type: 'fischer', initialMs: Math.round(num(v.minutes, 'clock.minutes', 0) * 60000),
        incrementMs: Math.round(num(v.increment, 'clock.increment', 0) * 1000) };
      if (b.clock.initialMs === 0 && b.clock.incrementMs === 0) throw new Error(t('new.badNumber', { field: t('clock.minutes') }));
    } else if (v.clock === 'byoyomi') {
      b.clock = { type: 'byoyomi', initialMs: Math.round(num(v.byoMinutes, 'clock.minutes', 0) * 60000),
        byoyomiMs: Math.round(num(v.byoSeconds, 'clock.byoyomiSeconds', 1) * 1000),
        periods: Math.round(num(v.periods, 'clock.periods', 1)) };
    } else if (v.clock === 'correspondence') {
      if (v.mode !== 'friend') throw new Error(t('new.correspondenceFriend'));
      b.clock = { type: 'correspondence', days: Number(v.days) };
    } else {
      b.clock = { type: 'none' };
    }
    if (v.fen.trim()) b.fen = v.fen.trim();
    if (v.record.trim()) b.record = v.record.trim();
    return b;
  }

  async submit(form) {
    const err = this.root.querySelector('#ng-error');
    err.textContent = '';
    let body;
    try {
      body = this.body(this.read(form));
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    const btn = this.root.querySelector('#ng-start');
    btn.disabled = true;
    try {
      const g = await api('POST', '/api/games', body);
      navigate('/game/' + encodeURIComponent(g.id));
    } catch (e) {
      err.textContent = t('error.create') + ': ' + e.message;
      btn.disabled = false;
    }
  }

  relabel() {
    this.render();
  }
}
