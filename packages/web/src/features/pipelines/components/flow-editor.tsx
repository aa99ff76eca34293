// One file on purpose: the editor's composition root. It wires the store, React Flow's handlers and the
// hooks and dialogs that each live in their own file; split, the same dozen handles would be passed round.
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Panel, useReactFlow, type Connection, type FinalConnectionState, type OnConnectEnd } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ComponentProps, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import {
  GraphErrorMessages,
  Limits,
  paths,
  type TGraphErrorCode,
  type TLayout,
  type TPipeline,
  type TPipelineNode,
} from '@stageline/shared';
import { pipelineQuery } from '../api';
import { useDialog } from '../hooks/use-dialog';
import { useFlowKeyboard } from '../hooks/use-flow-keyboard';
import { useStageMenus } from '../hooks/use-stage-menus';
import { useFullscreen } from '../hooks/use-fullscreen';
import { useAddStage } from '../hooks/use-add-stage';
import { useGraphSave, type TSaveQuestion } from '../hooks/use-graph-save';
import { useLeaveGuard, useRestoreOnOpen, useUnsavedCopy } from '../hooks/use-unsaved-copy';
import { createEditorStore, type TEditorState, type TEditorStore } from '../lib/editor-store';
import { isTmpId, type TFlowEdge, type TFlowNode } from '../lib/graph-model';
import { LargeGraph, layoutGraph, preloadLayout, sameLayout, type TLayoutResult, type TPoint } from '../lib/layout';
import type { TFlowActions } from './flow-actions';
import { FlowDialogs, type TAnswer, type TDialogKind } from './flow-dialogs';
import classes from './flow.module.css';
import { FlowToolbar } from './flow-toolbar';
import { LiveRegion, useAnnouncer } from './live-region';
import { PipelineDiagram } from './pipeline-diagram';
import { StageContextMenu } from './stage-context-menu';
import { StageLinkDialog } from './stage-link-dialog';
import { StageSettingsDrawerOnDemand } from './stage-settings-on-demand';

const deleteKeys = ['Delete', 'Backspace'];
const multiKeys = ['Shift', 'Control', 'Meta'];
const fitViewOptions = { padding: 0.15, maxZoom: 1.25 };

// elk's worker starts, and warms up, while the pipeline is still being fetched.
preloadLayout();

/** elk's layout of the graph in `from`, under way; `from` tells an edit made meanwhile. */
type TPendingLayout = { from: TEditorState; result: Promise<TLayoutResult> };
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

/**
 * The flow editor (docs/rules.md §Web, issue 5): every graph change goes through the editor store,
 * which keeps undo history and the saved baseline. This component wires React Flow, the toolbar and
 * the dialogs to it; saving (`useGraphSave`), the unsaved copy (`useUnsavedCopy`), and the keyboard
 * (`useFlowKeyboard`, with its live region) live in their own modules.
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
  const [organizing, setOrganizing] = useState(false);
  // elk's edge routes of the last layout: drawn while their ends stay where that layout put them.
  const [routes, setRoutes] = useState<ReadonlyMap<string, TPoint[]> | null>(null);
  const [settingsFor, setSettingsFor] = useState<TPipelineNode[] | null>(null);
  const { dialog, ask, answer } = useDialog<TDialogKind, TAnswer>();
  const { fullscreen, toggleFullscreen } = useFullscreen();
  const { message, announce } = useAnnouncer();
  const canvasRef = useRef<HTMLDivElement>(null);
  const errorTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pipelineId = pipeline.id;

  const showError = useCallback(
    (text: string | null, options: { transient?: boolean; nodes?: readonly string[] } = {}) => {
      clearTimeout(errorTimer.current);
      setError(text);
      store.getState().highlight(options.nodes ?? []);
      if (text && options.transient) errorTimer.current = setTimeout(() => setError(null), 5000);
    },
    [store],
  );
  const graphError = useCallback(
    (code: TGraphErrorCode) => t(GraphErrorMessages[code], { max: Limits.pipelineStages.max }),
    [t],
  );
  const fitView = useCallback(() => requestAnimationFrame(() => void flow.fitView(fitViewOptions)), [flow]);

  useUnsavedCopy(store, pipelineId);

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
        const { positions, routes: laidRoutes } = await result;
        if (!commit && changedSince(from, store.getState())) return;
        store.getState().applyPositions(positions, commit);
        setRoutes(laidRoutes);
        if (!commit) performance.mark('pipeline:organized');
        fitView();
      } finally {
        setOrganizing(false);
      }
    },
    [store, fitView],
  );

  // --- on open: offer the unsaved copy of a previous session; a graph saved without positions shows
  // the quick layout at once (the store's) and gets elk's when it is ready.
  const askRestore = useCallback(async () => (await ask('restore')) === 'yes', [ask]);
  const firstOrganize = useCallback(async () => {
    if (firstLayout && store.getState().provisional) await organize(false, firstLayout);
  }, [firstLayout, store, organize]);
  useRestoreOnOpen({ store, pipelineId, askRestore, onRestored: fitView, otherwise: firstOrganize });
  // Saved where Organize put the stages: elk (in its worker) gives the routes of that layout again.
  useEffect(() => {
    const opened = store.getState();
    if (opened.provisional || opened.nodes.length >= LargeGraph) return;
    let live = true;
    void startLayout(opened).result.then(({ positions, routes: laidRoutes }) => {
      const now = store.getState();
      if (live && !changedSince(opened, now) && sameLayout(now.nodes, positions)) setRoutes(laidRoutes);
    });
    return () => {
      live = false;
    };
  }, [store]);
  const blocker = useLeaveGuard(store, dirty);

  // --- save
  const askSave = useCallback((question: TSaveQuestion, payload?: number) => ask(question, payload), [ask]);
  const { save: saveGraphNow, saving } = useGraphSave({
    store,
    pipelineId,
    ask: askSave,
    showError,
    graphError,
    onReloaded: fitView,
  });
  // The stage the keyboard was last on: a saved stage's temporary id becomes its real one.
  const lastFocusedRef = useRef<string | null>(null);
  const save = useCallback(async () => {
    const result = await saveGraphNow();
    if (result) {
      const id = lastFocusedRef.current;
      if (id && id in result.id_map) lastFocusedRef.current = String(result.id_map[id]);
      announce(t('Pipeline saved'));
    }
    return result;
  }, [saveGraphNow, announce, t]);

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
  const addStage = useAddStage({ store, canvasRef, showError, graphError, announce });

  const keyboard = useFlowKeyboard({
    store,
    lastFocusedRef,
    announce,
    refuse: (message) => showError(message, { transient: true }),
    graphError,
    addStage: addStage.after,
    openSettings: (id) => void openSettings([id]),
    save,
  });
  const onConnect = useCallback(
    (connection: Connection) => {
      const problem = store.getState().connect(connection.source, connection.target);
      showError(problem ? graphError(problem) : null, { transient: true });
    },
    [store, showError, graphError],
  );
  const isValidConnection = useCallback(
    (connection: { source: string; target: string }) =>
      store.getState().connectionError(connection.source, connection.target) === null,
    [store],
  );
  const onConnectEnd: OnConnectEnd = useCallback(
    (_event, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode || !state.toNode) return;
      const fromSource = state.fromHandle?.type !== 'target';
      const source = fromSource ? state.fromNode.id : state.toNode.id;
      const target = fromSource ? state.toNode.id : state.fromNode.id;
      const problem = store.getState().connectionError(source, target);
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
  // A new orientation lays the stages out again (elk), so none is left sitting on another.
  const setLayout = useCallback(
    (next: TLayout) => {
      store.getState().setLayout(next);
      void organize();
    },
    [store, organize],
  );
  const actions: TFlowActions = useMemo(
    () => ({
      toggleSelect: (id) => store.getState().toggleSelect(id),
      removeEdge: (id) => store.getState().removeEdge(id),
      openSettings: (id) => void openSettings([id]),
    }),
    [store, openSettings],
  );
  const menus = useStageMenus({
    store,
    selectedIds: () => selectedStageIds(store.getState().nodes),
    selectedCount,
    addStage: addStage.next,
    openSettings: (ids) => void openSettings(ids),
  });
  const ariaLabelConfig = useMemo(() => {
    const keys = t(
      'Arrow keys: go to the nearest stage that way. Shift+arrow: move it. N: add a stage after it. C: connect it, D: disconnect it. Enter: its settings. Delete: delete it. Space: select it.',
    );
    return { 'node.a11yDescription.default': keys, 'node.a11yDescription.keyboardDisabled': keys };
  }, [t]);

  // Above the canvas, so fitting the view never hides Start under it; one row at every width
  // (decision 202); in full screen it floats over the canvas's corner.
  const toolbar = (
    <FlowToolbar
      layout={layout}
      canUndo={canUndo}
      canRedo={canRedo}
      organizing={organizing}
      fullscreen={fullscreen}
      selectedCount={selectedCount}
      dirty={dirty}
      saving={saving}
      onAddStage={addStage.next}
      onUndo={() => store.getState().undo()}
      onRedo={() => store.getState().redo()}
      onOrganize={() => void organize()}
      onLayout={setLayout}
      onToggleFullscreen={toggleFullscreen}
      onEditSelected={() => void openSettings(selectedStageIds(store.getState().nodes))}
      onRevert={() => store.getState().revert()}
      onSave={() => void save()}
    />
  );

  return (
    <Stack gap="sm">
      {/* On a phone the page has no margin: the title keeps a little off the screen's edge. */}
      <Group justify="space-between" wrap="wrap" gap="xs" px={{ base: 'xs', sm: 0 }}>
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
          <Text size="sm" c="dimmed" data-testid="flow-stage-count" data-count={stageCount}>
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
      <LiveRegion message={message} />
      {fullscreen ? null : toolbar}
      <div
        ref={canvasRef}
        className={fullscreen ? `${classes.editorCanvas} ${classes.fullscreen}` : classes.editorCanvas}
        data-layout-pending={provisional ? 'true' : 'false'}
        onKeyDownCapture={keyboard.onKeyDownCapture}
        onFocusCapture={keyboard.onFocusCapture}
      >
        <EditorCanvas
          store={store}
          actions={actions}
          routes={routes}
          onNodesChange={store.getState().onNodesChange}
          onEdgesChange={store.getState().onEdgesChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onNodeDragStop={commit}
          onSelectionDragStop={commit}
          onDelete={commit}
          onNodeDoubleClick={onNodeDoubleClick}
          onNodeContextMenu={menus.onNodeContextMenu}
          onDoubleClick={addStage.onPaneDoubleClick}
          onDragOver={addStage.onDragOver}
          onDrop={addStage.onDrop}
          deleteKeyCode={deleteKeys}
          multiSelectionKeyCode={multiKeys}
          selectionKeyCode="Shift"
          zoomOnDoubleClick={false}
          elevateEdgesOnSelect
          ariaLabelConfig={ariaLabelConfig}
        >
          {fullscreen ? <Panel position="top-left">{toolbar}</Panel> : null}
          {error ? (
            <Panel position="bottom-center">
              <Alert color="red" withCloseButton onClose={() => showError(null)} data-testid="flow-error" maw={520}>
                {error}
              </Alert>
            </Panel>
          ) : null}
        </EditorCanvas>
      </div>

      <FlowDialogs dialog={dialog} answer={answer} blocker={blocker} save={save} />
      <StageLinkDialog {...keyboard.link} />
      <StageContextMenu {...menus.contextMenu} />
      <StageSettingsDrawerOnDemand
        projectId={projectId}
        stages={settingsFor}
        onClose={() => setSettingsFor(null)}
        onClosed={keyboard.restoreFocus}
        onSaved={(stages) => {
          store.getState().updateStages(stages);
          queryClient.setQueryData(pipelineQuery(pipelineId).queryKey, store.getState().pipeline);
          if (stages.length === 1) announce(t('Settings of {{name}} saved', { name: stages[0]!.name }));
        }}
      />
    </Stack>
  );
}

/**
 * The diagram with the editor's live nodes and edges: the only part of the editor that re-renders
 * on a drag frame. Every other prop is stable, so React Flow sees just the moved nodes change.
 */
const noEdges: TFlowEdge[] = [];
const EditorCanvas = memo(function EditorCanvas({
  store,
  ...props
}: { store: TEditorStore } & Omit<ComponentProps<typeof PipelineDiagram>, 'nodes' | 'edges'>) {
  const nodes = useStore(store, (s) => s.nodes);
  // A large pipeline's quick layout draws its stages without their links: elk's layout, or the first
  // edit, draws them (docs/decisions.md 126).
  const edges = useStore(store, (s) => (s.provisional && s.nodes.length >= LargeGraph ? noEdges : s.edges));
  return <PipelineDiagram nodes={nodes} edges={edges} {...props} />;
});
