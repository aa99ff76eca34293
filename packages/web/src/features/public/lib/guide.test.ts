import { describe, expect, it } from 'vitest';
import { buildGuide, pagesFor, plainText, searchGuide, slugify } from './guide';

const sources = {
  '/docs/guide/en/tasks.md':
    '---\norder: 2\n---\n\n# Tasks\n\nA task is one unit at one stage.\n\n## Statuses\n\nTo do, Done.\n',
  '/docs/guide/en/intro.md':
    '---\norder: 1\n---\n\n# Getting started\n\nSign up with a code.\n\n```sh\n# not a heading\nnpm start\n```\n',
  '/docs/guide/ru/tasks.md': '---\norder: 2\n---\n\n# Задачи\n\nЗадача — это юнит на этапе. Ёлка.\n',
};

describe('the guide', () => {
  const guide = buildGuide(sources);

  it('orders pages by front matter and takes the first heading as title', () => {
    expect(guide.en!.map((page) => [page.slug, page.title])).toEqual([
      ['intro', 'Getting started'],
      ['tasks', 'Tasks'],
    ]);
  });

  it('splits sections at headings outside code blocks', () => {
    const intro = guide.en![0]!;
    expect(intro.sections.map((section) => section.id)).toEqual(['']);
    expect(intro.sections[0]!.text).toContain('npm start');
    expect(guide.en![1]!.sections.map((section) => section.id)).toEqual(['', 'statuses']);
  });

  it('shows English pages where a translation is missing', () => {
    expect(pagesFor(guide, 'ru').map((page) => page.title)).toEqual(['Getting started', 'Задачи']);
  });

  it('finds every word, ranks titles first, and folds case and ё', () => {
    const en = pagesFor(guide, 'en');
    expect(searchGuide(en, 'task').map((r) => r.page.slug)[0]).toBe('tasks');
    expect(searchGuide(en, 'sign code').map((r) => r.page.slug)).toEqual(['intro']);
    expect(searchGuide(en, 'sign nothing')).toEqual([]);
    expect(searchGuide(en, 'a')).toEqual([]);
    expect(searchGuide(pagesFor(guide, 'ru'), 'елка').map((r) => r.page.slug)).toEqual(['tasks']);
  });

  it('makes anchors and plain text', () => {
    expect(slugify('Each reviewer, wait')).toBe('each-reviewer-wait');
    expect(slugify('Режимы проверки')).toBe('режимы-проверки');
    expect(plainText('See [the **API**](api.md) and ![a diagram](x.svg).')).toBe('See the API and a diagram.');
  });
});
