import { createContext, useContext } from 'react';

/** What nodes and edges may ask of the editor; absent on the read-only pipeline screen. */
export type TFlowActions = {
  toggleSelect: (nodeId: string) => void;
  removeEdge: (edgeId: string) => void;
  /** Opens a stage's settings (its "Settings" button, decision 201). */
  openSettings: (nodeId: string) => void;
};

export const FlowActionsContext = createContext<TFlowActions | null>(null);
export const useFlowActions = () => useContext(FlowActionsContext);
