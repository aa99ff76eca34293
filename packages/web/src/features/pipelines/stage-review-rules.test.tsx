import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import type { TStage } from '@stageline/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../../shared/api/query-client';
import { buildNode } from '../../../test/pipelines';
import { json, serve, setupAppHarness } from '../../../test/app-harness';
import { rulesChanged, StageReviewRules, type TRulesDraft } from './components/stage-review-rules';

setupAppHarness();

const stage: TStage = {
  ...buildNode({ id: 12, name: 'Compositing' }),
  pipeline: 7,
  required_approvals: null,
  allow_self_review: false,
  enforce_review: false,
  team_rules: [],
  default_assignee_teams: [],
  default_reviewer_teams: [],
};

describe('a stage’s review rules', () => {
  it('“Enforce for everyone but Admins” says who can skip the review, and goes into the draft the Save sends', async () => {
    serve('admin', (call) => {
      if (call.method === 'GET' && call.url === '/api/stages/12/') return json(200, stage);
      if (call.method === 'GET' && call.url === '/api/workspaces/7/teams/') return json(200, []);
      if (call.method === 'PATCH' && call.url === '/api/stages/12/')
        return json(200, { ...stage, ...(call.body as object) });
      return undefined;
    });
    const draftRef = createRef<TRulesDraft>() as { current: TRulesDraft };
    render(
      <MantineProvider>
        <QueryClientProvider client={queryClient}>
          <StageReviewRules stageId={12} projectId={5} draftRef={draftRef} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const bypass = await screen.findByTestId('stage-rules-bypass');
    expect(bypass).toHaveTextContent('Who can skip this review (set Done by hand): Member, Admin, Owner');
    fireEvent.click(screen.getByLabelText('Enforce for everyone but Admins'));
    expect(bypass).toHaveTextContent('Who can skip this review (set Done by hand): Admin, Owner');
    // The section has no Save of its own: the settings form's one Save sends the draft (decision 201).
    expect(screen.queryByTestId('stage-rules-save')).toBeNull();
    await waitFor(() => expect(draftRef.current?.rules.enforce_review).toBe(true));
    expect(rulesChanged(draftRef.current)).toBe(true);
    expect(draftRef.current?.stageId).toBe(12);
  });
});
