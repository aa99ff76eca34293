import { NavLink, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { guidePath, type TGuidePage } from '../lib/guide';

/** The guide's pages in order, the current one highlighted. */
export function DocsNav({
  pages,
  current,
  onNavigate,
}: {
  pages: TGuidePage[];
  current: string;
  onNavigate?: () => void;
}) {
  return (
    <Stack gap={2} component="nav" data-testid="docs-nav">
      {pages.map((page) => {
        const active = page.slug === current;
        return (
          <NavLink
            key={page.slug}
            component={Link}
            to={guidePath(page.slug)}
            label={page.title}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            data-testid={`docs-nav-${page.slug}`}
          />
        );
      })}
    </Stack>
  );
}
