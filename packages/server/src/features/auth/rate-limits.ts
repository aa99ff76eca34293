import type { RateRule } from '../../http/rate-limit';

export type { RateRule } from '../../http/rate-limit';

/**
 * Limits of the sign-in calls (docs/security.md: per address and per account). Tests lower them to
 * reach a 429 quickly, or raise them so one file's many sign-ins from 127.0.0.1 do not trip them.
 */
export type AuthLimits = {
  registerPerIp: RateRule;
  loginPerIp: RateRule;
  /**
   * Failed password sign-ins per account, whatever it was named by (username or e-mail). Past it
   * the account signs in only with an e-mailed code on top of the password, or through OAuth.
   */
  loginFailuresPerAccount: RateRule;
  otpCheckPerIp: RateRule;
  otpCheckPerToken: RateRule;
  otpSendPerIp: RateRule;
  /** Every reset request of a client address, a refused one included. */
  resetPerIp: RateRule;
  /** Reset mails one client address may ask for one e-mail: its own budget, nobody else's. */
  resetPerEmailFromIp: RateRule;
  /**
   * Reset mails to one e-mail asked from addresses its account never signed in from, all together:
   * a flood from many addresses stops here, while the owner's own addresses stay outside it.
   */
  resetPerEmail: RateRule;
};

export const defaultAuthLimits: AuthLimits = {
  registerPerIp: { max: 20, windowSeconds: 600 },
  loginPerIp: { max: 30, windowSeconds: 60 },
  loginFailuresPerAccount: { max: 10, windowSeconds: 300 },
  otpCheckPerIp: { max: 30, windowSeconds: 60 },
  otpCheckPerToken: { max: 10, windowSeconds: 600 },
  otpSendPerIp: { max: 10, windowSeconds: 60 },
  resetPerIp: { max: 10, windowSeconds: 600 },
  resetPerEmailFromIp: { max: 5, windowSeconds: 3600 },
  resetPerEmail: { max: 20, windowSeconds: 3600 },
};
