/**
 * Where the mirror stands with one ticket: the store's `MirrorRecord`, whose fields the mirror
 * alone writes and gives meaning to (the store only keeps cursors and times moving forward).
 */
import { emptyMirrorRecord } from '../store/index.ts';
import type { MirrorRecord } from '../store/types.ts';

/** Where the mirror stands with one ticket. */
export type MirrorState = MirrorRecord;

/** The mirror state of a ticket nothing has been read of yet. */
export function initialMirrorState(): MirrorState {
  return emptyMirrorRecord();
}
