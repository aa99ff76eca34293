import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './markdown';

describe('markdownToPlainText', () => {
  it.each([
    ['We do **animation** and _lighting_.', 'We do animation and lighting.'],
    ['# Studio\n\nShorts for `kids`.\n\n- one\n- two', 'Studio Shorts for kids. one two'],
    ['See [the brief](https://example.com) ~~now~~ ![cat](c.png)', 'See the brief now cat'],
    ['> quoted\nline', 'quoted line'],
    ['a <b>tag</b>', 'a <b>tag</b>'],
    ['un**believ**able *a*`b`', 'unbelievable ab'],
    ['', ''],
  ])('%j reads %j', (markdown, plain) => {
    expect(markdownToPlainText(markdown)).toBe(plain);
  });
});
