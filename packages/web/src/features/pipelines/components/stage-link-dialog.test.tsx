import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../shared/i18n';
import { StageLinkDialog } from './stage-link-dialog';

const options = [
  { value: 'e1', label: '→ Stage 1' },
  { value: 'e2', label: '→ End' },
];

function open(onConfirm: (value: string) => void) {
  render(
    <MantineProvider>
      <StageLinkDialog mode="disconnect" stageName="Start" options={options} onConfirm={onConfirm} onClose={() => {}} />
    </MantineProvider>,
  );
  return screen.getByTestId('flow-link-select');
}

const key = (element: HTMLElement, code: string) => fireEvent.keyDown(element, { key: code, code });

describe('the stage link dialog by keyboard', () => {
  beforeAll(async () => {
    await initI18n().changeLanguage('en');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('type, ↓, Enter, Enter: the option chosen is confirmed', () => {
    const onConfirm = vi.fn();
    const select = open(onConfirm);
    act(() => select.focus());
    fireEvent.change(select, { target: { value: 'End' } });
    key(select, 'ArrowDown');
    key(select, 'Enter');
    expect(screen.getByTestId('flow-link-confirm')).toBeEnabled();
    key(select, 'Enter');
    expect(onConfirm).toHaveBeenCalledWith('e2');
  });

  it('keeps the option ↓ chose when timers queued by opening the list run only after the keys', () => {
    // A busy browser handles key presses before timers: the list opened on focus must not take
    // back what ↓ chose before a timer of its own runs (docs/decisions.md, decision 131).
    vi.useFakeTimers();
    const onConfirm = vi.fn();
    const select = open(onConfirm);
    act(() => {
      vi.runOnlyPendingTimers();
    });
    act(() => select.focus());
    fireEvent.change(select, { target: { value: 'End' } });
    key(select, 'ArrowDown');
    expect(select).toHaveAttribute('aria-activedescendant');
    act(() => {
      vi.runOnlyPendingTimers();
    });
    key(select, 'Enter');
    expect(screen.getByTestId('flow-link-confirm')).toBeEnabled();
    key(select, 'Enter');
    expect(onConfirm).toHaveBeenCalledWith('e2');
  });
});
