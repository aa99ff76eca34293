import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../ui/toast';

/** The states of the generic record loader (docs/rules.md §Web), plus the two ways it cannot start. */
export type TRecordStatus = 'no-id' | 'loading' | 'loaded' | 'saved' | 'deleted' | 'failed';

export type TRecordOptions<T, TKey extends QueryKey, TChanges> = {
  /** The model's name: the id is read from the URL parameter `{model}Id` (docs/rules.md §Web). */
  model: string;
  /** The translated label the messages name the record by ('Project'). */
  label: string;
  /** Query options for the record with this id; the fetcher should be `silent` (the loader speaks). */
  query: (id: number) => UseQueryOptions<T, Error, T, TKey>;
  /** The model's home route: where a load failure and a delete lead. Gets the record when known. */
  homePath: (record: T | undefined) => string;
  /** A context that may have no id shows nothing instead of the 'no id' error. */
  allowEmpty?: boolean;
  /** Sends changes (a mutation's `mutateAsync`, which invalidates by key). */
  save?: (id: number, changes: TChanges) => Promise<T>;
  /** Deletes the record (a mutation's `mutateAsync`). */
  remove?: (id: number) => Promise<unknown>;
};

/** Where the form of a record screen wants field errors of a failed save. */
export type TSaveTarget = {
  fields?: readonly string[];
  setErrors?: (errors: Record<string, string>) => void;
};

/** Parses the `{model}Id` parameter; null when absent or not a positive integer. */
export function parseRecordId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The generic record loader (docs/rules.md §Web) every record screen uses: reads the id from the
 * URL, loads the record, and saves or deletes it with the catalogue's messages. A failed load (404
 * included) says 'Error wile loading data' and goes to the model's home route; a failed save keeps
 * the form's field errors and says 'Error wile sending data'; a delete says 'Deleted' and goes home.
 */
export type TRecord<T, TChanges = never> = {
  status: TRecordStatus;
  /** The id of the URL, or null when there is none. */
  id: number | null;
  data: T | undefined;
  label: string;
  allowEmpty: boolean;
  /** Sends changes; the saved record, or null when it failed (field errors are on the form). */
  save: (changes: TChanges, target?: TSaveTarget) => Promise<T | null>;
  /** Deletes and goes home; false when it failed. */
  remove: () => Promise<boolean>;
  saving: boolean;
  deleting: boolean;
};

export function useRecord<T, TKey extends QueryKey, TChanges = never>(
  options: TRecordOptions<T, TKey, TChanges>,
): TRecord<T, TChanges> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = parseRecordId(params[`${options.model}Id`]);
  const [phase, setPhase] = useState<'saved' | 'deleted' | null>(null);
  const [busy, setBusy] = useState<'saving' | 'deleting' | null>(null);
  const query = useQuery({
    ...options.query(id ?? 0),
    enabled: id !== null && phase !== 'deleted',
  });
  const { label, homePath } = options;

  // A load failure is said once per id, then the person is taken home.
  const reported = useRef<number | null>(null);
  const failed = id !== null && query.isError && query.data === undefined && phase !== 'deleted';
  useEffect(() => {
    if (!failed || reported.current === id) return;
    reported.current = id;
    showToast({ kind: 'error', message: t('Error wile loading data: {{label}} {{id}}', { label, id }) });
    void navigate(homePath(undefined), { replace: true });
  }, [failed, id, label, homePath, navigate, t]);

  const save = async (changes: TChanges, target: TSaveTarget = {}): Promise<T | null> => {
    if (id === null || !options.save) return null;
    setBusy('saving');
    try {
      const record = await options.save(id, changes);
      setPhase('saved');
      showToast({ kind: 'success', message: t('Saved') });
      return record;
    } catch (error) {
      // Field errors go on the form; the toast names the record. Fetched here, not with the loader:
      // its chunk holds Mantine's form library, which the screens that only read a record (the
      // diagram editor, the pipeline's view) would load for nothing (docs/decisions.md, entry 133).
      const { formError } = await import('../lib/form-errors');
      formError(error, { fields: target.fields, setErrors: target.setErrors });
      showToast({ kind: 'error', message: t('Error wile sending data: {{label}} {{id}}', { label, id }) });
      return null;
    } finally {
      setBusy(null);
    }
  };

  const remove = async (): Promise<boolean> => {
    if (id === null || !options.remove) return false;
    const record = query.data;
    setBusy('deleting');
    try {
      await options.remove(id);
      setPhase('deleted');
      showToast({ kind: 'success', message: t('Deleted') });
      await navigate(homePath(record), { replace: true });
      return true;
    } catch {
      showToast({ kind: 'error', message: t('Error wile deleting: {{label}} {{id}}', { label, id }) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  let status: TRecordStatus;
  if (id === null) status = 'no-id';
  else if (phase === 'deleted') status = 'deleted';
  else if (query.data !== undefined) status = phase === 'saved' ? 'saved' : 'loaded';
  else if (failed) status = 'failed';
  else status = 'loading';

  return {
    status,
    id,
    data: query.data,
    label,
    allowEmpty: options.allowEmpty ?? false,
    save,
    remove,
    saving: busy === 'saving',
    deleting: busy === 'deleting',
  };
}
