// Entry point: loads the language and the signed-in account, fills the header, and routes / , /game/{id},
// /rules/{variant}, /lobby, /@/{name}, /account and /games.

import { initI18n, setLang, lang, LANGS, LANG_NAMES, t, translateStatic } from './i18n.js';
import { VARIANT_IDS } from './api.js';
import { NewGamePage } from './newgame.js';
import { GamePage } from './game.js';
import { RulesPage } from './rules.js';
import { LobbyPage } from './lobby.js';
import { ProfilePage, MyGamesPage } from './profile.js';
import { AccountPage } from './account.js';
import { AnalysisPage } from './analysis.js';
import { account, loadAccount } from './session.js';
import { h, clear } from './dom.js';

let page = null;

/** Shows the page of the current location (after destroying the previous one). */
export function route() {
  if (page && page.destroy) page.destroy();
  const app = document.getElementById('app');
  clear(app);
  const path = location.pathname;
  let m;
  if ((m = /^\/game\/([^/]+)\/?$/.exec(path))) {
    page = new GamePage(app, decodeURIComponent(m[1]), new URLSearchParams(location.search).has('join'));
  } else if ((m = /^\/rules\/([^/]+)\/?$/.exec(path))) {
    page = new RulesPage(app, decodeURIComponent(m[1]));
  } else if (/^\/lobby\/?$/.test(path)) {
    page = new LobbyPage(app);
  } else if ((m = /^\/@\/([^/]+)\/?$/.exec(path))) {
    page = new ProfilePage(app, decodeURIComponent(m[1]));
  } else if (/^\/account\/?$/.test(path)) {
    page = new AccountPage(app);
  } else if (/^\/analysis\/?$/.test(path)) {
    page = new AnalysisPage(app, new URLSearchParams(location.search));
  } else if (/^\/games\/?$/.test(path)) {
    page = new MyGamesPage(app);
  } else {
    page = new NewGamePage(app);
  }
  fillHeader();
}

/** Goes to a path inside the app without reloading. */
export function navigate(path) {
  history.pushState(null, '', path);
  route();
}

/** The header's texts and its two menus (language, rules) for the current language and location. */
function fillHeader() {
  translateStatic(document);
  const ls = document.getElementById('lang-select');
  clear(ls, LANGS.map((l) => h('option', { value: l, selected: l === lang() }, LANG_NAMES[l])));
  const rs = document.getElementById('rules-select');
  const m = /^\/rules\/([^/]+)/.exec(location.pathname);
  // the menu names itself by its first entry (no separate label, which a phone's header has no room for)
  rs.setAttribute('aria-label', t('nav.rules'));
  clear(rs, h('option', { value: '' }, t('nav.rules')),
    VARIANT_IDS.map((v) => h('option', { value: v, selected: !!m && m[1] === v }, t('variant.' + v))));
  document.title = 'Koma — ' + t('app.title');
  refreshHeader();
}

/** The header's account link: the signed-in name (to the profile) or "Sign in". */
export function refreshHeader() {
  const me = account();
  clear(document.getElementById('account-nav'), me
    ? [h('a', { href: '/@/' + encodeURIComponent(me.name), 'data-link': true, id: 'me-link' }, me.name), ' ',
      h('a', { href: '/account', 'data-link': true, class: 'settings' }, '⚙')]
    : h('a', { href: '/account', 'data-link': true, id: 'sign-in-link' }, t('account.signIn')));
}

async function start() {
  try {
    await Promise.all([initI18n(), loadAccount()]);
  } catch (e) {
    document.getElementById('app').textContent = 'Cannot load the language files: ' + e.message;
    return;
  }
  document.getElementById('lang-select').addEventListener('change', async (e) => {
    await setLang(e.target.value);
    if (page && page.relabel) {
      fillHeader();
      page.relabel();
    } else {
      route();
    }
  });
  document.getElementById('rules-select').addEventListener('change', (e) => {
    if (e.target.value) navigate('/rules/' + e.target.value);
  });
  document.body.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-link]');
    if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
      e.preventDefault();
      navigate(a.getAttribute('href'));
    }
  });
  window.addEventListener('popstate', route);
  route();
}

start();
