import { Alert, Button, Group, Menu, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  IconBookmark,
  IconBookmarkPlus,
  IconDeviceFloppy,
  IconPencil,
  IconTrash,
  IconUsers,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TView } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { createView, deleteView, updateView, viewOfSearch, viewSearch, viewsQueryOptions } from '../api';

type TViewKind = TView['kind'];
type TDialog = { mode: 'create' } | { mode: 'edit'; view: TView };

/** The same filters and sort, whatever the order of the URL's parameters. */
const sameQuery = (a: string, b: string) => {
  const sorted = (query: string) =>
    [...new URLSearchParams(query)]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&');
  return sorted(a) === sorted(b);
};

/**
 * Saved views beside a screen's filters (issue 20): apply one (the URL takes its filters, so a view
 * is also a link), save the current filters by name for oneself or shared with the workspace, and
 * update, rename, share or delete the open view when the server says the caller may (`can_edit`).
 */
export function SavedViews({ projectId, kind, canShare }: { projectId: number; kind: TViewKind; canShare: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const views = useQuery(viewsQueryOptions(projectId, kind));
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const current = viewOfSearch(params);
  const currentQuery = viewSearch(current);
  const list = views.data ?? [];
  const open = list.find((view) => sameQuery(viewSearch(view), currentQuery));
  const mine = list.filter((view) => !view.shared);
  const shared = list.filter((view) => view.shared);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      showToast({ kind: 'success', message: done });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    }
  };

  const item = (view: TView) => (
    <Menu.Item
      key={view.id}
      onClick={() => setParams(new URLSearchParams(viewSearch(view)), { replace: false })}
      leftSection={view.shared ? <IconUsers size={14} /> : <IconBookmark size={14} />}
      rightSection={
        view.shared && view.author ? (
          <Text size="xs" c="dimmed">
            {view.author.name}
          </Text>
        ) : null
      }
      aria-current={view.id === open?.id ? 'true' : undefined}
      data-testid="view-item"
    >
      {view.name}
    </Menu.Item>
  );

  return (
    <>
      <Menu position="bottom-start" shadow="md" width={280}>
        <Menu.Target>
          <Button
            variant={open ? 'light' : 'default'}
            leftSection={<IconBookmark size={16} />}
            mb={1}
            maw={240}
            data-testid="views-menu"
          >
            <Text span size="sm" truncate>
              {open ? open.name : t('Views')}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="views-dropdown">
          {views.isError ? <Menu.Label c="red">{t('Error while loading data')}</Menu.Label> : null}
          {mine.length ? <Menu.Label>{t('My views')}</Menu.Label> : null}
          {mine.map(item)}
          {shared.length ? <Menu.Label>{t('Shared with the workspace')}</Menu.Label> : null}
          {shared.map(item)}
          {list.length === 0 && views.isSuccess ? <Menu.Label>{t('No saved views yet.')}</Menu.Label> : null}
          <Menu.Divider />
          <Menu.Item
            leftSection={<IconBookmarkPlus size={14} />}
            onClick={() => setDialog({ mode: 'create' })}
            data-testid="view-save"
          >
            {t('Save the current filters as a view…')}
          </Menu.Item>
          {open?.can_edit ? (
            <>
              <Menu.Item
                leftSection={<IconDeviceFloppy size={14} />}
                onClick={() => void act(() => updateView(open.id, current), t('View updated'))}
                data-testid="view-update"
              >
                {t('Update “{{name}}” with the current filters', { name: open.name })}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconPencil size={14} />}
                onClick={() => setDialog({ mode: 'edit', view: open })}
                data-testid="view-edit"
              >
                {t('Rename or share “{{name}}”…', { name: open.name })}
              </Menu.Item>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={() => void act(() => deleteView(open.id), t('View deleted'))}
                data-testid="view-delete"
              >
                {t('Delete “{{name}}”', { name: open.name })}
              </Menu.Item>
            </>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.mode === 'edit' ? t('Rename or share the view') : t('Save view')}
      >
        {dialog ? (
          <ViewForm
            initial={dialog.mode === 'edit' ? dialog.view : null}
            canShare={canShare}
            onSubmit={async ({ name, shared: isShared }) => {
              if (dialog.mode === 'edit') await updateView(dialog.view.id, { name, shared: isShared });
              else await createView({ project: projectId, kind, name, shared: isShared, ...current });
              showToast({ kind: 'success', message: dialog.mode === 'edit' ? t('View updated') : t('View saved') });
              setDialog(null);
            }}
          />
        ) : null}
      </Modal>
    </>
  );
}

type TViewFormValues = { name: string; shared: boolean };

function ViewForm({
  initial,
  canShare,
  onSubmit,
}: {
  initial: TView | null;
  canShare: boolean;
  onSubmit: (values: TViewFormValues) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<TViewFormValues>({
    initialValues: { name: initial?.name ?? '', shared: initial?.shared ?? false },
    validate: { name: (value) => (value.trim() ? null : t('This field is required.')) },
  });
  const submit = async (values: TViewFormValues) => {
    setError(null);
    try {
      await onSubmit({ ...values, name: values.name.trim() });
    } catch (failure) {
      setError(
        formError(failure, {
          fields: ['name', 'shared'],
          setErrors: form.setErrors,
          fallback: t('Data was not saved'),
        }),
      );
    }
  };
  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate data-testid="view-form">
      <Stack gap="sm">
        {error ? (
          <Alert color="red" data-testid="view-form-error">
            {error}
          </Alert>
        ) : null}
        <TextInput label={t('Name')} required data-autofocus data-testid="view-name" {...form.getInputProps('name')} />
        <Switch
          label={t('Share with the workspace')}
          description={
            canShare
              ? t('Everyone in the workspace sees it beside the matrix.')
              : t('Guests keep views for themselves.')
          }
          disabled={!canShare}
          data-testid="view-shared"
          {...form.getInputProps('shared', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} data-testid="view-submit">
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
