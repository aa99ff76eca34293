import { createTheme, darken, lighten, type CSSVariablesResolver, type MantineColorScheme } from '@mantine/core';

/** A visitor who has not chosen follows the system's scheme (light, dark or system: `theme` in storage). */
export const defaultColorScheme = 'auto' satisfies MantineColorScheme;

/** The Mantine theme of the app, and of the landing page prerendered at build time. */
export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white text on filled buttons and blue links on white at WCAG AA (docs/accessibility.md).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Titles a step lighter than Mantine's 700: calmer pages, the hierarchy kept by size (docs/design.md).
  headings: { fontWeight: '600' },
  // The focus ring on keyboard focus only; it is the primary colour, visible on both schemes' surfaces.
  focusRing: 'auto',
  components: {
    // Links are told apart from the text around them by more than colour (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

/** WCAG 2 relative luminance of a `#rrggbb` or `rgba(…)` colour. */
function luminance(color: string): number {
  const hex = color.length === 4 ? color.replace(/[0-9a-f]/gi, (d) => d + d) : color;
  const channels = hex.startsWith('#')
    ? (hex.slice(1).match(/../g) ?? []).map((h) => parseInt(h, 16))
    : (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const [r, g, b] = channels.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * `color`, darkened (on a light `background`) or lightened (on a dark one) in small steps until it
 * reaches `ratio` against it: the AA ratio for normal text is 4.5, and we keep a little margin.
 */
export function readable(color: string, background: string, ratio = 4.7): string {
  const lighter = luminance(background) < 0.2;
  let result = color;
  for (let step = 1; step <= 20 && contrast(result, background) < ratio; step++) {
    result = lighter ? lighten(color, step * 0.05) : darken(color, step * 0.05);
  }
  return result;
}

const white = '#ffffff';
/** React Flow's canvas in its dark mode (`--xy-background-color-default`), under the diagram's links. */
export const diagramDark = '#141414';

/**
 * Mantine's default text colours are below AA contrast for several palettes (dimmed grey, green,
 * teal, yellow, orange…). These variables replace them per scheme with the nearest shade that
 * reaches 4.5:1 on the surfaces they are drawn on, for every colour of the palette: status badges,
 * `c="…"` texts, light/filled/outline variants, links and errors.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const darkPaper = t.colors.dark[6];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--stageline-focus-ring': t.colors[t.primaryColor]![7],
    '--mantine-color-anchor': readable(t.colors[t.primaryColor]![8], white),
    '--mantine-color-error': readable(t.colors.red[7], white),
    '--mantine-color-success': readable(t.colors.teal[8], white),
    '--mantine-color-placeholder': readable(t.colors.gray[6], white, 4.6),
    // The diagram's links: a graphical object, 3:1 against the canvas (WCAG 1.4.11); React Flow's own
    // grey was 2.1:1 on white and 1.5:1 on its dark canvas.
    '--xy-edge-stroke': readable(t.colors.gray[6], white, 3.2),
    // A stage far out (a bare box a few pixels wide, TinyZoom in flow-nodes.tsx): filled, 3:1 too.
    '--stageline-far-stage': readable(t.colors.gray[6], white, 3.2),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--stageline-focus-ring': t.colors[t.primaryColor]![4],
    '--mantine-color-anchor': readable(t.colors[t.primaryColor]![4], darkPaper),
    '--mantine-color-error': readable(t.colors.red[5], darkPaper),
    '--mantine-color-success': readable(t.colors.teal[5], darkPaper),
    '--mantine-color-placeholder': readable(t.colors.dark[2], darkPaper, 4.6),
    '--xy-edge-stroke': readable(t.colors.dark[3], diagramDark, 3.2),
    '--stageline-far-stage': readable(t.colors.dark[2], diagramDark, 3.2),
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === 'dark') continue;
    // Light scheme: text on white and on the colour's own pale background.
    const filledLight = readable(shades[8], white, 4.6);
    light[`--mantine-color-${name}-filled`] = filledLight;
    light[`--mantine-color-${name}-filled-hover`] = darken(filledLight, 0.1);
    light[`--mantine-color-${name}-text`] = readable(shades[8], white);
    light[`--mantine-color-${name}-outline`] = readable(shades[8], white);
    light[`--mantine-color-${name}-light-color`] = readable(shades[9], shades[1]);
    // Dark scheme: white on filled, pale text on the dark surfaces (body and papers).
    const filledDark = readable(shades[8], white, 4.6);
    dark[`--mantine-color-${name}-filled`] = filledDark;
    dark[`--mantine-color-${name}-filled-hover`] = darken(filledDark, 0.1);
    dark[`--mantine-color-${name}-text`] = readable(shades[4], darkPaper);
    dark[`--mantine-color-${name}-outline`] = readable(shades[4], darkPaper);
    dark[`--mantine-color-${name}-light-color`] = readable(shades[0], darken(shades[9], 0.5));
  }
  return { variables: {}, light, dark };
};
