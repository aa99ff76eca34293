import { Limits } from '@stageline/shared';

/** The strength labels of docs/rules.md §Accounts, in order of strength; they are i18n keys. */
export const strengthLabels = ['too short', 'extremely weak', 'weak', 'bad', 'good', 'strong'] as const;
export type TStrengthLabel = (typeof strengthLabels)[number];

export type TStrength = {
  label: TStrengthLabel;
  /** 0–100 for a progress bar. */
  value: number;
  color: string;
};

const colors: Record<TStrengthLabel, string> = {
  'too short': 'gray',
  'extremely weak': 'red',
  weak: 'orange',
  bad: 'yellow',
  good: 'teal',
  strong: 'green',
};

/**
 * Maps a password and the estimator's score (zxcvbn's 0–4) to a label: under the minimum length
 * it is 'too short' whatever the score; then 0 extremely weak, 1 weak, 2 bad, 3 good, 4 strong.
 * A null score (the estimator still loading) reads as the weakest label of a long-enough password.
 */
export function passwordStrength(password: string, score: number | null): TStrength {
  if ([...password].length < Limits.password.min) {
    return { label: 'too short', value: password ? 10 : 0, color: colors['too short'] };
  }
  const clamped = Math.min(4, Math.max(0, Math.floor(score ?? 0)));
  const label = strengthLabels[clamped + 1]!;
  return { label, value: (clamped + 1) * 20, color: colors[label] };
}
