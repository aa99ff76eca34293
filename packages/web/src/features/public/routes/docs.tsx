import { Anchor, Box, Button, Container, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconList } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { paths, resolveLanguage } from '@stageline/shared';
import { DocsNav } from '../components/docs-nav';
import { DocsSearch } from '../components/docs-search';
import { MarkdownView } from '../components/markdown';
import { guideAssetUrl, guide } from '../lib/guide-content';
import { guidePath, pagesFor, type TGuidePage } from '../lib/guide';
import classes from '../components/docs.module.css';

/** Scrolls to the `#anchor` of the address once the page is rendered, else to the top. */
function useScrollToAnchor(key: string) {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo({ top: 0 });
  }, [key, hash]);
}

function Pager({ previous, next }: { previous?: TGuidePage; next?: TGuidePage }) {
  const { t } = useTranslation();
  return (
    <nav className={classes.pager} aria-label={t('Pages')} data-testid="docs-pager">
      {previous ? (
        <Link className={classes.pagerLink} to={guidePath(previous.slug)} data-testid="docs-previous">
          <Group gap={4} c="dimmed" fz="xs">
            <IconChevronLeft size={14} />
            {t('Previous')}
          </Group>
          <Text fw={600}>{previous.title}</Text>
        </Link>
      ) : null}
      {next ? (
        <Link className={`${classes.pagerLink} ${classes.pagerNext}`} to={guidePath(next.slug)} data-testid="docs-next">
          <Group gap={4} c="dimmed" fz="xs" justify="flex-end">
            {t('Next')}
            <IconChevronRight size={14} />
          </Group>
          <Text fw={600}>{next.title}</Text>
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * The user guide at /docs and /docs/{page}: Markdown from docs/guide in the UI language (English
 * where a page has no translation), with the list of pages, search, and previous/next.
 */
export default function DocsScreen() {
  const { t, i18n } = useTranslation();
  const { page: slug } = useParams();
  const language = resolveLanguage(i18n.resolvedLanguage ?? i18n.language);
  const pages = useMemo(() => pagesFor(guide, language), [language]);
  const index = slug ? pages.findIndex((page) => page.slug === slug) : 0;
  const page = pages[index];
  const [drawerOpened, drawer] = useDisclosure(false);
  useScrollToAnchor(page?.slug ?? '');

  const sidebar = (onNavigate?: () => void) => (
    <Stack gap="md">
      <DocsSearch pages={pages} onNavigate={onNavigate} />
      <DocsNav pages={pages} current={page?.slug ?? ''} onNavigate={onNavigate} />
    </Stack>
  );

  return (
    <Container size="lg" py="xl" data-testid="docs">
      <Group hiddenFrom="sm" mb="md">
        <Button variant="default" leftSection={<IconList size={16} />} onClick={drawer.open} data-testid="docs-menu">
          {t('Contents')}
        </Button>
      </Group>
      <Drawer opened={drawerOpened} onClose={drawer.close} title={t('User guide')} size="xs">
        {sidebar(drawer.close)}
      </Drawer>
      <div className={classes.layout}>
        <Box component="aside" className={classes.sidebar} aria-label={t('User guide')}>
          {sidebar()}
        </Box>
        <Box component="article" miw={0} data-testid="docs-page" data-page={page?.slug}>
          {page ? (
            <>
              <MarkdownView resolveImage={guideAssetUrl}>{page.body}</MarkdownView>
              <Pager previous={pages[index - 1]} next={pages[index + 1]} />
            </>
          ) : (
            <Stack gap="sm" data-testid="docs-not-found">
              <Title order={1}>{t('Page not found')}</Title>
              <Text c="dimmed">{t('The guide has no such page.')}</Text>
              <Anchor component={Link} to={paths.docs()}>
                {t('Back to the guide')}
              </Anchor>
            </Stack>
          )}
        </Box>
      </div>
    </Container>
  );
}
