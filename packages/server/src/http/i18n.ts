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

/** A translator for a language, for work outside a request (e-mails, digests). */
export function translatorFor(language: TLanguage): TFunction {
  return i18n.getFixedT(language);
}

/** Gives every request its language and translator, from `Accept-Language` (docs/rules.md §API). */
export const i18nPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('language', 'en');
  app.decorateRequest('t', null as unknown as TFunction);
  app.addHook('onRequest', async (request) => {
    request.language = negotiateLanguage(request.headers['accept-language']);
    request.t = translatorFor(request.language);
  });
});
