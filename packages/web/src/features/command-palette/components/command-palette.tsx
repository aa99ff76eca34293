import { Badge, Group, Loader, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createSpotlight, Spotlight, useSpotlight } from '@mantine/spotlight';
import {
  IconBell,
  IconBookmark,
  IconBox,
  IconCheckbox,
  IconFolder,
  IconHome,
  IconLanguage,
  IconLogout,
  IconMoon,
  IconPlus,
  IconRoute,
  IconSearch,
  IconSun,
  IconTopologyStar3,
  IconUser,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Languages, paths, resolveLanguage, TaskStatusLabels, type TTaskStatus } from '@stageline/shared';
import { currentCommands, useCommandsStore } from '../../../shared/lib/commands';
import { viewSearch, viewsQueryOptions } from '../../views';
import { searchQueryOptions } from '../api';
import { readRecent, rememberRecent, type TRecent } from '../recent';
import { useRouteContext } from '../route-context';

type TEntry = {
  key: string;
  label: string;
  hint?: string;
  icon: ReactNode;
  run: () => void;
  /** Kept among the recent places when chosen. */
  recent?: Omit<TRecent, 'key'>;
};

const [paletteStore, palette] = createSpotlight();

/**
 * Marks the first entry selected, as Mantine does when the query changes — but the server's results
 * arrive later, so Enter would otherwise find nothing selected.
 */
function selectFirstEntry() {
  const list = document.querySelector('[data-testid="palette-results"]');
  if (!list || list.querySelector('[data-selected]')) return;
  const first = list.querySelector('[data-action]');
  if (!first) return;
  first.setAttribute('data-selected', 'true');
  paletteStore.setState({ ...paletteStore.getState(), selected: 0 });
}

const matches = (text: string, query: string) =>
  query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.toLowerCase().includes(word));

/**
 * The command palette (Ctrl/⌘+K, issue 20): jump to any workspace, project, pipeline, unit or task
 * by name (the server's search, debounced, within the caller's workspaces), run the open screen's
 * commands (accept the open task…), create a unit or open the editor where that makes sense, switch
 * theme or language, or log out. With no query it shows the recent places first.
 */
export function CommandPalette() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const context = useRouteContext();
  const { setColorScheme } = useMantineColorScheme();
  // What the page shows: "System" resolves to light or dark, and the command offers the other one.
  const shown = useComputedColorScheme('light');
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 200);
  const search = useQuery(searchQueryOptions(debounced));
  const screenCommands = useCommandsStore((state) => state.byOwner);
  // The project's saved views are asked for when the palette opens, not by every screen it sits on.
  const { opened } = useSpotlight(paletteStore);
  const views = useQuery({
    ...viewsQueryOptions(context.projectId ?? 0, 'matrix'),
    enabled: opened && context.projectId !== undefined,
  });

  const go = (path: string, recent?: Omit<TRecent, 'key'>) => {
    if (recent) rememberRecent({ key: recent.path, ...recent });
    void navigate(path);
  };
  const place = (key: string, label: string, hint: string, path: string, icon: ReactNode): TEntry => ({
    key,
    label,
    hint,
    icon,
    run: () => go(path, { label, hint, path }),
    recent: { label, hint, path },
  });

  const actions: TEntry[] = [
    ...currentCommands().map((command) => ({
      key: `command:${command.id}`,
      label: command.label,
      hint: command.shortcut ? t('Key {{key}}', { key: command.shortcut.toUpperCase() }) : undefined,
      icon: <IconCheckbox size={18} />,
      run: command.run,
    })),
    ...(context.projectId !== undefined
      ? [
          {
            key: 'create-unit',
            label: t('Create a unit'),
            icon: <IconPlus size={18} />,
            run: () => go(paths.app.unitCreate(context.projectId!)),
          },
        ]
      : []),
    ...(context.projectId !== undefined && context.pipelineId !== undefined
      ? [
          {
            key: 'open-editor',
            label: t('Open the diagram editor'),
            icon: <IconTopologyStar3 size={18} />,
            run: () => go(paths.app.pipelineFlow(context.projectId!, context.pipelineId!)),
          },
        ]
      : []),
    { key: 'my-work', label: t('My work'), icon: <IconHome size={18} />, run: () => go(paths.app.dashboard()) },
    {
      key: 'workspaces',
      label: t('Workspaces'),
      icon: <IconUsersGroup size={18} />,
      run: () => go(paths.app.workspaces()),
    },
    {
      key: 'notifications',
      label: t('Notifications'),
      icon: <IconBell size={18} />,
      run: () => go(paths.app.notifications()),
    },
    { key: 'profile', label: t('Profile'), icon: <IconUser size={18} />, run: () => go(paths.app.profile()) },
    {
      key: 'theme',
      label: shown === 'dark' ? t('Switch to the light theme') : t('Switch to the dark theme'),
      icon: shown === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />,
      run: () => setColorScheme(shown === 'dark' ? 'light' : 'dark'),
    },
    ...Languages.filter((language) => language !== resolveLanguage(i18n.resolvedLanguage)).map((language) => ({
      key: `language:${language}`,
      label: language === 'ru' ? 'Русский язык' : 'English language',
      icon: <IconLanguage size={18} />,
      run: () => void i18n.changeLanguage(language),
    })),
    { key: 'logout', label: t('Log out'), icon: <IconLogout size={18} />, run: () => go(paths.logout()) },
  ].filter((action) => !query.trim() || matches(action.label, query));

  const found = query.trim() ? search.data : undefined;
  const status = (value: TTaskStatus) => t(TaskStatusLabels[value]);
  const groups: { label: string; entries: TEntry[] }[] = [
    {
      label: t('Recent'),
      entries: query.trim()
        ? []
        : readRecent().map((item) => ({
            key: `recent:${item.key}`,
            label: item.label,
            hint: item.hint,
            icon: <IconSearch size={18} />,
            run: () => go(item.path, item),
          })),
    },
    { label: t('Actions'), entries: actions },
    {
      label: t('Views'),
      entries: (context.projectId !== undefined ? (views.data ?? []) : [])
        .filter((view) => !query.trim() || matches(view.name, query))
        .map((view) => ({
          key: `view:${view.id}`,
          label: view.name,
          hint: view.shared ? t('Shared') : t('Mine'),
          icon: <IconBookmark size={18} />,
          run: () => go(`${paths.app.units(context.projectId!)}?${viewSearch(view)}`),
        })),
    },
    {
      label: t('Tasks'),
      entries: (found?.tasks ?? []).map((task) =>
        place(
          `task:${task.id}`,
          `${task.unit} · ${task.stage}`,
          status(task.status),
          paths.app.task(task.id),
          <IconCheckbox size={18} />,
        ),
      ),
    },
    {
      label: t('Units'),
      entries: (found?.units ?? []).map((unit) =>
        place(`unit:${unit.id}`, unit.name, t('Unit'), paths.app.unit(unit.project, unit.id), <IconBox size={18} />),
      ),
    },
    {
      label: t('Pipelines'),
      entries: (found?.pipelines ?? []).map((pipeline) =>
        place(
          `pipeline:${pipeline.id}`,
          pipeline.name,
          t('Pipeline'),
          paths.app.pipeline(pipeline.project, pipeline.id),
          <IconRoute size={18} />,
        ),
      ),
    },
    {
      label: t('Projects'),
      entries: (found?.projects ?? []).map((project) =>
        place(
          `project:${project.id}`,
          project.name,
          t('Project'),
          paths.app.project(project.id),
          <IconFolder size={18} />,
        ),
      ),
    },
    {
      label: t('Workspaces'),
      entries: (found?.workspaces ?? []).map((workspace) =>
        place(
          `workspace:${workspace.id}`,
          workspace.name,
          t('Workspace'),
          paths.app.workspace(workspace.id),
          <IconUsersGroup size={18} />,
        ),
      ),
    },
  ].filter((group) => group.entries.length > 0);

  void screenCommands; // re-render when a screen registers or drops commands
  const searching = query.trim().length > 0 && (search.isFetching || debounced !== query.trim());
  const signature = groups.map((group) => group.entries.map((entry) => entry.key).join(',')).join('|');
  useEffect(() => {
    const frame = requestAnimationFrame(selectFirstEntry);
    return () => cancelAnimationFrame(frame);
  }, [signature]);

  return (
    <Spotlight.Root
      store={paletteStore}
      query={query}
      onQueryChange={setQuery}
      shortcut="mod + K"
      scrollable
      maxHeight={480}
      onSpotlightClose={() => setQuery('')}
    >
      <Spotlight.Search
        placeholder={t('Search or run a command…')}
        leftSection={searching ? <Loader size={16} /> : <IconSearch size={18} />}
        aria-label={t('Search or run a command…')}
        data-testid="palette-search"
        // Open, not closing: a closing palette's search stays in view while its transition runs.
        data-opened={opened || undefined}
      />
      <Spotlight.ActionsList data-testid="palette-results">
        {groups.map((group) => (
          <Spotlight.ActionsGroup key={group.label} label={group.label}>
            {group.entries.map((entry) => (
              <Spotlight.Action key={entry.key} onClick={entry.run} data-testid="palette-entry">
                <Group wrap="nowrap" gap="sm" w="100%">
                  {entry.icon}
                  <Text size="sm" truncate style={{ flex: 1 }}>
                    {entry.label}
                  </Text>
                  {entry.hint ? (
                    <Badge size="sm" variant="light" color="gray">
                      {entry.hint}
                    </Badge>
                  ) : null}
                </Group>
              </Spotlight.Action>
            ))}
          </Spotlight.ActionsGroup>
        ))}
        {groups.length === 0 && !searching ? <Spotlight.Empty>{t('Nothing found')}</Spotlight.Empty> : null}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}

/** Opens the palette (the header's search button). */
export const openPalette = () => palette.open();
