// The new-game page: rule set, mode, level, colour, clock, optional start position or game record.

import { api, VARIANT_IDS } from './api.js';
import { t } from './i18n.js';
import { navigate } from './main.js';

/** The form that POSTs /api/games and opens the new game. */
export class NewGamePage {
  constructor(root) {
    this.root = root;
    this.values = null;
    this.render();
  }

  render() {
    const v = this.values || { variant: 'chess', mode: 'computer', level: 3, color: 'first', clock: 'none',
      minutes: 5, increment: 3, byoMinutes: 10, byoSeconds: 30, periods: 1, fen: '', record: '' };
    const opt = (val, cur, label) => `<option value="${val}"${val === cur ? ' selected' : ''}>${label}</option>`;
    const radio = (name, val, cur, label) => `<label class="radio"><input type="radio" name="${name}" value="${val}"${val === cur ? ' checked' : ''}> ${label}</label>`;
    this.root.innerHTML = `
<section class="new-game">
  <h1>${t('new.title')}</h1>
  <form id="new-game-form" novalidate>
    <div class="field"><label for="ng-variant">${t('new.variant')}</label>
      <select id="ng-variant" name="variant">${VARIANT_IDS.map((id) => opt(id, v.variant, t('variant.' + id))).join('')}</select>
      <a class="rules-link" href="/rules/${v.variant}" data-link>${t('new.rulesLink')}</a></div>
    <fieldset class="field"><legend>${t('new.mode')}</legend>
      ${radio('mode', 'computer', v.mode, t('mode.computer'))}
      ${radio('mode', 'friend', v.mode, t('mode.friend'))}
      ${radio('mode', 'hotseat', v.mode, t('mode.hotseat'))}</fieldset>
    <div class="field" data-for="computer"><label for="ng-level">${t('new.level')}</label>
      <input id="ng-level" name="level" type="range" min="0" max="20" value="${v.level}"> <output id="ng-level-out">${v.level}</output></div>
    <div class="field" data-for="computer friend"><label for="ng-color">${t('new.color')}</label>
      <select id="ng-color" name="color">${opt('first', v.color, t('color.first'))}${opt('second', v.color, t('color.second'))}${opt('random', v.color, t('color.random'))}</select></div>
    <fieldset class="field"><legend>${t('new.clock')}</legend>
      ${radio('clock', 'none', v.clock, t('clock.none'))}
      ${radio('clock', 'fischer', v.clock, t('clock.fischer'))}
      ${radio('clock', 'byoyomi', v.clock, t('clock.byoyomi'))}
      <div class="sub" data-clock="fischer"><label>${t('clock.minutes')} <input name="minutes" type="number" min="0" max="600" step="any" value="${v.minutes}"></label>
        <label>${t('clock.increment')} <input name="increment" type="number" min="0" max="600" value="${v.increment}"></label></div>
      <div class="sub" data-clock="byoyomi"><label>${t('clock.minutes')} <input name="byoMinutes" type="number" min="0" max="600" step="any" value="${v.byoMinutes}"></label>
        <label>${t('clock.byoyomiSeconds')} <input name="byoSeconds" type="number" min="1" max="600" value="${v.byoSeconds}"></label>
        <label>${t('clock.periods')} <input name="periods" type="number" min="1" max="10" value="${v.periods}"></label></div>
    </fieldset>
    <details class="field"${v.fen || v.record ? ' open' : ''}><summary>${t('new.startFrom')}</summary>
      <label for="ng-fen">${t('new.fen')}</label>
      <input id="ng-fen" name="fen" type="text" spellcheck="false" value="${v.fen.replace(/"/g, '&quot;')}">
      <label for="ng-record">${t('new.record')}</label>
      <textarea id="ng-record" name="record" rows="6" spellcheck="false"></textarea>
    </details>
    <p class="error" id="ng-error" role="alert"></p>
    <button type="submit" id="ng-start" class="primary">${t('new.start')}</button>
  </form>
</section>`;
    const form = this.root.querySelector('form');
    form.elements.record.value = v.record;
    const sync = () => {
      const mode = form.elements.mode.value;
      for (const el of form.querySelectorAll('[data-for]')) el.hidden = !el.dataset.for.split(' ').includes(mode);
      for (const el of form.querySelectorAll('[data-clock]')) el.hidden = el.dataset.clock !== form.elements.clock.value;
      this.root.querySelector('#ng-level-out').textContent = form.elements.level.value;
      this.root.querySelector('.rules-link').setAttribute('href', '/rules/' + form.elements.variant.value);
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

  read(form) {
    const el = form.elements;
    return {
      variant: el.variant.value, mode: el.mode.value, level: Number(el.level.value), color: el.color.value,
      clock: el.clock.value, minutes: el.minutes.value, increment: el.increment.value,
      byoMinutes: el.byoMinutes.value, byoSeconds: el.byoSeconds.value, periods: el.periods.value,
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
