import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { parseViewState, usePipelineViewState, writeViewState } from './use-pipeline-view-state';

describe('pipeline view state in the URL', () => {
  it('round-trips every field', () => {
    const state = { fullscreen: true, horizontal: false, stage: 12, selected: [3, 4], unit: 8, task: 9 };
    const params = writeViewState(new URLSearchParams('other=x'), state);
    expect(params.toString()).toBe('other=x&fullscreen=1&horizontal=0&stage=12&selected=3%2C4&unit=8&task=9');
    expect(parseViewState(params)).toEqual(state);
  });

  it('removes keys for empty values and ignores junk', () => {
    const params = writeViewState(new URLSearchParams('fullscreen=1&stage=3&selected=1'), {
      fullscreen: false,
      stage: null,
      selected: [],
    });
    expect(params.toString()).toBe('');
    expect(parseViewState(new URLSearchParams('stage=abc&selected=1,x,2&horizontal=maybe'))).toEqual({
      fullscreen: false,
      horizontal: null,
      stage: null,
      selected: [1, 2],
      unit: null,
      task: null,
    });
  });

  it('pushes when opening and replaces when selecting', () => {
    let router!: ReturnType<typeof createMemoryRouter>;
    const wrapper = ({ children }: { children: ReactNode }) => {
      router ??= createMemoryRouter([{ path: '/p', element: children }], { initialEntries: ['/p'] });
      return <RouterProvider router={router} />;
    };
    const { result } = renderHook(() => usePipelineViewState(), { wrapper });
    act(() => result.current.open({ stage: 5 }));
    expect(result.current.stage).toBe(5);
    expect(router.state.historyAction).toBe('PUSH');
    act(() => result.current.select([5, 6]));
    expect(result.current.selected).toEqual([5, 6]);
    expect(router.state.historyAction).toBe('REPLACE');
    expect(router.state.location.search).toBe('?stage=5&selected=5%2C6');
    act(() => void router.navigate(-1));
    expect(result.current.stage).toBeNull();
  });
});
