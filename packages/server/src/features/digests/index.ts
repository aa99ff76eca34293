/** E-mail digests of notifications (issue 7): the job, its mail and the unsubscribe link. */
export { digestCron, DigestFrequencies } from './periods';
export { digestsRoutes } from './routes';
export { runDigests, type DigestContext } from './service';
