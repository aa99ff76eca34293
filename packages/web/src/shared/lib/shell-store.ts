import { create } from 'zustand';

type ShellState = {
  /** A global error: the fatal error screen replaces the page (docs/rules.md §Web). */
  fatalError: string | null;
  /** A page-level notice, such as the server being unreachable. */
  pageError: string | null;
  /** The server said it is in maintenance. */
  maintenance: boolean;
  /** The full-screen loading overlay's label, or null when hidden. */
  loadingLabel: string | null;
  setFatalError: (message: string | null) => void;
  setPageError: (message: string | null) => void;
  setMaintenance: (on: boolean) => void;
  setLoading: (label: string | null) => void;
};

/** App-wide shell state that any module (the transport included) may set. */
export const useShellStore = create<ShellState>((set) => ({
  fatalError: null,
  pageError: null,
  maintenance: false,
  loadingLabel: null,
  setFatalError: (fatalError) => set({ fatalError }),
  setPageError: (pageError) => set((state) => (state.pageError === pageError ? state : { pageError })),
  setMaintenance: (maintenance) => set({ maintenance }),
  setLoading: (loadingLabel) => set({ loadingLabel }),
}));
