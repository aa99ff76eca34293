/**
 * The shared schemas the auth feature checks answers and forms with, and the form resolver: zod
 * and these load after the first render of /login, when a call or a form first needs them
 * (`loadAuthSchemas`, docs/decisions.md, entry 118). The rules stay the shared package's, one copy.
 */
export {
  ZCode,
  ZEmailConfirmed,
  ZEphemeral,
  ZLogin,
  ZLoginResult,
  ZMe,
  ZOAuthLinkStart,
  ZOAuthLoginResult,
  ZOAuthProvider,
  ZTokens,
} from '@stageline/shared';
export { zodResolver } from '../../shared/lib/zod-resolver';
