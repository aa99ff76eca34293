import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, diagramDark, theme } from './theme';

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const variables = cssVariablesResolver(full);
const colors = Object.keys(full.colors).filter((name) => name !== 'dark');
const white = '#ffffff';
const darkPaper = full.colors.dark[6];

/** WCAG AA for normal text is 4.5:1 (docs/accessibility.md). */
const AA = 4.5;

describe('the theme’s colours reach AA contrast', () => {
  it.each(colors)('%s in the light scheme: text, outline and light variant, and white on filled', (name) => {
    const light = variables.light;
    expect(contrast(light[`--mantine-color-${name}-text`]!, white)).toBeGreaterThanOrEqual(AA);
    expect(contrast(light[`--mantine-color-${name}-outline`]!, white)).toBeGreaterThanOrEqual(AA);
    expect(contrast(white, light[`--mantine-color-${name}-filled`]!)).toBeGreaterThanOrEqual(AA);
    expect(contrast(light[`--mantine-color-${name}-light-color`]!, full.colors[name]![1])).toBeGreaterThanOrEqual(AA);
  });

  it.each(colors)('%s in the dark scheme: text and outline on papers, and white on filled', (name) => {
    const dark = variables.dark;
    expect(contrast(dark[`--mantine-color-${name}-text`]!, darkPaper)).toBeGreaterThanOrEqual(AA);
    expect(contrast(dark[`--mantine-color-${name}-outline`]!, darkPaper)).toBeGreaterThanOrEqual(AA);
    expect(contrast(white, dark[`--mantine-color-${name}-filled`]!)).toBeGreaterThanOrEqual(AA);
  });

  it('dimmed text, links and errors in both schemes', () => {
    for (const key of ['--mantine-color-dimmed', '--mantine-color-anchor', '--mantine-color-error'] as const) {
      expect(contrast(variables.light[key]!, white)).toBeGreaterThanOrEqual(AA);
      expect(contrast(variables.dark[key]!, darkPaper)).toBeGreaterThanOrEqual(AA);
    }
  });

  it('the diagram’s links, and its stages far out, stand out at 3:1 on its canvas in both schemes', () => {
    for (const key of ['--xy-edge-stroke', '--stageline-far-stage'] as const) {
      expect(contrast(variables.light[key]!, white)).toBeGreaterThanOrEqual(3);
      expect(contrast(variables.dark[key]!, diagramDark)).toBeGreaterThanOrEqual(3);
    }
  });

  it('the focus ring stands out at 3:1 on both schemes’ surfaces', () => {
    expect(contrast(variables.light['--stageline-focus-ring']!, white)).toBeGreaterThanOrEqual(3);
    expect(contrast(variables.dark['--stageline-focus-ring']!, full.colors.dark[7])).toBeGreaterThanOrEqual(3);
  });
});
