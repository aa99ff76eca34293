import { describe, expect, it } from 'vitest';
import { newEdgeError as connectionError, type TNodeKind } from './graph';

const kinds = new Map<string, TNodeKind>([
  ['s', 'root'],
  ['e', 'end'],
  ['a', 'stage'],
  ['b', 'stage'],
  ['c', 'stage'],
]);
const edges = [
  { source: 's', target: 'a' },
  { source: 'a', target: 'b' },
  { source: 'b', target: 'c' },
];

describe('newEdgeError', () => {
  it('accepts a new forward edge', () => {
    expect(connectionError(kinds, edges, 'a', 'c')).toBeNull();
    expect(connectionError(kinds, edges, 'c', 'e')).toBeNull();
  });
  it('refuses an edge that closes a cycle (wouldCreateCycle)', () => {
    expect(connectionError(kinds, edges, 'c', 'a')).toBe('pipeline_cycle');
    expect(connectionError(kinds, edges, 'b', 'a')).toBe('pipeline_cycle');
  });
  it('refuses a self loop', () => {
    expect(connectionError(kinds, edges, 'a', 'a')).toBe('self_loop');
  });
  it('refuses edges into Start and out of End', () => {
    expect(connectionError(kinds, edges, 'a', 's')).toBe('edge_into_root');
    expect(connectionError(kinds, edges, 'e', 'a')).toBe('edge_out_of_end');
  });
  it('refuses duplicates', () => {
    expect(connectionError(kinds, edges, 'a', 'b')).toBe('duplicate_edge');
  });
  it('refuses unknown nodes', () => {
    expect(connectionError(kinds, edges, 'a', 'zzz')).toBe('missing_node');
  });
});
