// DOM construction without markup: every element is created by name, every text becomes a text node, so no
// text from the URL, the server, a user or a translation is ever parsed as HTML (and the page runs under a
// Content-Security-Policy without inline scripts, styles or handlers).

export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Sets the attributes of el: a function value under an "onX" key becomes an event listener for "x"; null,
 * undefined and false leave the attribute out; true sets it empty (hidden, disabled, selected, checked...);
 * anything else is set as its string. Attribute names come from the code, never from data.
 */
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (/^on[A-Za-z]/.test(k)) {
      if (typeof v !== 'function') throw new TypeError('dom: ' + k + ' must be a function');
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

/** Appends children: nodes as they are, strings and numbers as text nodes, arrays flattened, null/false skipped. */
export function append(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h('button', {type: 'button', class: 'mv', onclick: f}, 'e4'). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  return append(el, ...children);
}

/** An SVG element (same arguments as h). */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  return append(el, ...children);
}

/** Replaces all children of el by the given ones (none: empties it); returns el. */
export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, ...children);
}

/** A fragment holding the given children (for helpers that return several siblings). */
export function frag(...children) {
  return append(document.createDocumentFragment(), ...children);
}
