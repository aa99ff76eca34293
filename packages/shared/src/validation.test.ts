import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Limits } from './limits';
import { issueParams, ZId, ZName } from './validation';

function firstIssue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const issue = result.error?.issues[0];
  expect(issue).toBeDefined();
  return issue!;
}

describe('zod issues carry i18n keys', () => {
  it('a missing field is Required', () => {
    const issue = firstIssue(z.object({ name: ZName }), {});
    expect(issue.message).toBe('Required');
    expect(issue.path).toEqual(['name']);
  });

  it('a wrong type is Invalid value.', () => {
    expect(firstIssue(ZName, 5).message).toBe('Invalid value.');
  });

  it('an empty name, after trimming, can not be empty', () => {
    expect(firstIssue(ZName, '').message).toBe('Field can not be empty');
    expect(firstIssue(ZName, '   ').message).toBe('Field can not be empty');
  });

  it('a too long name names its limit through issueParams', () => {
    const issue = firstIssue(ZName, 'x'.repeat(Limits.name.max + 1));
    expect(issue.message).toBe('Ensure this field has no more than {{max}} characters.');
    expect(issueParams(issue as { maximum?: unknown })).toEqual({ max: 200 });
  });

  it('a name of exactly the limit passes and is trimmed', () => {
    expect(ZName.parse(` ${'x'.repeat(Limits.name.max)} `)).toHaveLength(Limits.name.max);
  });

  it('a bad e-mail is Invalid email', () => {
    expect(firstIssue(z.email(), 'not-an-email').message).toBe('Invalid email');
  });

  it('a longer minimum names it through issueParams', () => {
    const issue = firstIssue(z.string().min(8), 'short');
    expect(issue.message).toBe('Ensure this field has at least {{min}} characters.');
    expect(issueParams(issue as { minimum?: unknown })).toEqual({ min: 8 });
  });

  it('numbers, lists, choices and unknown keys get their own keys', () => {
    expect(firstIssue(z.number().min(1), 0).message).toBe('Ensure this value is greater than or equal to {{min}}.');
    expect(firstIssue(z.number().positive(), 0).message).toBe('Ensure this value is greater than {{min}}.');
    expect(firstIssue(z.number().max(5), 6).message).toBe('Ensure this value is less than or equal to {{max}}.');
    expect(firstIssue(z.number().lt(5), 5).message).toBe('Ensure this value is less than {{max}}.');
    expect(firstIssue(z.array(z.string()).min(2), ['a']).message).toBe('Select at least {{min}}.');
    expect(firstIssue(z.array(z.string()).max(1), ['a', 'b']).message).toBe(
      'Ensure this list has no more than {{max}} items.',
    );
    expect(firstIssue(z.enum(['a', 'b']), 'c').message).toBe('Select a valid choice.');
    expect(firstIssue(z.strictObject({}), { x: 1 }).message).toBe('Unknown field.');
    expect(firstIssue(z.string().regex(/^\d+$/), 'abc').message).toBe('Invalid format.');
  });
});

describe('issueParams', () => {
  it('keeps numeric and bigint bounds only', () => {
    expect(issueParams({ minimum: 3, maximum: BigInt(9) })).toEqual({ min: 3, max: 9 });
    expect(issueParams({ minimum: 'x' })).toEqual({});
    expect(issueParams({})).toEqual({});
  });
});

describe('ZId', () => {
  it.each([0, -1, 'abc', 2147483648, 1.5, ''])('rejects %j', (value) => {
    expect(ZId.safeParse(value).success).toBe(false);
  });

  it.each([
    [1, 1],
    ['42', 42],
    [2147483647, 2147483647],
  ])('accepts %j as %d', (value, expected) => {
    expect(ZId.parse(value)).toBe(expected);
  });
});
