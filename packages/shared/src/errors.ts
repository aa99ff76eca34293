/**
 * The closed list of error codes the API answers with, and the HTTP status of each
 * (docs/rules.md §API). Both sides import it: the server to answer, the web client to react.
 */
export const ErrorStatus = {
  bad_request: 400,
  parse_error: 400,
  validation_error: 400,
  pipeline_cycle: 400,
  invalid_credentials: 400,
  invalid_code: 400,
  invalid_token: 400,
  oauth_failed: 400,
  oauth_state_invalid: 400,
  oauth_email_missing: 400,
  oauth_last_login_method: 400,
  host_not_allowed: 400,
  not_authenticated: 401,
  token_not_valid: 401,
  permission_denied: 403,
  email_not_verified: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  oauth_email_taken: 409,
  oauth_account_taken: 409,
  oauth_already_linked: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  maintenance: 503,
  unavailable: 503,
  server_busy: 503,
} as const satisfies Record<string, number>;

export type TErrorCode = keyof typeof ErrorStatus;

/**
 * The English source message of each code when no more specific one is given. They are i18n keys:
 * translated by the server for `Accept-Language` and present in every locale file.
 */
export const ErrorMessages: Record<TErrorCode, string> = {
  bad_request: 'Bad request.',
  parse_error: 'Malformed request body.',
  validation_error: 'Invalid input.',
  pipeline_cycle: 'Cycles are not allowed...',
  invalid_credentials: 'Failed to login',
  invalid_code: 'Code is invalid, try to resend',
  invalid_token: 'Invalid token',
  oauth_failed: 'Failed to login',
  oauth_state_invalid: 'This sign-in link has expired or was opened in another browser. Please start again.',
  oauth_email_missing: 'The provider did not share an e-mail address with us.',
  oauth_last_login_method: 'You cannot unlink the last way to sign in. Set a password or link another account first.',
  oauth_email_taken:
    'An account with this e-mail already exists. Sign in with your password, then link this account in your profile.',
  oauth_account_taken: 'This account is already linked to another user.',
  oauth_already_linked: 'You already linked another account of this provider. Unlink it first.',
  host_not_allowed:
    'This address cannot be used in e-mailed links. Open the app at its public address, or set PUBLIC_URL on the server.',
  not_authenticated: 'You must be authorized',
  token_not_valid: 'Token invalid',
  permission_denied: 'Access denied',
  email_not_verified: 'Your email is not verified',
  not_found: 'Not found.',
  method_not_allowed: 'Method not allowed.',
  conflict: 'Conflict: the record was changed or already exists.',
  payload_too_large: 'Request is too large.',
  unsupported_media_type: 'Unsupported content type.',
  rate_limited: 'Too many attempts. Try again in {{seconds}} seconds.',
  internal: 'Unknown error',
  maintenance: 'Sorry, we are under maintenance. Please try again later.',
  unavailable: 'Server Unavailable. Check your Internet connection or try later.',
  server_busy: 'The server is busy. Try again in {{seconds}} seconds.',
};

/** The body of a whole-request error: `{"detail": "...", "code": "..."}`. */
export type TErrorBody = { detail: string; code: TErrorCode };

/** The body of a field error: `{"field": ["message"]}`. */
export type TFieldErrors = Record<string, string[]>;
