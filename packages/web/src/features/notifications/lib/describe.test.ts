import { describe, expect, it } from 'vitest';
import type { TNotification } from '@stageline/shared';
import { describeNotification } from './describe';

/** A translator that only fills the placeholders of the English key. */
const t = (key: string, params: Record<string, unknown> = {}) =>
  key.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));

const request = (text: string): TNotification => ({
  id: 1,
  kind: 'review_requested',
  read: false,
  created_at: '2026-11-24T00:00:00.000Z',
  task: { id: 7, unit: 'Shot 1', stage: 'Lighting' },
  unit: null,
  workspace: null,
  comment: null,
  actor: { id: 2, name: 'Artem', username: 'artem' },
  text,
});

describe('describeNotification', () => {
  it('names the team a review was requested from (docs/review-rules.md)', () => {
    expect(describeNotification(request('Lighting leads'), t)).toBe(
      'Artem asked Lighting leads to review Shot 1 · Lighting',
    );
    expect(describeNotification(request(''), t)).toBe('Artem asked you to review Shot 1 · Lighting');
  });
});
