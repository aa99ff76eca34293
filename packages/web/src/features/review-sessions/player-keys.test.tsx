import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FrameRate, usePlayerKeys } from './components/review-player';

/** The session's keys (docs/review-sessions.md): ←/→ items, Space play/pause, `,` `.` one frame. */
describe('usePlayerKeys', () => {
  const setup = () => {
    const video = document.createElement('video');
    let paused = true;
    Object.defineProperty(video, 'paused', { get: () => paused });
    video.play = vi.fn(() => {
      paused = false;
      return Promise.resolve();
    });
    video.pause = vi.fn(() => {
      paused = true;
    });
    video.currentTime = 1;
    const previous = vi.fn();
    const next = vi.fn();
    const ref = { current: video };
    const hook = renderHook(() => usePlayerKeys(ref, { previous, next }));
    const press = (key: string, target: EventTarget = window) =>
      target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    return { video, previous, next, press, hook };
  };

  it('moves between items with the arrows and plays and pauses with Space', () => {
    const { video, previous, next, press, hook } = setup();
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowLeft');
    expect(next).toHaveBeenCalledTimes(2);
    expect(previous).toHaveBeenCalledTimes(1);
    press(' ');
    expect(video.play).toHaveBeenCalledTimes(1);
    press(' ');
    expect(video.pause).toHaveBeenCalledTimes(1);
    hook.unmount();
    press('ArrowRight');
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('steps one frame back and forward, pausing first', () => {
    const { video, press } = setup();
    press('.');
    expect(video.pause).toHaveBeenCalled();
    expect(video.currentTime).toBeCloseTo(1 + 1 / FrameRate, 5);
    press(',');
    press(',');
    expect(video.currentTime).toBeCloseTo(1 - 1 / FrameRate, 5);
  });

  it('leaves the keys to a field being typed in', () => {
    const { next, press } = setup();
    const input = document.createElement('textarea');
    document.body.append(input);
    press('ArrowRight', input);
    press(' ', input);
    expect(next).not.toHaveBeenCalled();
    input.remove();
  });
});
