import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api';
import { describeFailure } from './oauth-return';

describe('describeFailure (docs/rules.md §Accounts: an error field or the raw data)', () => {
  it('shows the detail, else an error field', () => {
    const detail = new ApiError(400, 'x', 'oauth_failed', undefined, {
      detail: 'Failed to login',
      code: 'oauth_failed',
    });
    expect(describeFailure(detail, 'fallback')).toEqual({ message: 'Failed to login', raw: null });
    const field = new ApiError(400, 'x', undefined, undefined, { error: 'invalid_grant' });
    expect(describeFailure(field, 'fallback')).toEqual({ message: 'invalid_grant', raw: null });
  });

  it('shows the raw data when there is no message in it', () => {
    const json = new ApiError(400, 'x', undefined, { code: ['Required'] }, { code: ['Required'] });
    expect(describeFailure(json, 'fallback')).toEqual({ message: null, raw: '{\n  "code": [\n    "Required"\n  ]\n}' });
    const text = new ApiError(502, 'x', undefined, undefined, 'Bad gateway from proxy');
    expect(describeFailure(text, 'fallback')).toEqual({ message: null, raw: 'Bad gateway from proxy' });
    expect(describeFailure(new Error('boom'), 'fallback')).toEqual({ message: 'fallback', raw: null });
  });
});
