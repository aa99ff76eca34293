import type { FastifyInstance } from 'fastify';
import { AppError, FieldError } from './errors';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Input no route schema needs to think about (docs/security.md):
 * - a body in a charset other than UTF-8 is refused (415): Fastify would read it as UTF-8 anyway and
 *   store garbage;
 * - a JSON body that is not valid UTF-8 is refused (400 `parse_error`) rather than stored with U+FFFD;
 * - a NUL character anywhere in the path, the query or a JSON body is a field error (400): PostgreSQL
 *   text cannot hold it, so it would otherwise fail deep inside a statement as a 500.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Fastify decodes a JSON body leniently: bytes that are not UTF-8 would be stored as U+FFFD. The
  // body is decoded strictly here, then parsed by Fastify's own parser (prototype poisoning refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new AppError('parse_error', 'The request body is not valid UTF-8.'), undefined);
      return;
    }
    void parseJson(request, text, done);
  });

  // Callback hooks, not async ones: they never wait, and every request runs them (decision 119).
  app.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    const charset = type ? /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type)?.[1]?.toLowerCase() : undefined;
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new AppError('unsupported_media_type', 'Send the request body in UTF-8.'));
    } else done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const fields: Record<string, string[]> = {};
    for (const part of [request.params, request.query, request.body]) {
      for (const field of fieldsWithNul(part)) fields[field] = ['Null characters are not allowed.'];
    }
    done(Object.keys(fields).length > 0 ? new FieldError(fields) : undefined);
  });
}

/**
 * The dotted paths (`users.2`, `nodes.0.name`) of the strings inside `value` that hold a NUL, in
 * keys or values. Walked with an explicit stack: a body of a million nested arrays must not
 * overflow the call stack.
 */
export function fieldsWithNul(value: unknown): string[] {
  const found: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0 && found.length < 20) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) found.push(path || 'detail');
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: path ? `${path}.${index}` : String(index) }));
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        const name = key.replaceAll('\u0000', '');
        const itemPath = path ? `${path}.${name}` : name;
        if (key.includes('\u0000')) found.push(itemPath || 'detail');
        else stack.push({ value: item, path: itemPath });
      }
    }
  }
  return found;
}
