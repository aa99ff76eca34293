import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n } from '../src/shared/i18n';

// The test DOM (happy-dom) lacks the media and layout APIs Mantine and React Flow ask for.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// Mantine's autosize Textarea listens for web fonts loading (document.fonts), which the test DOM may lack.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined, ready: Promise.resolve() },
  });
}

// React Router's <ScrollRestoration> scrolls the window, which the test DOM does not implement.
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => undefined });

// Test files share their modules (`isolate: false` in vitest.config.ts), so module-level stores must
// not carry one test's state into the next: Mantine's toasts, shown or queued behind its visible limit.
afterEach(() => {
  cleanup();
  notifications.clean();
  notifications.cleanQueue();
  localStorage.clear();
});

// The language is such a store too: a file that switches to Russian must not leave the next file,
// run in the same worker, reading Russian. Each file starts in English.
beforeAll(async () => {
  await initI18n().changeLanguage('en');
});
