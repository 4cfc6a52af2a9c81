// HTTP client for the Koma server API (docs/server-api.md): JSON in and out, errors as ApiError.

import { refusalText } from './i18n.js';

/**
 * An HTTP error answer: status code, the refusal in the page's language as its message (the server's English
 * text is kept as serverText, its code and params as given), and Retry-After in seconds (or null).
 */
export class ApiError extends Error {
  constructor(status, serverText, retryAfter = null, code = null, params = null) {
    super(refusalText(status, serverText, code, params));
    this.status = status;
    this.serverText = serverText;
    this.code = code;
    this.params = params;
    this.retryAfter = retryAfter;
  }
}

/**
 * Sends a request and returns the parsed JSON (or text) answer; throws ApiError on 4xx/5xx. Every request
 * but GET carries a JSON body ({} when none is given): the server refuses changes without
 * Content-Type: application/json.
 */
export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body === undefined && method !== 'GET' && method !== 'HEAD') body = {};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = text;
  if ((res.headers.get('Content-Type') || '').includes('json') && text) {
    try { data = JSON.parse(text); } catch (e) { data = text; }
  }
  if (!res.ok) {
    const ra = parseFloat(res.headers.get('Retry-After'));
    const coded = data && typeof data === 'object';
    throw new ApiError(res.status, (coded && data.error) || text || res.statusText, Number.isFinite(ra) ? ra : null,
      coded && typeof data.code === 'string' ? data.code : null, coded && data.params ? data.params : null);
  }
  return data;
}

const variantCache = new Map();

/** GET /api/variants/{id}, cached for the page's lifetime (rule sets do not change while it runs). */
export function variantInfo(id) {
  if (!variantCache.has(id)) {
    const p = api('GET', '/api/variants/' + encodeURIComponent(id));
    p.catch(() => variantCache.delete(id));
    variantCache.set(id, p);
  }
  return variantCache.get(id);
}

let variantList = null;

/** GET /api/variants, cached. */
export function variants() {
  if (!variantList) {
    variantList = api('GET', '/api/variants');
    variantList.catch(() => { variantList = null; });
  }
  return variantList;
}

/**
 * The rule sets as the server defines them (GET /api/variants, read once while this module loads: every page
 * needs them): what differs between rule sets comes from their definitions, never from ids written here.
 */
const levelsAnswer = api('GET', '/api/levels').catch(() => []); // asked beside the rule sets, not after them
const VARIANT_LIST = await variants().catch(() => []);

/**
 * What each computer level is roughly worth (GET /api/levels, read once while this module loads): Elo on
 * Stockfish's UCI_Elo scale, chess at 100 ms a move, index = level; empty when the server did not answer.
 */
export const LEVEL_ELO = (await levelsAnswer)
  .filter((l) => l && Number.isInteger(l.level) && Number.isInteger(l.elo))
  .sort((a, b) => a.level - b.level).map((l) => l.elo);

/** Rule-set ids in display order (RULES.md 9.1), from the server. */
export const VARIANT_IDS = VARIANT_LIST.map((v) => v.id);

/** True for the shogi family (kanji pieces, rotated second player, hands): the rule set's declared family. */
export function isShogiFamily(id) {
  const v = VARIANT_LIST.find((x) => x.id === id);
  return !!v && v.family === 'shogi';
}
