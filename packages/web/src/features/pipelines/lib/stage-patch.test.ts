import { describe, expect, it } from 'vitest';
import { buildNode } from '../../../../test/pipelines';
import { blankMixed, changedFields, commonSettings, StageFields } from './stage-patch';

describe('bulk stage patch', () => {
  const a = buildNode({ id: 10, name: 'Design', review_mode: 'any', default_reviewers: [1] });
  const b = buildNode({ id: 11, name: 'Build', review_mode: 'any', default_reviewers: [2] });

  it('finds the mixed fields', () => {
    const { mixed, values } = commonSettings([a, b]);
    expect([...mixed].sort()).toEqual(['default_reviewers', 'name']);
    expect(values.review_mode).toBe('any');
    expect(blankMixed(values, mixed)).toMatchObject({ name: '', default_reviewers: [], review_mode: 'any' });
  });

  it('sends only the fields changed', () => {
    const { mixed, values } = commonSettings([a, b]);
    const shown = blankMixed(values, mixed);
    const edited = { ...shown, todo_enabled: false, review_mode: 'any' as const };
    expect(changedFields(values, edited, new Set(['todo_enabled', 'review_mode']), mixed)).toEqual({
      todo_enabled: false,
    });
  });

  it('leaves untouched mixed fields alone and sends touched ones as they are', () => {
    const { mixed, values } = commonSettings([a, b]);
    const shown = blankMixed(values, mixed);
    expect(changedFields(values, shown, new Set(), mixed)).toEqual({});
    expect(changedFields(values, { ...shown, default_reviewers: [3] }, new Set(['default_reviewers']), mixed)).toEqual({
      default_reviewers: [3],
    });
  });

  it('for one stage, sends what differs', () => {
    const { values } = commonSettings([a]);
    expect(changedFields(values, { ...values, name: 'Design 2' }, new Set(StageFields))).toEqual({ name: 'Design 2' });
  });
});
