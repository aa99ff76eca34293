import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  ErrorMessages,
  ErrorStatus,
  issueParams,
  negotiateLanguage,
  type TErrorBody,
  type TErrorCode,
  type TFieldErrors,
} from '@stageline/shared';
import { translatorFor } from './i18n';
import { safeErrorMessage } from './logging';

/**
 * The one error class of the server. A service throws `new AppError('not_found')`; the error
 * handler below turns it into `{"detail", "code"}` with the status of `ErrorStatus`.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: TErrorCode,
    /** An i18n key; the code's default message when omitted. */
    readonly detail: string = ErrorMessages[code],
    readonly params: Record<string, string | number> = {},
    /** Extra headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
    /** Extra fields of the body beside `detail` and `code`, such as a login's `ephemeral_token`. */
    readonly extra: Record<string, string | number> = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = ErrorStatus[code];
  }
}

/** A field error's message: an i18n key, or a key and its interpolation values. */
export type FieldMessage = string | { message: string; params: Record<string, string | number> };

/** Field errors in the `{"field": ["message"]}` shape (docs/rules.md §API); messages are i18n keys. */
export class FieldError extends Error {
  constructor(readonly fields: Record<string, FieldMessage[]>) {
    super('Invalid input.');
    this.name = 'FieldError';
  }
}

const fastifyCodes: Record<string, TErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'parse_error',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'parse_error',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_INVALID_TYPE: 'bad_request',
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: 'internal',
};

/** PostgreSQL errors that bad input or a lost race can cause: answered, never a 500. */
const postgresCodes: Record<string, TErrorCode> = {
  '23505': 'conflict', // unique_violation
  '23503': 'conflict', // foreign_key_violation
  '23514': 'bad_request', // check_violation
  '22P02': 'bad_request', // invalid_text_representation
  '22003': 'bad_request', // numeric_value_out_of_range
  '22001': 'bad_request', // string_data_right_truncation
  '22007': 'bad_request', // invalid_datetime_format
  '22008': 'bad_request', // datetime_field_overflow
  '22021': 'bad_request', // character_not_in_repertoire (a NUL byte in text)
  '22P05': 'bad_request', // untranslatable_character
  '54000': 'bad_request', // program_limit_exceeded (a value too large to index)
  '40001': 'conflict', // serialization_failure
  '40P01': 'conflict', // deadlock_detected
};

function statusCodeOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

function codeForStatus(status: number): TErrorCode {
  const found = (Object.entries(ErrorStatus) as [TErrorCode, number][]).find(([, s]) => s === status);
  return found ? found[0] : status >= 500 ? 'internal' : 'bad_request';
}

function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: TErrorCode,
  detail?: string,
  params?: Record<string, string | number>,
  extra: Record<string, string | number> = {},
) {
  const body: TErrorBody = { ...extra, detail: request.t(detail ?? ErrorMessages[code], params ?? {}), code };
  return reply.status(ErrorStatus[code]).type('application/json; charset=utf-8').send(body);
}

function postgresCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Installs the single error handler and the JSON 404 for unknown API routes. Validation errors name
 * their fields; Fastify's parse errors, PostgreSQL constraint errors and AppErrors become their
 * codes; anything else is logged and answered as a bare 500.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return sendError(reply, request, error.code, error.detail, error.params, error.extra);
    }
    if (error instanceof FieldError) {
      const fields: TFieldErrors = {};
      for (const [field, messages] of Object.entries(error.fields)) {
        fields[field] = messages.map((m) => (typeof m === 'string' ? request.t(m) : request.t(m.message, m.params)));
      }
      return reply.status(400).send(fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      if (error.validationContext === 'params') return sendError(reply, request, 'not_found');
      const fields: TFieldErrors = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'detail';
        const params = issueParams(issue.params);
        (fields[key] ??= []).push(request.t(issue.message ?? 'Invalid value.', params));
      }
      if (Object.keys(fields).length === 1 && fields.detail) {
        return reply.status(400).send({ detail: fields.detail.join(' '), code: 'validation_error' });
      }
      return reply.status(400).send(fields);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return sendError(reply, request, 'internal');
    }
    const fastifyCode = error.code ? fastifyCodes[error.code] : undefined;
    if (fastifyCode && fastifyCode !== 'internal') return sendError(reply, request, fastifyCode);
    const pgCode = postgresCode(error);
    if (pgCode && postgresCodes[pgCode]) {
      request.log.info({ pgCode, msg: safeErrorMessage(error) }, 'database refused the input');
      return sendError(reply, request, postgresCodes[pgCode]);
    }
    const status = statusCodeOf(error);
    if (status && status >= 400 && status < 500) {
      if (status === 429) {
        const retryAfter = Number(reply.getHeader('retry-after') ?? 60);
        return sendError(reply, request, 'rate_limited', undefined, { seconds: retryAfter });
      }
      return sendError(reply, request, codeForStatus(status));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, 'internal');
  });
}

/**
 * Fastify's `frameworkErrors`: a URL that does not decode (`%E0%A4%A`) is a 400, a path parameter
 * longer than the router takes names no record (404, like any bad id). Fastify answers these before
 * any hook runs, so the request has no translator yet: it gets one from `Accept-Language` here.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.t = translatorFor(negotiateLanguage(request.headers['accept-language']));
  void sendError(reply, request, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'not_found' : 'bad_request');
}

/** The JSON 404 of an unknown `/api/...` route. */
export function sendApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, request, 'not_found');
}
