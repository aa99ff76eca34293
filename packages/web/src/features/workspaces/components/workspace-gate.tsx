import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { PageCard } from '../../../shared/ui/page-card';
import { useWorkspace } from '../api';
import { useOpenWorkspace } from '../hooks/use-switch-workspace';
import { useWorkspaceIdParam } from '../hooks/use-workspace-id';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * Loads the workspace of the URL for a screen; a missing or foreign one reads as not found. Once
 * loaded, it is the current workspace (the header names it: docs/decisions.md, entry 158).
 */
export function WorkspaceGate({ title, children }: { title: string; children: (workspace: TWorkspace) => ReactNode }) {
  const id = useWorkspaceIdParam();
  if (id === null) return <Missing title={title} />;
  return (
    <Loaded id={id} title={title}>
      {children}
    </Loaded>
  );
}

function Loaded({
  id,
  title,
  children,
}: {
  id: number;
  title: string;
  children: (workspace: TWorkspace) => ReactNode;
}) {
  const { t } = useTranslation();
  const workspace = useWorkspace(id);
  useOpenWorkspace(workspace.data?.id);
  const notFound = workspace.error instanceof ApiError && [403, 404].includes(workspace.error.status);
  if (notFound) return <Missing title={title} />;
  if (workspace.data) return <>{children(workspace.data)}</>;
  if (workspace.isError) {
    return (
      <PageCard title={title}>
        <LoadError retry={workspace} />
      </PageCard>
    );
  }
  return (
    <PageCard title={title}>
      <Group justify="center" py="xl">
        <Loader aria-label={t('Loading...')} />
      </Group>
    </PageCard>
  );
}

function Missing({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <PageCard title={title}>
      <Stack gap="sm" align="flex-start" data-testid="workspace-not-found">
        <Alert color="yellow">{t('Workspace not found, or you are not its member.')}</Alert>
        <Button component={Link} to={paths.app.workspaces()} variant="default">
          {t('All workspaces')}
        </Button>
      </Stack>
    </PageCard>
  );
}
