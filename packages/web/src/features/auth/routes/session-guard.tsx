/**
 * The session guard as a route of its own, for the public pages that act for a user (an invite link,
 * an e-mail confirmation): loaded with them, since it reads users/me/ through TanStack Query, which
 * the entry does not carry (docs/decisions.md, entry 118).
 */
export { RequireSession as default } from '../components/require-session';
