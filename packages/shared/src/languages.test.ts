import { describe, expect, it } from 'vitest';
import { isLanguage, negotiateLanguage, resolveLanguage } from './languages';

describe('resolveLanguage', () => {
  it.each([
    ['ru-RU', 'ru'],
    ['ru_RU', 'ru'],
    ['RU', 'ru'],
    [' ru ', 'ru'],
    ['en-GB', 'en'],
    ['de', 'en'],
    ['de-DE', 'en'],
    ['', 'en'],
    [null, 'en'],
    [undefined, 'en'],
  ])('%j → %s', (tag, expected) => {
    expect(resolveLanguage(tag)).toBe(expected);
  });
});

describe('isLanguage', () => {
  it('accepts only en and ru', () => {
    expect(isLanguage('en')).toBe(true);
    expect(isLanguage('ru')).toBe(true);
    expect(isLanguage('ru-RU')).toBe(false);
    expect(isLanguage(1)).toBe(false);
  });
});

describe('negotiateLanguage', () => {
  it.each([
    ['de;q=1, ru;q=0.8, en;q=0.5', 'ru'],
    ['en;q=0.5, ru;q=0.8', 'ru'],
    ['ru;q=0.5, en;q=0.8', 'en'],
    ['ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7', 'ru'],
    ['fr-CA, en-US;q=0.3', 'en'],
    ['*, ru;q=0.1', 'ru'],
    ['*', 'en'],
    ['ru;q=0, en;q=0.1', 'en'],
    ['ru;q=0', 'en'],
    ['ru, en', 'ru'],
    ['en, ru', 'en'],
    ['!!garbage;;q=zz', 'en'],
    [',,,', 'en'],
    ['ru;q=abc, en;q=0.1', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});
