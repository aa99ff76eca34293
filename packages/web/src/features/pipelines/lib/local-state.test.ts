import { afterEach, describe, expect, it } from 'vitest';
import { clearPipelineState, purgeStalePipelineStates, readPipelineState, writePipelineState } from './local-state';

const Day = 24 * 60 * 60 * 1000;
const state = {
  version: 3,
  layout: 'horizontal' as const,
  nodes: [{ id: '1', kind: 'root' as const, name: 'Start', x: 0, y: 0 }],
  edges: [],
};

afterEach(() => localStorage.clear());

describe('unsaved pipeline state in localStorage', () => {
  it('saves under pipelineState_{id} with a saved timestamp and reads it back', () => {
    writePipelineState(5, state, 1000);
    expect(JSON.parse(localStorage.getItem('pipelineState_5')!)).toMatchObject({ saved: 1000, version: 3 });
    expect(readPipelineState(5)).toEqual({ ...state, saved: 1000 });
    clearPipelineState(5);
    expect(readPipelineState(5)).toBeNull();
  });

  it('ignores unreadable copies', () => {
    localStorage.setItem('pipelineState_6', '{not json');
    expect(readPipelineState(6)).toBeNull();
    localStorage.setItem('pipelineState_6', '{"saved":"x"}');
    expect(readPipelineState(6)).toBeNull();
  });

  it('purges copies older than 15 days, keeps newer ones and other keys', () => {
    const now = 100 * Day;
    writePipelineState(1, state, now - 16 * Day);
    writePipelineState(2, state, now - 14 * Day);
    localStorage.setItem('pipelineState_3', 'garbage');
    localStorage.setItem('theme', 'dark');
    expect(purgeStalePipelineStates({ maintenance: false, now })).toBe(2);
    expect(readPipelineState(1)).toBeNull();
    expect(readPipelineState(2)).not.toBeNull();
    expect(localStorage.getItem('pipelineState_3')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('keeps everything in maintenance mode', () => {
    const now = 100 * Day;
    writePipelineState(1, state, now - 30 * Day);
    expect(purgeStalePipelineStates({ maintenance: true, now })).toBe(0);
    expect(readPipelineState(1)).not.toBeNull();
  });
});
