import { CloseButton, Highlight, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { guidePath, searchGuide, type TGuidePage } from '../lib/guide';
import classes from './docs.module.css';

/**
 * Search over the guide's titles and text, in the browser: the pages are bundled, so results
 * appear as you type. A result opens its page at its section.
 */
export function DocsSearch({ pages, onNavigate }: { pages: TGuidePage[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const results = useMemo(() => searchGuide(pages, query), [pages, query]);
  const searching = query.trim().length >= 2;

  const open = (slug: string, anchor: string) => {
    setQuery('');
    onNavigate?.();
    void navigate(guidePath(slug, anchor ? `#${anchor}` : ''));
  };

  return (
    <Stack gap="xs">
      <TextInput
        type="search"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setQuery('');
          if (event.key === 'Enter' && results[0]) open(results[0].page.slug, results[0].section.id);
        }}
        placeholder={t('Search the docs')}
        aria-label={t('Search the docs')}
        leftSection={<IconSearch size={16} />}
        rightSection={query ? <CloseButton size="sm" aria-label={t('Clear')} onClick={() => setQuery('')} /> : null}
        data-testid="docs-search"
      />
      {searching ? (
        <Stack gap={4} data-testid="docs-search-results" role="list">
          {results.length === 0 ? (
            <Text size="sm" c="dimmed" px="xs">
              {t('Nothing found')}
            </Text>
          ) : (
            results.map((result) => (
              <UnstyledButton
                key={`${result.page.slug}#${result.section.id}`}
                className={classes.result}
                role="listitem"
                onClick={() => open(result.page.slug, result.section.id)}
                data-testid="docs-search-result"
              >
                <Text size="sm" fw={600} lineClamp={1}>
                  {result.page.title}
                  {result.section.heading ? ` › ${result.section.heading}` : ''}
                </Text>
                <Highlight size="xs" c="dimmed" highlight={result.terms} lineClamp={3}>
                  {result.snippet}
                </Highlight>
              </UnstyledButton>
            ))
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
