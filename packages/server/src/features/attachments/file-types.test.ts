import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { attach, fileScene, mp4Head, upload } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { as, buildTeam } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** The first bytes of a Windows program (an MZ header with its PE signature). */
const exe = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x40, 0, 0, 0]),
  Buffer.from('PE\0\0'),
  Buffer.from([0x4c, 0x01]),
  Buffer.alloc(400),
]);
const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100)]);
const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');

const refusal = (type: string) => ({
  detail: `Files of type ${type} are not allowed in this workspace. An Admin can change the allowed types in the workspace settings.`,
  code: 'unsupported_media_type',
});

describe('allowed file types (decision 198)', () => {
  test('by default media, documents and archives are taken; a program is refused by name or by its bytes', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const url = `/api/workspaces/${team.workspace.id}/file_types/`;
    expect((await as(t, team.guest)('GET', url)).json()).toEqual({ allowed: ['media', 'documents', 'archives'] });

    await attach(t, team.member, { task }, { name: 'turntable.mp4', data: mp4Head });
    await attach(t, team.member, { task }, { name: 'script.pdf', data: pdf });
    await attach(t, team.member, { task }, { name: 'notes.txt', data: Buffer.from('Lighting notes\n') });
    await attach(t, team.member, { task }, { name: 'renders.zip', data: zip });

    const byName = await upload(t, team.member, { task }, { name: 'setup.exe', data: exe });
    expect(byName.statusCode).toBe(415);
    expect(byName.json()).toEqual(refusal('.exe'));
    // A script is text, but its name says what it is.
    const script = await upload(t, team.member, { task }, { name: 'run.bat', data: Buffer.from('@echo off\n') });
    expect(script.json()).toEqual(refusal('.bat'));
    // A program named like a picture: its bytes give it away.
    const disguised = await upload(t, team.member, { task }, { name: 'holiday.png', data: exe });
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json()).toEqual(refusal('application/x-msdownload'));
    // In Russian, naming the type.
    const ru = await upload(t, team.member, { task }, { name: 'setup.EXE', data: exe }, 'ru');
    expect(ru.json<{ detail: string }>().detail).toBe(
      'Файлы типа .exe в этом рабочем пространстве не принимаются. Администратор может изменить разрешённые типы в настройках рабочего пространства.',
    );
    // Nothing refused was kept.
    const list = (await as(t, team.member)('GET', `/api/attachments/?task=${task}`)).json<{
      results: { name: string }[];
    }>();
    expect(list.results.map((f) => f.name).sort()).toEqual(['notes.txt', 'renders.zip', 'script.pdf', 'turntable.mp4']);
  });

  test('Admins change the groups; uploads follow at once; members and guests may not; outsiders 404', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const url = `/api/workspaces/${team.workspace.id}/file_types/`;
    for (const user of [team.member, team.guest]) {
      expect((await as(t, user)('PUT', url, { allowed: ['other'] })).statusCode).toBe(403);
    }
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('PUT', url, { allowed: ['other'] })).statusCode).toBe(404);
    expect((await as(t, null)('GET', url)).statusCode).toBe(401);

    // Only media: a PDF is refused now; everything: a program goes.
    const media = await as(t, team.admin)('PUT', url, { allowed: ['media'] });
    expect(media.json()).toEqual({ allowed: ['media'] });
    expect((await upload(t, team.member, { task }, { name: 'script.pdf', data: pdf })).json()).toEqual(refusal('.pdf'));
    await attach(t, team.member, { task }, { name: 'turntable.mp4', data: mp4Head });

    const all = await as(t, team.owner)('PUT', url, { allowed: ['other', 'media', 'documents', 'archives'] });
    expect(all.json()).toEqual({ allowed: ['media', 'documents', 'archives', 'other'] });
    await attach(t, team.member, { task }, { name: 'tool.exe', data: exe });
    expect((await as(t, team.member)('GET', url)).json()).toEqual({
      allowed: ['media', 'documents', 'archives', 'other'],
    });

    // None: every upload is refused, with the same clear message.
    expect((await as(t, team.admin)('PUT', url, { allowed: [] })).json()).toEqual({ allowed: [] });
    expect((await upload(t, team.member, { task }, { name: 'a.mp4', data: mp4Head })).json()).toEqual(refusal('.mp4'));
  });

  test('bad input: an unknown group, a repeat, not a list: 400 naming the field', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/file_types/`;
    for (const body of [{ allowed: ['executables'] }, { allowed: ['media', 'media'] }, { allowed: 'media' }, {}]) {
      const response = await as(t, team.admin)('PUT', url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json<Record<string, unknown>>())[0]).toMatch(/^allowed/);
    }
  });
});
