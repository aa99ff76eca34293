import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import i18next, { type TFunction } from 'i18next';
import { negotiateLanguage, type TLanguage } from '@stageline/shared';
import { baseI18nOptions } from '@stageline/shared/i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language negotiated from `Accept-Language`. */
    language: TLanguage;
    /** Translates a source string into the request's language. */
    t: TFunction;
  }
}

const i18n = i18next.createInstance();
await i18n.init({ ...baseI18nOptions, initAsync: false });

const translators = new Map<TLanguage, TFunction>();

/** A translator for a language, for work outside a request (e-mails, digests); made once per language. */
export function translatorFor(language: TLanguage): TFunction {
  let translator = translators.get(language);
  if (!translator) {
    translator = i18n.getFixedT(language);
    translators.set(language, translator);
  }
  return translator;
}

/** Gives every request its language and translator, from `Accept-Language` (docs/rules.md §API). */
export const i18nPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('language', 'en');
  app.decorateRequest('t', null as unknown as TFunction);
  app.addHook('onRequest', (request, _reply, done) => {
    request.language = negotiateLanguage(request.headers['accept-language']);
    request.t = translatorFor(request.language);
    done();
  });
});
