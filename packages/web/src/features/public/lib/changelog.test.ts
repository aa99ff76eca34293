import { describe, expect, it } from 'vitest';
import { parseChangelog } from './changelog';

const sample = `# Changelog

Intro text.

## [Unreleased]

### Added

- One line.
- Two lines
  continued.
  - nested

### Fixed

- A fix.

## [1.2.0] - 2026-01-31

### Changed

- Something \`code\`.

## [1.1.0] - 2025-12-01 [YANKED]

[Unreleased]: https://example.com/compare/v1.2.0...HEAD
[1.2.0]: https://example.com/compare/v1.1.0...v1.2.0
`;

describe('parseChangelog', () => {
  const releases = parseChangelog(sample);

  it('reads releases with their dates', () => {
    expect(releases.map((r) => [r.version, r.unreleased, r.date, r.yanked])).toEqual([
      ['Unreleased', true, null, false],
      ['1.2.0', false, '2026-01-31', false],
      ['1.1.0', false, '2025-12-01', true],
    ]);
  });

  it('keeps each entry as Markdown, continuation and nested lists included', () => {
    expect(releases[0]!.sections).toEqual([
      { name: 'Added', items: ['One line.', 'Two lines\ncontinued.\n- nested'] },
      { name: 'Fixed', items: ['A fix.'] },
    ]);
    expect(releases[1]!.sections).toEqual([{ name: 'Changed', items: ['Something `code`.'] }]);
    expect(releases[2]!.sections).toEqual([]);
  });

  it('parses the repository changelog', async () => {
    const { releases: real } = await import('./changelog-content');
    expect(real[0]?.version).toBe('Unreleased');
    expect(real[0]?.sections[0]?.items.length).toBeGreaterThan(1);
  });
});
