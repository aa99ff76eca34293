/** What other features use of accounts and sign-in. */
export { authenticatePlugin, callerOf, type AuthUser } from './authenticate';
export { clientInfo, mailUser, publicOrigin, type AuthContext, type ClientInfo, type UserRow } from './context';
export { consumeCode } from './codes';
export { hashPassword, verifyPassword } from './passwords';
export { defaultAuthLimits, type AuthLimits } from './rate-limits';
export { loadSigningSecret } from './secret';
export { issueSession, listSessions, revokeSession, revokeUserSessions } from './sessions';
export { SessionCache, type SessionCacheOptions } from './session-cache';
export { createKeys, hashSecret, randomToken, type TokenKeys } from './tokens';
export { signJwt, verifyJwt, type JwtPayload } from './jwt';
export { assertAvailable, findUserByEmail, findUserById, findUserByLogin, isUniqueViolation } from './users-lookup';
export { beginSecondFactor, endPasswordChange } from './service';
export { authRoutes } from './routes';
export { apiTokenRoutes } from './api-token-routes';
