import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import '@fastify/rate-limit';
import { AppError } from '../../http/errors';

/** At most `max` requests per `windowSeconds`. */
export type RateRule = { max: number; windowSeconds: number };

/**
 * Limits of the sign-in calls (domain.md §8: per address and per account). Tests lower them to
 * reach a 429 quickly, or raise them so one file's many sign-ins from 127.0.0.1 do not trip them.
 */
export type AuthLimits = {
  registerPerIp: RateRule;
  loginPerIp: RateRule;
  loginPerAccount: RateRule;
  otpCheckPerIp: RateRule;
  otpCheckPerToken: RateRule;
  otpSendPerIp: RateRule;
  resetPerIp: RateRule;
  resetPerAccount: RateRule;
};

export const defaultAuthLimits: AuthLimits = {
  registerPerIp: { max: 20, windowSeconds: 600 },
  loginPerIp: { max: 30, windowSeconds: 60 },
  loginPerAccount: { max: 10, windowSeconds: 300 },
  otpCheckPerIp: { max: 30, windowSeconds: 60 },
  otpCheckPerToken: { max: 10, windowSeconds: 600 },
  otpSendPerIp: { max: 10, windowSeconds: 60 },
  resetPerIp: { max: 10, windowSeconds: 600 },
  resetPerAccount: { max: 5, windowSeconds: 3600 },
};

/** A short stable key for a value that may be long or personal (an e-mail, a token). */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

/**
 * A preHandler applying several @fastify/rate-limit counters in order (per address, per account…):
 * the first one exceeded answers 429 with Retry-After and the translated message. A key of
 * `undefined` skips that counter for the request.
 */
export function rateLimit(
  app: FastifyInstance,
  name: string,
  rules: { rule: RateRule; key: (request: FastifyRequest) => string | undefined }[],
) {
  const limiters = rules.map(({ rule, key }, index) => ({
    key,
    check: app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowSeconds * 1000,
      keyGenerator: (request) => `${name}:${index}:${key(request) ?? ''}`,
    }),
  }));
  return async (request: FastifyRequest) => {
    for (const { key, check } of limiters) {
      if (key(request) === undefined) continue;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        const seconds = Math.max(1, result.ttlInSeconds);
        throw new AppError('rate_limited', undefined, { seconds }, { 'retry-after': String(seconds) });
      }
    }
  };
}
