import type { Page } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Files in a review (docs/files.md): the artist pastes a screenshot into a comment and drops a video
 * onto the task, which plays in place; the lead opens the screenshot in the lightbox and rejects.
 * The screenshot and the video are made by the browser itself (a canvas, and MediaRecorder).
 */

/** Pastes a 320×200 PNG drawn on a canvas into the element, as a screenshot from the clipboard. */
async function pasteScreenshot(page: Page, testId: string) {
  await page.getByTestId(testId).evaluate(async (element) => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#c83c5a';
    context.fillRect(0, 0, 320, 200);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'image.png', { type: 'image/png' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

/** Drops a one-second WebM recorded from a canvas onto the element. */
async function dropVideo(page: Page, testId: string) {
  await page.getByTestId(testId).evaluate(async (element) => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(15), { mimeType: 'video/webm' });
    const parts: Blob[] = [];
    recorder.ondataavailable = (event) => parts.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 15; frame++) {
      context.fillStyle = `hsl(${frame * 24}, 70%, 50%)`;
      context.fillRect(0, 0, 160, 120);
      await new Promise((resolve) => setTimeout(resolve, 66));
    }
    recorder.stop();
    await stopped;
    const data = new DataTransfer();
    data.items.add(new File(parts, 'turntable v3.webm', { type: 'video/webm' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  });
}

test('paste a screenshot into a comment, drop a video on a task and play it, the reviewer opens the lightbox and rejects', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const team = await teamWorkspace(request, lead, [artist], 'Files studio');
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    { default_reviewers: [lead.id], default_assignees: [artist.id] },
    ['Shot 1'],
  );
  const task = flow.tasks[0]!;
  await call(request, artist, 'POST', `tasks/${task}/start/`);

  const b = await openAs(browser, baseURL, artist, team.workspace);
  await b.goto(`/app/tasks/${task}`);
  await expect(b.getByTestId('files-empty')).toBeVisible();

  await pasteScreenshot(b, 'comment-composer-input');
  await expect(b.getByTestId('comment-pending-file')).toContainText(/Screenshot .*\.png/);
  await b.getByTestId('comment-composer-input').fill('The horizon, see the screenshot');
  await b.getByTestId('comment-composer-submit').click();
  const posted = b.getByTestId('comments-list');
  await expect(posted.getByRole('img')).toBeVisible();

  await dropVideo(b, 'files-panel');
  const video = b.getByTestId('attachment-video');
  await expect(video).toBeVisible();
  await expect(b.getByTestId('files-panel')).toContainText('turntable v3.webm');
  const played = await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    await new Promise<void>((resolve) => {
      const check = () => (element.currentTime > 0 ? resolve() : requestAnimationFrame(check));
      check();
    });
    return { playing: !element.paused, time: element.currentTime };
  });
  expect(played.playing).toBe(true);
  expect(played.time).toBeGreaterThan(0);
  await call(request, artist, 'POST', `tasks/${task}/submit/`);

  const a = await openAs(browser, baseURL, lead, team.workspace);
  await a.goto(`/app/tasks/${task}`);
  await expect(a.getByTestId('task-status')).toHaveAttribute('data-status', 'review');
  // The video came before the submit: it is this round's, beside Accept and Reject.
  await expect(a.getByTestId('task-round-files')).toContainText('turntable v3.webm');
  await snap(a, 'files-review-round');
  await a.getByTestId('comments-list').getByTestId('attachment-open').click();
  const big = a.getByTestId('lightbox-image');
  await expect(big).toBeVisible();
  expect(await big.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await a.getByTestId('lightbox-zoom-in').click();
  await expect(a.getByTestId('lightbox-zoom')).toHaveText('150%');
  await snap(a, 'files-lightbox');
  await a.keyboard.press('Escape');
  await expect(big).toBeHidden();

  await a.getByTestId('task-reject').click();
  await a.getByTestId('reject-comment').fill('The horizon is tilted.');
  await a.getByTestId('reject-confirm').click();
  await expect(a.getByTestId('task-status')).toHaveAttribute('data-status', 'edit');
});
