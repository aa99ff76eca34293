import { useEffect, useRef } from 'react';
import { create } from 'zustand';

/**
 * Commands the open screen offers (issue 20): accept the open task, comment… A screen registers
 * them while mounted; the command palette lists them and the keyboard layer runs them by their
 * key. One list, so a palette entry and its shortcut never disagree.
 */
export type TCommand = {
  id: string;
  /** Already translated. */
  label: string;
  /** A single key that runs it (`a`, `r`, `c`), never while typing in a field. */
  shortcut?: string;
  run: () => void;
};

type TCommandsState = { byOwner: Map<string, TCommand[]> };

export const useCommandsStore = create<TCommandsState>(() => ({ byOwner: new Map() }));

/** Every command registered now, in registration order. */
export function currentCommands(): TCommand[] {
  return [...useCommandsStore.getState().byOwner.values()].flat();
}

/**
 * Registers `commands` for as long as the calling component is mounted (and again when their ids
 * or labels change). `owner` names the registering screen part, so two parts never clobber each
 * other. A command always runs the latest `run` the component rendered.
 */
export function useRegisterCommands(owner: string, commands: TCommand[]): void {
  const latest = useRef(commands);
  useEffect(() => {
    latest.current = commands;
  });
  const key = commands
    .map((command) => `${command.id}\u0001${command.label}\u0001${command.shortcut ?? ''}`)
    .join('\u0002');
  useEffect(() => {
    const registered = latest.current.map((command) => ({
      ...command,
      run: () => latest.current.find((candidate) => candidate.id === command.id)?.run(),
    }));
    useCommandsStore.setState((state) => ({ byOwner: new Map(state.byOwner).set(owner, registered) }));
    return () =>
      useCommandsStore.setState((state) => {
        const next = new Map(state.byOwner);
        next.delete(owner);
        return { byOwner: next };
      });
  }, [owner, key]);
}
