import { useQuery } from '@tanstack/react-query';
import { ZPublicConfig } from '@stageline/shared';
import { api } from '../../shared/api';

/** GET config/: public settings, here for the running version (no session needed). */
export const getPublicConfig = async (signal?: AbortSignal) =>
  ZPublicConfig.parse(await api.get('config/', { signal, silent: true, anonymous: true }));

export const useRunningVersion = () =>
  useQuery({
    queryKey: ['config'],
    queryFn: ({ signal }) => getPublicConfig(signal),
    select: (config) => config.version,
    staleTime: Infinity,
  });
