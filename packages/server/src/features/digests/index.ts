/** E-mail digests of notifications (issue 7): the job, its mail and the unsubscribe link. */
export { digestCron, DigestFrequencies, periodStart, type DigestFrequency } from './periods';
export { digestsRoutes, unsubscribe } from './routes';
export { runDigests, type DigestContext, type DigestRunResult } from './service';
export { signUnsubscribe, verifyUnsubscribe } from './unsubscribe-token';
