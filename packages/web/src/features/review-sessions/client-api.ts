import {
  ZClientAccess,
  ZClientFeedback,
  ZClientLinkInfo,
  ZClientSession,
  type TClientFeedbackCreate,
} from '@stageline/shared/review-sessions';

/**
 * The client's side of a review link (docs/review-sessions.md): plain `fetch` under
 * `/api/client/{token}/`, never the app's API client, so no account's token is sent or refreshed.
 */
export class ClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

async function call(
  path: string,
  { method = 'GET', body, access, language }: { method?: string; body?: unknown; access?: string; language: string },
): Promise<unknown> {
  const response = await fetch(`/api/client/${path}`, {
    method,
    headers: {
      'accept-language': language,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(access ? { 'x-review-access': access } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const answer: unknown = await response.json().catch(() => null);
  if (response.ok) return answer;
  const record = (answer ?? {}) as Record<string, unknown>;
  if (typeof record.detail === 'string') throw new ClientError(response.status, record.detail);
  const fields = Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])),
  );
  throw new ClientError(response.status, Object.values(fields)[0]?.[0] ?? response.statusText, fields);
}

const at = (token: string) => encodeURIComponent(token);

export const clientApi = {
  info: async (token: string, language: string) => ZClientLinkInfo.parse(await call(`${at(token)}/`, { language })),
  open: async (token: string, password: string | undefined, language: string) =>
    ZClientAccess.parse(
      await call(`${at(token)}/open/`, { method: 'POST', body: password ? { password } : {}, language }),
    ),
  session: async (token: string, access: string, language: string) =>
    ZClientSession.parse(await call(`${at(token)}/session/`, { access, language })),
  feedback: async (token: string, access: string, item: number, body: TClientFeedbackCreate, language: string) =>
    ZClientFeedback.omit({ session: true }).parse(
      await call(`${at(token)}/items/${item}/feedback/`, { method: 'POST', body, access, language }),
    ),
};

/** The access of an opened link lives in this tab only (a reload keeps it; another tab asks again). */
export const accessStore = {
  get: (token: string) => sessionStorage.getItem(`reviewAccess_${token}`),
  set: (token: string, access: string) => sessionStorage.setItem(`reviewAccess_${token}`, access),
  clear: (token: string) => sessionStorage.removeItem(`reviewAccess_${token}`),
};
