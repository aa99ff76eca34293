import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TReviewMode, TTeam } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, setStatus, taskAt } from '../../../test/units';
import { addMember, as, buildTeam, buildUser } from '../../../test/workspaces';

/**
 * Two members of a reviewer team reacting at the same instant (docs/review-rules.md). PGlite is one
 * connection: requests cannot overlap there, so this runs only on a PostgreSQL server
 * (TEST_DATABASE_URL), as CI does.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) {
  // eslint-disable-next-line no-console -- the skip must say why
  console.info('teams/concurrency.test.ts skipped: set TEST_DATABASE_URL to run it on PostgreSQL.');
}

let t: TestApp;
beforeAll(async () => {
  if (onPostgres) t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const rounds = 5;

/** A stage reviewed by a team of three (two leads and the member, who is the assignee). */
async function scene(mode: TReviewMode, requiredApprovals: number | null) {
  const ws = await buildTeam(t);
  const [lead1, lead2] = await Promise.all([buildUser(t, { prefix: 'lead' }), buildUser(t, { prefix: 'lead' })]);
  for (const user of [lead1, lead2])
    await addMember(t, { workspace: ws.workspace, user, role: 'guest', inviter: ws.owner });
  const created = await as(t, ws.admin)('POST', `/api/workspaces/${ws.workspace.id}/teams/`, { name: 'Leads' });
  const team = created.json<TTeam>();
  ok(await as(t, ws.admin)('POST', `/api/teams/${team.id}/members/`, { users: [lead1.id, lead2.id, ws.member.id] }));
  const flow = await buildFlow(t, { workspace: ws.workspace, stages: [{ reviewMode: mode, assignees: [ws.member] }] });
  const patched = await as(t, ws.member)('PATCH', `/api/stages/${flow.stages[0]}/`, {
    default_reviewer_teams: [team.id],
    required_approvals: requiredApprovals,
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const unit = await buildUnit(t, ws.member, flow);
  const id = taskAt(unit, flow, 0);
  await setStatus(t, [id], 'in_progress');
  ok(await act(t, ws.member, id, 'submit'));
  return { ws, lead1: lead1, lead2: lead2, id };
}

describe.skipIf(!onPostgres)('two team members at the same instant (PostgreSQL)', () => {
  test('"2 approvals": two accepts together both count and the task is done', async () => {
    for (let round = 0; round < rounds; round++) {
      const s = await scene('each_immediate', 2);
      const responses = await Promise.all([act(t, s.lead1, s.id, 'accept'), act(t, s.lead2, s.id, 'accept')]);
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
      const task = ok(await as(t, s.ws.member)('GET', `/api/tasks/${s.id}/`));
      expect(task.status).toBe('done');
      expect(task.review_rules).toEqual([{ team: null, approved: 2, required: 2, met: true }]);
      const reactions = await t.database.db
        .select()
        .from(schema.taskReactions)
        .where(eq(schema.taskReactions.taskId, s.id));
      expect(reactions).toHaveLength(2);
    }
  });

  test('"1 approval": the second of two accepts together comes too late (409), never a 500', async () => {
    for (let round = 0; round < rounds; round++) {
      const s = await scene('each_immediate', 1);
      const responses = await Promise.all([act(t, s.lead1, s.id, 'accept'), act(t, s.lead2, s.id, 'accept')]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const task = ok(await as(t, s.ws.member)('GET', `/api/tasks/${s.id}/`));
      expect(task).toMatchObject({ status: 'done', iteration: { accepted_by: [expect.any(Number)] } });
    }
  });
});
