import { afterEach, describe, expect, it } from 'vitest';
import { takePrerenderedLogin, watchPrerenderedLogin } from './prerendered-login';

const markup = `<div data-login-prerendered><form>
  <input data-testid="login-username" />
  <input data-testid="login-password" type="password" />
</form></div>`;

const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-testid="login-${name}"]`)!;
const type = (name: string, value: string) => {
  input(name).value = value;
  input(name).dispatchEvent(new Event('input', { bubbles: true }));
};

afterEach(() => {
  takePrerenderedLogin();
  document.body.innerHTML = '';
});

describe('the prerendered login form', () => {
  it('keeps what is typed until the app takes it, once, with the focused field', () => {
    document.body.innerHTML = markup;
    watchPrerenderedLogin();
    type('username', 'ann');
    input('password').focus();
    type('password', 'secret');
    expect(takePrerenderedLogin()).toEqual({ username: 'ann', password: 'secret', focused: 'password' });
    expect(takePrerenderedLogin()).toBeNull();
  });

  it('stops following the form once it is removed or taken', () => {
    document.body.innerHTML = markup;
    watchPrerenderedLogin();
    type('username', 'ann');
    const form = document.querySelector('form')!;
    document.body.innerHTML = '';
    form.dispatchEvent(new Event('input'));
    expect(takePrerenderedLogin()?.username).toBe('ann');
    form.dispatchEvent(new Event('input'));
    expect(takePrerenderedLogin()).toBeNull();
  });

  it('does nothing on a page without it', () => {
    document.body.innerHTML = '<form><input data-testid="login-username" value="x" /></form>';
    watchPrerenderedLogin();
    expect(takePrerenderedLogin()).toBeNull();
  });
});
