import { useMutation } from '@tanstack/react-query';
import { ZMe, type TOnboarding } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { meQueryKey } from '../auth';

/**
 * PATCH users/{id}/ with the quickstart's state; the answer is the account, kept as users/me/. Not
 * silent: a failure is toasted by the transport, the quickstart itself has no form to show it in.
 */
export const setOnboarding = async (userId: number, onboarding: TOnboarding) =>
  ZMe.parse(await api.patch(`users/${userId}/`, { onboarding }));

export const useSetOnboarding = () =>
  useMutation({
    mutationFn: ({ userId, onboarding }: { userId: number; onboarding: TOnboarding }) =>
      setOnboarding(userId, onboarding),
    onSuccess: (me) => queryClient.setQueryData(meQueryKey, me),
  });
