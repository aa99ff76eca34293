import { describe, expect, it } from 'vitest';
import { passwordStrength, strengthLabels } from './password-strength';
import { loadEstimator } from './use-password-strength';

describe('passwordStrength', () => {
  it("says 'too short' under 8 characters whatever the score", () => {
    expect(passwordStrength('', 4).label).toBe('too short');
    expect(passwordStrength('Zx9!qLm', 4).label).toBe('too short');
    expect(passwordStrength('Zx9!qLm', 4).value).toBeGreaterThan(0);
    // Characters, not UTF-16 units: seven emoji are seven characters.
    expect(passwordStrength('😀😀😀😀😀😀😀', 4).label).toBe('too short');
  });

  it('maps scores 0–4 to the labels of docs/rules.md §Accounts', () => {
    expect([0, 1, 2, 3, 4].map((score) => passwordStrength('long enough', score).label)).toEqual([
      'extremely weak',
      'weak',
      'bad',
      'good',
      'strong',
    ]);
    expect(strengthLabels).toEqual(['too short', 'extremely weak', 'weak', 'bad', 'good', 'strong']);
  });

  it('grows the bar with the score and clamps what the estimator may not answer', () => {
    const values = [0, 1, 2, 3, 4].map((score) => passwordStrength('long enough', score).value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(passwordStrength('long enough', 9).label).toBe('strong');
    expect(passwordStrength('long enough', -1).label).toBe('extremely weak');
    expect(passwordStrength('long enough', null).label).toBe('extremely weak');
  });

  it('rates real passwords with zxcvbn-ts', async () => {
    const estimate = await loadEstimator();
    expect(passwordStrength('password', estimate('password')).label).toBe('extremely weak');
    expect(passwordStrength('stageline2024', estimate('stageline2024', ['stageline'])).label).not.toBe('strong');
    expect(passwordStrength('correct-Horse-battery-9-staple', estimate('correct-Horse-battery-9-staple')).label).toBe(
      'strong',
    );
  });
});
