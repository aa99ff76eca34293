import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/**
 * zxcvbn-ts with the common and English dictionaries. This module is large (the dictionaries),
 * so it is only ever imported dynamically, by `loadEstimator`.
 */
const zxcvbn = new ZxcvbnFactory({
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});

/** The 0–4 score of `password`; `userInputs` (username, e-mail, names) count as guessable words. */
export function estimate(password: string, userInputs: string[] = []): number {
  return zxcvbn.check(password, userInputs).score;
}
