import { api } from '../../shared/api';

/** POST users/unsubscribe/ with a digest link's token: sets the e-mail frequency to never (no sign-in). */
export const unsubscribe = (token: string) =>
  api.post<{ detail: string }>('users/unsubscribe/', { token }, { anonymous: true, silent: true });
