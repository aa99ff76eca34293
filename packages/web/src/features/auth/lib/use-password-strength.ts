import { useEffect, useState } from 'react';
import { passwordStrength, type TStrength } from './password-strength';

type TEstimate = (password: string, userInputs?: string[]) => number;
let estimator: Promise<TEstimate> | null = null;

/** Loads the strength estimator once, in its own chunk, so the first page does not carry it. */
export function loadEstimator(): Promise<TEstimate> {
  estimator ??= import('./zxcvbn-estimator').then((module) => module.estimate);
  return estimator;
}

/** The strength of `password` by a real estimator, loaded lazily; 'too short' until it is long enough. */
export function usePasswordStrength(password: string, userInputs: string[] = []): TStrength {
  const [score, setScore] = useState<{ password: string; score: number } | null>(null);
  const inputs = userInputs.filter(Boolean).join('\n');

  useEffect(() => {
    let cancelled = false;
    if (!password) return;
    void loadEstimator().then((estimate) => {
      if (!cancelled) setScore({ password, score: estimate(password, inputs ? inputs.split('\n') : []) });
    });
    return () => {
      cancelled = true;
    };
  }, [password, inputs]);

  return passwordStrength(password, score?.password === password ? score.score : null);
}
