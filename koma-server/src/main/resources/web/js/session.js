// The signed-in account (GET /api/account) and the games this browser holds a seat in (kept in localStorage, since
// seat cookies are HttpOnly and scoped to each game), for the header, the lobby and "my games".

import { api } from './api.js';

const GAMES_KEY = 'koma.games';
/** Game ids remembered at most (the oldest are forgotten first). */
const MAX_GAMES = 200;

let me = null;

/** The signed-in account ({name, bot, createdAt}) or null. */
export function account() {
  return me;
}

/** Asks the server who is signed in. */
export async function loadAccount() {
  try {
    const a = await api('GET', '/api/account');
    me = a && a.name ? a : null;
  } catch (e) {
    me = null;
  }
  return me;
}

/** Sets the account after a sign-in, sign-up, sign-out or deletion answer. */
export function setAccount(a) {
  me = a && a.name ? a : null;
}

/** The ids of the games this browser took a seat in, newest first. */
export function myGameIds() {
  try {
    const list = JSON.parse(localStorage.getItem(GAMES_KEY));
    return Array.isArray(list) ? list.filter((x) => typeof x === 'string' && /^[a-z0-9]{1,32}$/.test(x)) : [];
  } catch (e) {
    return [];
  }
}

/** Remembers a game this browser holds a seat in. */
export function rememberGame(id) {
  const list = [id, ...myGameIds().filter((x) => x !== id)].slice(0, MAX_GAMES);
  try { localStorage.setItem(GAMES_KEY, JSON.stringify(list)); } catch (e) { /* private mode: not remembered */ }
}

/** After signing up or in: seats the account in the games this browser holds (a guest keeps their games). */
export async function adoptMyGames() {
  let n = 0;
  for (const id of myGameIds()) {
    try {
      await api('POST', '/api/games/' + encodeURIComponent(id) + '/account');
      n++;
    } catch (e) { /* a seat held by another account, or a game gone: skipped */ }
  }
  return n;
}
