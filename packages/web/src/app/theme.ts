import { createTheme } from '@mantine/core';

/** The Mantine theme of the app, and of the landing page prerendered at build time. */
export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});
