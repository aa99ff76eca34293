import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconDeviceFloppy,
  IconEdit,
  IconHierarchy,
  IconMaximize,
  IconMinimize,
  IconPlus,
  IconRestore,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Panel, useReactFlow, type Connection, type FinalConnectionState, type OnConnectEnd } from '@xyflow/react';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type DragEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker } from 'react-router';
import { useStore } from 'zustand';
import {
  connectOrphans,
  findCycle,
  findOrphans,
  GraphErrorMessages,
  Limits,
  paths,
  validateGraph,
  type TGraphErrorCode,
  type TGraphSaveResult,
  type TLayout,
  type TPipeline,
  type TPipelineNode,
} from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { pipelineQuery, saveGraph } from '../api';
import { useDialog } from '../hooks/use-dialog';
import { useFullscreen } from '../hooks/use-fullscreen';
import { connectionError } from '../lib/connection';
import {
  createEditorStore,
  snapshotToStored,
  storedToSnapshot,
  type TEditorState,
  type TEditorStore,
} from '../lib/editor-store';
import {
  buildGraphSave,
  graphSignature,
  isTmpId,
  makeFlowEdge,
  NodeSizes,
  tasksRemovedBy,
  type TFlowNode,
} from '../lib/graph-model';
import { layoutGraph, preloadLayout, type TPoint } from '../lib/layout';
import { clearPipelineState, readPipelineState, writePipelineState } from '../lib/local-state';
import type { TFlowActions } from './flow-actions';
import classes from './flow.module.css';
import { PipelineDiagram } from './pipeline-diagram';
import { StageSettingsDrawer } from './stage-settings-form';

type TDialogKind = 'restore' | 'tasks' | 'orphans' | 'conflict' | 'save-first';
type TAnswer = 'yes' | 'no' | 'connect' | 'skip' | 'reload' | 'overwrite' | 'save';
const DragType = 'application/x-stageline-stage';
const deleteKeys = ['Delete', 'Backspace'];
const multiKeys = ['Shift', 'Control', 'Meta'];
const fitViewOptions = { padding: 0.15, maxZoom: 1.25 };

// elk's worker starts, and warms up, while the pipeline is still being fetched.
preloadLayout();

/** elk's layout of the graph in `from`, under way; `from` tells an edit made meanwhile. */
type TPendingLayout = { from: TEditorState; result: Promise<Map<string, TPoint>> };
function startLayout(from: TEditorState): TPendingLayout {
  const nodes = from.nodes.map((n) => ({ id: n.id, width: n.width, height: n.height }));
  return { from, result: layoutGraph(nodes, from.edges, from.layout) };
}

/** Whether any node moved, or the history moved on, since `before`: an edit made while elk worked. */
function changedSince(before: TEditorState, now: TEditorState) {
  if (now.history !== before.history || now.layout !== before.layout) return true;
  if (now.nodes === before.nodes) return false;
  const was = new Map(before.nodes.map((n) => [n.id, n.position]));
  return now.nodes.some((n) => was.get(n.id) !== n.position);
}

/** The ids of the selected stages: read on demand, never kept in sync on every drag frame. */
const selectedStageIds = (nodes: readonly TFlowNode[]) =>
  nodes.filter((n) => n.selected && n.data.kind === 'stage').map((n) => n.id);
function countSelectedStages(nodes: readonly TFlowNode[]) {
  let count = 0;
  for (const n of nodes) if (n.selected && n.data.kind === 'stage') count += 1;
  return count;
}

function isTyping(target: EventTarget | null) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * The flow editor (docs/rules.md §Web, issue 5): every graph change goes through the editor store, which
 * keeps undo history and the saved baseline; this component wires React Flow, the toolbar, the
 * save flow (validation, deleted tasks, orphans, 409, cycle), the unsaved copy in localStorage and
 * the prompts before leaving.
 */
export function FlowEditor({ pipeline, projectId }: { pipeline: TPipeline; projectId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const flow = useReactFlow<TFlowNode>();
  const [store] = useState(() => createEditorStore(pipeline));
  // Saved without positions: elk starts before the first render (which then overlaps it), not after.
  const [firstLayout] = useState(() => (store.getState().provisional ? startLayout(store.getState()) : null));
  // Only values that change with an edit, never with a drag frame: the canvas below subscribes to
  // nodes and edges itself, so dragging re-renders neither the toolbar nor the dialogs.
  const layout = useStore(store, (s) => s.layout);
  const dirty = useStore(store, (s) => s.dirty);
  const provisional = useStore(store, (s) => s.provisional);
  const canUndo = useStore(store, (s) => s.history.past.length > 0);
  const canRedo = useStore(store, (s) => s.history.future.length > 0);
  const stageCount = useStore(store, (s) => s.nodes.length - 2);
  const selectedCount = useStore(store, (s) => countSelectedStages(s.nodes));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [organizing, setOrganizing] = useState(false);
  const [settingsFor, setSettingsFor] = useState<TPipelineNode[] | null>(null);
  const { dialog, ask, answer } = useDialog<TDialogKind, TAnswer>();
  const { fullscreen, toggleFullscreen } = useFullscreen();
  const canvasRef = useRef<HTMLDivElement>(null);
  const errorTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pipelineId = pipeline.id;

  const showError = useCallback(
    (message: string | null, options: { transient?: boolean; nodes?: readonly string[] } = {}) => {
      clearTimeout(errorTimer.current);
      setError(message);
      store.getState().highlight(options.nodes ?? []);
      if (message && options.transient) errorTimer.current = setTimeout(() => setError(null), 5000);
    },
    [store],
  );
  const graphError = useCallback(
    (code: TGraphErrorCode) => t(GraphErrorMessages[code], { max: Limits.pipelineStages.max }),
    [t],
  );

  // --- the unsaved copy: written shortly after each change, dropped when nothing is unsaved.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const s = store.getState();
      if (s.dirty) writePipelineState(pipelineId, snapshotToStored(s, s.version));
      else clearPipelineState(pipelineId);
    };
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.history === prev.history && s.dirty === prev.dirty && s.version === prev.version) return;
      clearTimeout(timer);
      timer = setTimeout(flush, 400);
    });
    return () => {
      unsubscribe();
      if (timer) {
        clearTimeout(timer);
        flush();
      }
    };
  }, [store, pipelineId]);

  /**
   * Lays the graph out with elk. `commit` false is the first layout of a pipeline saved without
   * positions: it becomes the baseline (not an unsaved change), and is dropped if the user changed
   * the graph meanwhile (the quick layout stays; Organize is one click away).
   */
  const organize = useCallback(
    async (commit = true, pending?: TPendingLayout) => {
      setOrganizing(true);
      try {
        const { from, result } = pending ?? startLayout(store.getState());
        const positions = await result;
        if (!commit && changedSince(from, store.getState())) return;
        store.getState().applyPositions(positions, commit);
        if (!commit) performance.mark('pipeline:organized');
        requestAnimationFrame(() => void flow.fitView(fitViewOptions));
      } finally {
        setOrganizing(false);
      }
    },
    [store, flow],
  );

  // --- on open: offer the unsaved copy of a previous session; a graph saved without positions shows
  // the quick layout at once (the store's) and gets elk's when it is ready.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void (async () => {
      const stored = readPipelineState(pipelineId);
      const s = store.getState();
      if (stored) {
        const differs = graphSignature(storedToSnapshot(stored, s.pipeline)) !== s.savedSignature;
        if (differs && (await ask('restore')) === 'yes') {
          store.getState().restore(stored);
          requestAnimationFrame(() => void flow.fitView(fitViewOptions));
          return;
        }
        clearPipelineState(pipelineId);
      }
      if (firstLayout && store.getState().provisional) await organize(false, firstLayout);
    })();
  }, [store, pipelineId, ask, organize, flow, firstLayout]);

  // --- leaving: in-app navigation asks; closing the tab warns. A change of the search alone is let
  // through on purpose: the editor reads nothing from it and stays mounted, so nothing is lost.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => store.getState().dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // --- save
  const put = useCallback(
    async (firstVersion: number): Promise<TGraphSaveResult | null> => {
      let version = firstVersion;
      for (;;) {
        try {
          const result = await saveGraph(pipelineId, buildGraphSave(store.getState(), version));
          store.getState().saved(result);
          const { id_map: _ignored, ...fresh } = result;
          queryClient.setQueryData(pipelineQuery(pipelineId).queryKey, fresh);
          clearPipelineState(pipelineId);
          showError(null);
          return result;
        } catch (failure) {
          if (failure instanceof ApiError && failure.status === 409) {
            // Nothing is lost (docs/rules.md §Pipelines): the local copy stays until the user chooses.
            const choice = await ask('conflict');
            if (choice !== 'reload' && choice !== 'overwrite') return null;
            const fresh = await queryClient.fetchQuery({ ...pipelineQuery(pipelineId), staleTime: 0 });
            if (choice === 'overwrite') {
              version = fresh.version;
              continue;
            }
            store.getState().reset(fresh);
            clearPipelineState(pipelineId);
            requestAnimationFrame(() => void flow.fitView(fitViewOptions));
            return null;
          }
          if (failure instanceof ApiError && failure.code === 'pipeline_cycle') {
            const s = store.getState();
            const cycle = findCycle(
              s.nodes.map((n) => n.id),
              s.edges,
            );
            showError(graphError('pipeline_cycle'), { nodes: cycle ?? [] });
            return null;
          }
          showError(failure instanceof ApiError ? failure.message : t('Data was not saved'));
          return null;
        }
      }
    },
    [store, pipelineId, queryClient, ask, showError, graphError, flow, t],
  );

  const save = useCallback(async (): Promise<TGraphSaveResult | null> => {
    const s = store.getState();
    const graphNodes = s.nodes.map((n) => ({ id: n.id, kind: n.data.kind }));
    const errors = validateGraph(graphNodes, s.edges);
    if (errors.length > 0) {
      const first = errors[0]!;
      showError(graphError(first.code), { nodes: first.nodes?.map(String) ?? [] });
      return null;
    }
    const removed = tasksRemovedBy(s, s.pipeline);
    if (removed > 0 && (await ask('tasks', removed)) !== 'yes') return null;
    const orphans = findOrphans(graphNodes, s.edges);
    if (orphans.noInput.length + orphans.noOutput.length > 0) {
      const choice = await ask('orphans', new Set([...orphans.noInput, ...orphans.noOutput]).size);
      if (choice === 'no') return null;
      if (choice === 'connect') {
        const current = store.getState();
        const connected = connectOrphans(graphNodes, current.edges);
        current.setEdges([
          ...current.edges,
          ...connected.slice(current.edges.length).map((e) => makeFlowEdge(e.source, e.target)),
        ]);
      }
    }
    setSaving(true);
    try {
      return await put(store.getState().version);
    } finally {
      setSaving(false);
    }
  }, [store, ask, put, showError, graphError]);

  // --- editing stage settings needs a saved pipeline (docs/rules.md §Pipelines).
  const openSettings = useCallback(
    async (ids: string[]) => {
      let stageIds = ids;
      const s = store.getState();
      if (s.dirty || ids.some(isTmpId)) {
        if ((await ask('save-first')) !== 'save') return;
        const result = await save();
        if (!result) return;
        stageIds = ids.map((id) => (id in result.id_map ? String(result.id_map[id]) : id));
      }
      const byId = new Map(store.getState().pipeline.nodes.map((n) => [String(n.id), n]));
      const stages = stageIds.map((id) => byId.get(id)).filter((n): n is TPipelineNode => n?.kind === 'stage');
      if (stages.length > 0) setSettingsFor(stages);
    },
    [store, ask, save],
  );

  // --- graph edits
  const addStageAt = useCallback(
    (clientX: number, clientY: number) => {
      const s = store.getState();
      const count = s.nodes.filter((n) => n.data.kind === 'stage').length;
      if (count >= Limits.pipelineStages.max) {
        showError(graphError('too_many_stages'), { transient: true });
        return;
      }
      const point = flow.screenToFlowPosition({ x: clientX, y: clientY });
      const at = { x: point.x - NodeSizes.stage.width / 2, y: point.y - NodeSizes.stage.height / 2 };
      // Never drop a stage exactly over another one: step down and right until the spot is free.
      while (s.nodes.some((n) => Math.abs(n.position.x - at.x) < 24 && Math.abs(n.position.y - at.y) < 24)) {
        at.x += 32;
        at.y += 32;
      }
      s.addStage(at, t('Stage {{number}}', { number: count + 1 }));
    },
    [store, flow, t, showError, graphError],
  );
  const addStageAtCentre = useCallback(() => {
    const rect = canvasRef.current?.getBoundingClientRect();
    if (!rect) return;
    addStageAt(rect.left + rect.width / 2, rect.top + rect.height / 2);
  }, [addStageAt]);

  const onConnect = useCallback(
    (connection: Connection) => {
      const problem = store.getState().connect(connection.source, connection.target);
      showError(problem ? graphError(problem) : null, { transient: true });
    },
    [store, showError, graphError],
  );
  const isValidConnection = useCallback(
    (connection: { source: string; target: string }) => {
      const s = store.getState();
      const kinds = new Map(s.nodes.map((n) => [n.id, n.data.kind]));
      return connectionError(kinds, s.edges, connection.source, connection.target) === null;
    },
    [store],
  );
  const onConnectEnd: OnConnectEnd = useCallback(
    (_event, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode || !state.toNode) return;
      const fromSource = state.fromHandle?.type !== 'target';
      const source = fromSource ? state.fromNode.id : state.toNode.id;
      const target = fromSource ? state.toNode.id : state.fromNode.id;
      const s = store.getState();
      const problem = connectionError(new Map(s.nodes.map((n) => [n.id, n.data.kind])), s.edges, source, target);
      if (problem) showError(graphError(problem), { transient: true });
    },
    [store, showError, graphError],
  );
  const commit = useCallback(() => store.getState().commit(), [store]);
  const onNodeDoubleClick = useCallback(
    (_event: MouseEvent, node: TFlowNode) => {
      if (node.data.kind === 'stage') void openSettings([node.id]);
    },
    [openSettings],
  );
  const onPaneDoubleClick = useCallback(
    (event: MouseEvent) => {
      if ((event.target as Element).classList.contains('react-flow__pane')) addStageAt(event.clientX, event.clientY);
    },
    [addStageAt],
  );
  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(DragType)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      if (!event.dataTransfer.types.includes(DragType)) return;
      event.preventDefault();
      addStageAt(event.clientX, event.clientY);
    },
    [addStageAt],
  );
  const setLayout = useCallback(
    (next: TLayout) => {
      store.getState().setLayout(next);
      requestAnimationFrame(() => void flow.fitView(fitViewOptions));
    },
    [store, flow],
  );
  const actions: TFlowActions = useMemo(
    () => ({
      toggleSelect: (id) => store.getState().toggleSelect(id),
      removeEdge: (id) => store.getState().removeEdge(id),
    }),
    [store],
  );

  // --- keyboard: undo and redo (Delete is React Flow's, which skips Start and End: not deletable).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || !(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) store.getState().undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') store.getState().redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  const undo = useCallback(() => store.getState().undo(), [store]);
  const redo = useCallback(() => store.getState().redo(), [store]);
  const revert = useCallback(() => store.getState().revert(), [store]);
  const editSelected = useCallback(
    () => void openSettings(selectedStageIds(store.getState().nodes)),
    [store, openSettings],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <Text fw={700} size="lg" data-testid="flow-title">
            {pipeline.name}
          </Text>
          <Badge
            variant="light"
            color={dirty ? 'orange' : 'teal'}
            data-testid="flow-status"
            data-dirty={dirty ? 'true' : 'false'}
          >
            {dirty ? t('Unsaved changes') : t('Saved')}
          </Badge>
          <Text size="sm" c="dimmed">
            {t('{{count}} stages', { count: stageCount })}
          </Text>
        </Group>
        <Button
          variant="subtle"
          component={Link}
          to={paths.app.pipeline(projectId, pipelineId)}
          data-testid="flow-back"
        >
          {t('Back to pipeline')}
        </Button>
      </Group>
      <div
        ref={canvasRef}
        className={fullscreen ? `${classes.editorCanvas} ${classes.fullscreen}` : classes.editorCanvas}
        data-layout-pending={provisional ? 'true' : 'false'}
      >
        <EditorCanvas
          store={store}
          actions={actions}
          onNodesChange={store.getState().onNodesChange}
          onEdgesChange={store.getState().onEdgesChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onNodeDragStop={commit}
          onSelectionDragStop={commit}
          onDelete={commit}
          onNodeDoubleClick={onNodeDoubleClick}
          onDoubleClick={onPaneDoubleClick}
          onDragOver={onDragOver}
          onDrop={onDrop}
          deleteKeyCode={deleteKeys}
          multiSelectionKeyCode={multiKeys}
          selectionKeyCode="Shift"
          zoomOnDoubleClick={false}
          elevateEdgesOnSelect
        >
          <Panel position="top-left">
            <Paper withBorder p={6} shadow="xs">
              <Group gap={6} wrap="wrap">
                <Tooltip label={t('Drag onto the canvas to add a stage')}>
                  <Badge
                    size="lg"
                    variant="outline"
                    className={classes.palette}
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.setData(DragType, 'stage');
                      event.dataTransfer.effectAllowed = 'copy';
                    }}
                    data-testid="flow-palette-stage"
                  >
                    {t('Stage')}
                  </Badge>
                </Tooltip>
                <Button
                  size="compact-sm"
                  leftSection={<IconPlus size={14} />}
                  onClick={addStageAtCentre}
                  data-testid="flow-add-stage"
                >
                  {t('Add stage')}
                </Button>
                <ToolButton label={t('Undo')} testId="flow-undo" disabled={!canUndo} onClick={undo}>
                  <IconArrowBackUp size={16} />
                </ToolButton>
                <ToolButton label={t('Redo')} testId="flow-redo" disabled={!canRedo} onClick={redo}>
                  <IconArrowForwardUp size={16} />
                </ToolButton>
                <ToolButton
                  label={t('Organize')}
                  testId="flow-organize"
                  loading={organizing}
                  onClick={() => void organize()}
                >
                  <IconHierarchy size={16} />
                </ToolButton>
                <SegmentedControl
                  size="xs"
                  value={layout}
                  onChange={(value) => setLayout(value)}
                  data={[
                    { value: 'horizontal', label: t('Horizontal') },
                    { value: 'vertical', label: t('Vertical') },
                  ]}
                  data-testid="flow-orientation"
                  data-value={layout}
                />
                <ToolButton
                  label={fullscreen ? t('Exit full screen') : t('Full screen')}
                  testId="flow-fullscreen"
                  onClick={toggleFullscreen}
                >
                  {fullscreen ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
                </ToolButton>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconEdit size={14} />}
                  disabled={selectedCount === 0}
                  onClick={editSelected}
                  data-testid="flow-edit-stages"
                >
                  {t('Edit stages ({{count}})', { count: selectedCount })}
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconRestore size={14} />}
                  disabled={!dirty}
                  onClick={revert}
                  data-testid="flow-revert"
                >
                  {t('Revert to last save')}
                </Button>
                <Button
                  size="compact-sm"
                  leftSection={<IconDeviceFloppy size={14} />}
                  loading={saving}
                  disabled={!dirty}
                  onClick={() => void save()}
                  data-testid="flow-save"
                >
                  {t('Save')}
                </Button>
              </Group>
            </Paper>
          </Panel>
          {error ? (
            <Panel position="bottom-center">
              <Alert color="red" withCloseButton onClose={() => showError(null)} data-testid="flow-error" maw={520}>
                {error}
              </Alert>
            </Panel>
          ) : null}
        </EditorCanvas>
      </div>

      <Modal
        opened={dialog?.kind === 'restore'}
        onClose={() => answer('no')}
        title={t('Unsaved changes found')}
        closeOnClickOutside={false}
      >
        <Stack>
          <Text>{t('This pipeline has changes from a previous session that were not saved. Restore them?')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')} data-testid="flow-restore-discard">
              {t('Discard')}
            </Button>
            <Button onClick={() => answer('yes')} data-testid="flow-restore-accept">
              {t('Restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'tasks'} onClose={() => answer('no')} title={t('Delete stages with tasks?')}>
        <Stack>
          <Text data-testid="flow-tasks-removed">
            {t('Deleting these stages removes {{count}} tasks', { count: dialog?.payload ?? 0 })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')} data-testid="flow-tasks-cancel">
              {t('Cancel')}
            </Button>
            <Button color="red" onClick={() => answer('yes')} data-testid="flow-tasks-confirm">
              {t('Delete and save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'orphans'} onClose={() => answer('no')} title={t('Unconnected stages')}>
        <Stack>
          <Text>
            {t('{{count}} stages have no input or no output. Connect them to Start/End?', {
              count: dialog?.payload ?? 0,
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')} data-testid="flow-orphans-cancel">
              {t('Cancel')}
            </Button>
            <Button variant="default" onClick={() => answer('skip')} data-testid="flow-orphans-skip">
              {t('Save as is')}
            </Button>
            <Button onClick={() => answer('connect')} data-testid="flow-orphans-confirm">
              {t('Connect and save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={dialog?.kind === 'conflict'}
        onClose={() => answer('no')}
        title={t('The pipeline was changed by someone else')}
      >
        <Stack>
          <Text>
            {t(
              'Someone saved this pipeline after you opened it. Your changes are kept here: reload the saved version (discarding yours) or overwrite it with yours.',
            )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')}>
              {t('Cancel')}
            </Button>
            <Button variant="default" color="red" onClick={() => answer('reload')} data-testid="flow-conflict-reload">
              {t('Reload')}
            </Button>
            <Button color="orange" onClick={() => answer('overwrite')} data-testid="flow-conflict-overwrite">
              {t('Overwrite')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'save-first'} onClose={() => answer('no')} title={t('Edit stages')}>
        <Stack>
          <Text data-testid="flow-save-first">{t('Save the pipeline first')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')}>
              {t('Cancel')}
            </Button>
            <Button onClick={() => answer('save')} data-testid="flow-save-first-confirm">
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('Leave without saving?')}>
        <Stack>
          <Text>{t('The diagram has unsaved changes. They stay in this browser and can be restored next time.')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-testid="flow-leave-cancel">
              {t('Stay')}
            </Button>
            <Button
              variant="default"
              onClick={() => {
                void save().then((result) => (result ? blocker.proceed?.() : blocker.reset?.()));
              }}
              data-testid="flow-leave-save"
            >
              {t('Save and leave')}
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()} data-testid="flow-leave-confirm">
              {t('Leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <StageSettingsDrawer
        projectId={projectId}
        stages={settingsFor}
        onClose={() => setSettingsFor(null)}
        onSaved={(stages) => {
          store.getState().updateStages(stages);
          queryClient.setQueryData(pipelineQuery(pipelineId).queryKey, store.getState().pipeline);
        }}
      />
    </Stack>
  );
}

function ToolButton({
  label,
  testId,
  children,
  ...props
}: {
  label: string;
  testId: string;
  children: ReactNode;
  disabled?: boolean;
  loading?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="md" aria-label={label} data-testid={testId} {...props}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * The diagram with the editor's live nodes and edges: the only part of the editor that re-renders
 * on a drag frame. Every other prop is stable, so React Flow sees just the moved nodes change.
 */
const EditorCanvas = memo(function EditorCanvas({
  store,
  ...props
}: { store: TEditorStore } & Omit<ComponentProps<typeof PipelineDiagram>, 'nodes' | 'edges'>) {
  const nodes = useStore(store, (s) => s.nodes);
  const edges = useStore(store, (s) => s.edges);
  return <PipelineDiagram nodes={nodes} edges={edges} {...props} />;
});
