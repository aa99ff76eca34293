import { ZDetail } from '@stageline/shared';
import { api } from '../../shared/api';

/** POST users/unsubscribe/ with a digest link's token: sets the e-mail frequency to never (no sign-in). */
export const unsubscribe = async (token: string) =>
  ZDetail.parse(await api.post<unknown>('users/unsubscribe/', { token }, { anonymous: true, silent: true }));
