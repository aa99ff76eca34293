import { ApiError, shownByTransport } from '../api/client';

/**
 * Server field errors (`{"field": ["message"]}`, already translated) in Mantine's shape. Here, not
 * beside the zod resolver, so a form that shows a server's errors does not load zod for it.
 */
export function fieldErrors(fields: Record<string, string[]> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(fields ?? {}).map(([field, messages]) => [field, messages.join(' ')]));
}

/**
 * Spreads a failed form call over the form (docs/rules.md §API): errors of known fields go on those
 * fields through `setErrors`, and what is left becomes the one message for the form's inline alert.
 * Null means nothing more to show: the fields carry it, or the transport already said it. A 429
 * keeps the server's translated message; other errors of unknown fields keep theirs; a whole-request
 * error says the server's reason (its translated `detail`) when it gave one, and
 * `fallback` only when it did not (issue 19: "Data was not saved" alone never says why).
 */
export function formError(
  error: unknown,
  options: { fields?: readonly string[]; setErrors?: (errors: Record<string, string>) => void; fallback?: string },
): string | null {
  if (!(error instanceof ApiError)) return options.fallback ?? (error instanceof Error ? error.message : null);
  if (shownByTransport(error)) return null;
  if (error.status === 429) return error.message;
  if (error.fields) {
    const known = options.fields ?? [];
    const all = fieldErrors(error.fields);
    const onFields = Object.fromEntries(Object.entries(all).filter(([field]) => known.includes(field)));
    const rest = Object.entries(all).filter(([field]) => !known.includes(field));
    if (Object.keys(onFields).length) options.setErrors?.(onFields);
    return rest.length ? rest.map(([, message]) => message).join(' ') : null;
  }
  return (serverReason(error) ? error.message : options.fallback) ?? error.message;
}

/** Whether a failed call's answer carried its own reason: a client error with a `detail`. */
function serverReason(error: ApiError): boolean {
  if (error.status < 400 || error.status >= 500) return false;
  const body = error.body;
  if (typeof body !== 'object' || body === null) return false;
  const { detail } = body as { detail?: unknown };
  return typeof detail === 'string' && detail !== '';
}
