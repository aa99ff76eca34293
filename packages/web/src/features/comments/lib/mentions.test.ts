import { describe, expect, it } from 'vitest';
import { activeMention, insertMention } from './mentions';

describe('mention completion', () => {
  it('finds the @name being typed before the caret, not in words or e-mail addresses', () => {
    expect(activeMention('hi @bo', 6)).toEqual({ start: 3, query: 'bo' });
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('(@ann', 5)).toEqual({ start: 1, query: 'ann' });
    expect(activeMention('mail a@b', 8)).toBeNull();
    expect(activeMention('hi @bob there', 13)).toBeNull();
    expect(activeMention('hi @bob there', 7)).toEqual({ start: 3, query: 'bob' });
  });

  it('replaces the typed part, and the rest of a name the caret was inside, with @username and a space', () => {
    expect(insertMention('hi @bo', 6, { start: 3 }, 'boris')).toEqual({ text: 'hi @boris ', caret: 10 });
    expect(insertMention('hi @bo and you', 6, { start: 3 }, 'bob')).toEqual({ text: 'hi @bob and you', caret: 8 });
    expect(insertMention('hi @bo, ok', 6, { start: 3 }, 'bob')).toEqual({ text: 'hi @bob , ok', caret: 8 });
    expect(insertMention('@b', 2, { start: 0 }, 'b.o-b')).toEqual({ text: '@b.o-b ', caret: 7 });
  });
});
