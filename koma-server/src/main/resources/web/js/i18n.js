// UI languages: loads web/i18n/{lang}.json, picks one from navigator.languages, remembers the choice.

export const LANGS = ['en', 'cs', 'it', 'ru', 'pl', 'ja'];
export const LANG_NAMES = { en: 'English', cs: 'Čeština', it: 'Italiano', ru: 'Русский', pl: 'Polski', ja: '日本語' };
const STORE_KEY = 'koma.lang';

let dict = {};
let fallback = {};
let current = 'en';

async function load(lang) {
  const res = await fetch('/i18n/' + lang + '.json');
  if (!res.ok) throw new Error('cannot load language ' + lang);
  return res.json();
}

/** The first supported language of the browser's list, else English. */
function pick(list) {
  for (const l of list || []) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** Loads the remembered or the browser's language. */
export async function initI18n() {
  let stored = null;
  try { stored = localStorage.getItem(STORE_KEY); } catch (e) { stored = null; }
  await setLang(LANGS.includes(stored) ? stored : pick(navigator.languages), false);
}

/** Switches the language (remembered when remember is true). */
export async function setLang(lang, remember = true) {
  fallback = Object.keys(fallback).length ? fallback : await load('en');
  dict = lang === 'en' ? fallback : await load(lang);
  current = lang;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(STORE_KEY, lang); } catch (e) { /* private mode: not remembered */ }
  }
}

export function lang() {
  return current;
}

/** The string for key with {name} placeholders filled from params; the key itself when missing. */
export function t(key, params) {
  let s = dict[key] ?? fallback[key] ?? key;
  if (params) {
    for (const [k, v] of Object.entries(params)) s = s.split('{' + k + '}').join(String(v));
  }
  return s;
}

/** True when key has a text in the page's language or in English. */
export function hasText(key) {
  return (dict[key] ?? fallback[key]) !== undefined;
}

/**
 * The text of a refused request in the page's language (docs/server-api.md, Errors): a coded refusal is the
 * code's own sentence, its side parameter said in words; an uncoded one, in a language other than English, is the
 * status's sentence followed by the server's English detail, so that nothing is lost.
 */
export function refusalText(status, serverText, code, params) {
  if (code && hasText('err.' + code)) {
    const p = { ...(params || {}) };
    if (p.side === 'first' || p.side === 'second') p.side = t('err.side.' + p.side);
    return t('err.' + code, p);
  }
  if (current === 'en' || !status) return serverText;
  const key = hasText('err.status.' + status) ? 'err.status.' + status : 'err.status.other';
  return t(key) + ' (' + serverText + ')';
}

/**
 * The translated name of a piece by its rule-book name ("silver", "sparrow pawn"); family 'shogi' first
 * looks for a shogi-specific name (the shogi knight, 桂馬, is not the chess knight).
 */
export function pieceName(name, family) {
  const key = 'piece.' + name;
  if (family === 'shogi' && (dict['piece.shogi.' + name] ?? fallback['piece.shogi.' + name]) !== undefined) return t('piece.shogi.' + name);
  return (dict[key] ?? fallback[key]) !== undefined ? t(key) : name;
}

/** Fills every element with data-i18n under root. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
