// The account page (/account): sign in or sign up when signed out; change password, API tokens and deletion when
// signed in.

import { api } from './api.js';
import { t } from './i18n.js';
import { h, clear } from './dom.js';
import { account, setAccount, adoptMyGames } from './session.js';
import { navigate, refreshHeader } from './main.js';

/** The account page. */
export class AccountPage {
  constructor(root) {
    this.root = root;
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    const me = account();
    clear(this.root, h('div', { class: 'account-page' }, me ? this.signedIn(me) : this.signedOut()));
  }

  /** A form whose submit runs action(fields) and shows its error under it. */
  form(id, title, fields, submitLabel, action) {
    const err = h('p', { class: 'error', id: id + '-error', role: 'alert' });
    const inputs = fields.map(([name, type, label, auto]) => h('label', { class: 'form-row' }, h('span', null, label),
      h('input', { name, type, id: id + '-' + name, autocomplete: auto || null, required: true })));
    const f = h('form', { id, class: 'panel-form', novalidate: true }, h('h2', null, title), inputs,
      h('button', { type: 'submit', class: 'primary' }, submitLabel), err);
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      const values = {};
      for (const [name] of fields) values[name] = f.elements[name].value;
      err.textContent = '';
      const button = f.querySelector('button');
      button.disabled = true;
      try {
        await action(values);
      } catch (x) {
        err.textContent = x.message;
      } finally {
        button.disabled = false;
      }
    });
    return f;
  }

  signedOut() {
    const done = async (a) => {
      setAccount(a);
      await adoptMyGames();
      refreshHeader();
      navigate('/lobby');
    };
    return h('div', { class: 'account-forms' },
      this.form('login', t('account.signIn'), [['name', 'text', t('account.name'), 'username'],
        ['password', 'password', t('account.password'), 'current-password']], t('account.signIn'),
        async (v) => done(await api('POST', '/api/account/login', v))),
      this.form('signup', t('account.signUp'), [['name', 'text', t('account.name'), 'username'],
        ['password', 'password', t('account.password'), 'new-password']], t('account.signUp'),
        async (v) => done(await api('POST', '/api/account/signup', v))),
      h('p', { class: 'hint' }, t('account.rules')));
  }

  signedIn(me) {
    const tokens = h('div', { id: 'tokens' });
    const shown = h('p', { class: 'token-shown', id: 'token-shown' });
    this.loadTokens(tokens);
    return h('div', { class: 'account-forms' },
      h('div', { class: 'panel-form' }, h('h2', null, me.name),
        h('p', null, h('a', { href: '/@/' + encodeURIComponent(me.name), 'data-link': true }, t('account.profile'))),
        h('button', { type: 'button', id: 'logout', onclick: async () => {
          setAccount(await api('POST', '/api/account/logout'));
          refreshHeader();
          this.render();
        } }, t('account.signOut'))),
      this.form('password', t('account.changePassword'), [['current', 'password', t('account.currentPassword'), 'current-password'],
        ['password', 'password', t('account.newPassword'), 'new-password']], t('account.changePassword'),
        async (v) => {
          await api('POST', '/api/account/password', v);
          document.getElementById('password-error').textContent = t('account.passwordChanged');
        }),
      h('div', { class: 'panel-form' }, h('h2', null, t('account.tokens')), h('p', { class: 'hint' }, t('account.tokensHint')),
        tokens, shown,
        h('button', { type: 'button', id: 'new-token', onclick: async () => {
          try {
            const r = await api('POST', '/api/account/tokens', { label: 'token ' + new Date().toISOString().slice(0, 10) });
            clear(shown, t('account.tokenOnce') + ' ', h('code', null, r.token));
            this.loadTokens(tokens);
          } catch (x) {
            shown.textContent = x.message;
          }
        } }, t('account.newToken'))),
      this.form('delete', t('account.delete'), [['password', 'password', t('account.password'), 'current-password']],
        t('account.deleteForever'), async (v) => {
          setAccount(await api('POST', '/api/account/delete', v));
          refreshHeader();
          navigate('/');
        }));
  }

  async loadTokens(el) {
    try {
      const r = await api('GET', '/api/account/tokens');
      clear(el, r.tokens.length ? h('ul', { class: 'token-list' }, r.tokens.map((tk) => h('li', null,
        h('code', null, tk.id), ' ', tk.label, ' ', new Date(tk.createdAt).toLocaleDateString(), ' ',
        h('button', { type: 'button', onclick: async () => {
          await api('POST', '/api/account/tokens/' + encodeURIComponent(tk.id) + '/revoke');
          this.loadTokens(el);
        } }, t('account.revoke'))))) : h('p', { class: 'hint' }, t('account.noTokens')));
    } catch (x) {
      el.textContent = x.message;
    }
  }
}
