/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ErrorMessages } from '../errors';
import { baseI18nOptions, en, ru } from './index';

const enKeys = Object.keys(en);
const ruKeys = Object.keys(ru);
const enTable: Record<string, string> = en;
const ruTable: Record<string, string> = ru;

const pluralSuffix = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(pluralSuffix, '');
const enBases = new Set(enKeys.map(base));
const ruBases = new Set(ruKeys.map(base));

/** Is `key` something `t(key)` can find in English: a key, or the base of plural forms. */
const isEnKey = (key: string) => key in enTable || enKeys.includes(`${key}_one`) || enKeys.includes(`${key}_other`);

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);

describe('locale files', () => {
  it('give every English key a Russian translation', () => {
    const missing = enKeys.filter((key) => {
      if (key in ruTable) return false;
      // An English plural form is covered by any Russian form of the same base.
      return !(pluralSuffix.test(key) && ruBases.has(base(key)));
    });
    expect(missing).toEqual([]);
  });

  it('have no Russian key without an English one', () => {
    const orphans = ruKeys.filter((key) => !(key in enTable) && !(pluralSuffix.test(key) && enBases.has(base(key))));
    expect(orphans).toEqual([]);
  });

  it('give every Russian _few/_many an English _one/_other base', () => {
    const orphans = ruKeys
      .filter((key) => /_(few|many)$/.test(key))
      .filter((key) => !(`${base(key)}_one` in enTable && `${base(key)}_other` in enTable));
    expect(orphans).toEqual([]);
  });

  it('give every English plural base all three Russian forms', () => {
    const incomplete = [...new Set(enKeys.filter((key) => pluralSuffix.test(key)).map(base))].filter(
      (key) => !['one', 'few', 'many'].every((form) => `${key}_${form}` in ruTable),
    );
    expect(incomplete).toEqual([]);
  });

  it('have no empty values', () => {
    const empty = [...Object.entries(en), ...Object.entries(ru)].filter(([, value]) => !value.trim());
    expect(empty).toEqual([]);
  });

  it('keep every {{placeholder}} of English in Russian', () => {
    const lost: string[] = [];
    for (const key of enKeys) {
      const wanted = placeholders(enTable[key]!);
      const ruValues =
        key in ruTable ? [ruTable[key]!] : ruKeys.filter((k) => base(k) === base(key)).map((k) => ruTable[k]!);
      for (const value of ruValues) {
        for (const name of wanted) if (!placeholders(value).includes(name)) lost.push(`${key}: {{${name}}}`);
      }
    }
    expect(lost).toEqual([]);
  });
});

describe('Russian plurals', () => {
  it('use one, few and many forms for 1, 3, 5 and 21', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ ...baseI18nOptions, lng: 'ru' });
    const key = '{{count}} task';
    expect(i18n.t(key, { count: 1 })).toBe(ruTable[`${key}_one`]!.replace('{{count}}', '1'));
    expect(i18n.t(key, { count: 3 })).toBe(ruTable[`${key}_few`]!.replace('{{count}}', '3'));
    expect(i18n.t(key, { count: 5 })).toBe(ruTable[`${key}_many`]!.replace('{{count}}', '5'));
    expect(i18n.t(key, { count: 21 })).toBe(ruTable[`${key}_one`]!.replace('{{count}}', '21'));
    expect(i18n.t(key, { count: 3 })).toBe('3 задачи');

    const english = i18n.cloneInstance({ lng: 'en' });
    await english.changeLanguage('en');
    expect(english.t(key, { count: 1 })).toBe('1 task');
    expect(english.t(key, { count: 5 })).toBe('5 tasks');
  });
});

describe('coverage of keys used in code', () => {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  const sourceDirs = ['packages/web/src', 'packages/server/src'].map((dir) => join(root, dir));

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  }

  /** First arguments of `t(`, `i18n.t(` and the like, when they are plain string literals. */
  function literalKeys(source: string): string[] {
    const keys: string[] = [];
    for (const match of source.matchAll(/(?<![\w$])t\(\s*(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g)) {
      keys.push(match[2]!.replace(/\\(.)/g, '$1'));
    }
    return keys;
  }

  it('scans a realistic number of files and calls', () => {
    const files = sourceDirs.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => literalKeys(readFileSync(file, 'utf8'))).length).toBeGreaterThan(30);
  });

  it('finds keys with either quote and skips template literals', () => {
    expect(literalKeys(`t('A') i18n.t("B") deps.t('C\\'s', x) t(\`D\`) set('E') format('F')`)).toEqual([
      'A',
      'B',
      "C's",
    ]);
  });

  it('knows every literal key passed to t( in web and server code', () => {
    const unknown: string[] = [];
    for (const file of sourceDirs.flatMap(sourceFiles)) {
      for (const key of literalKeys(readFileSync(file, 'utf8'))) {
        if (!isEnKey(key)) unknown.push(`${relative(root, file)}: ${key}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('knows every ErrorMessages value', () => {
    expect(Object.values(ErrorMessages).filter((message) => !isEnKey(message))).toEqual([]);
  });

  it('knows every message validation.ts can produce', () => {
    const source = readFileSync(fileURLToPath(new URL('../validation.ts', import.meta.url)), 'utf8');
    const body = source.slice(source.indexOf('function messageKey'), source.indexOf('z.config('));
    const messages = [...body.matchAll(/(['"])((?:(?!\1).)+)\1/g)]
      .map((m) => m[2]!)
      .filter((text) => /[A-Z]/.test(text[0]!));
    expect(messages).toEqual(expect.arrayContaining(['Required', 'Field can not be empty', 'Invalid email']));
    expect(messages.length).toBeGreaterThanOrEqual(14);
    expect(messages.filter((message) => !isEnKey(message))).toEqual([]);
  });
});
