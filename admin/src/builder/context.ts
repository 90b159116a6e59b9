/** What the builder's frame (pages/BuilderPage.tsx) hands to its screens: the draft and what it may do. */
import { useOutletContext } from 'react-router-dom';
import type { ReservedNames } from '../../../src/features/content-type-builder/contract.ts';
import type { Draft } from './draft.ts';

export interface BuilderState {
  draft: Draft;
  setDraft: (draft: Draft) => void;
  /** False outside `vellum develop`: the screens show, nothing changes. */
  writable: boolean;
  reserved: ReservedNames;
}

export const useBuilder = (): BuilderState => useOutletContext<BuilderState>();
