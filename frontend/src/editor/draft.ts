/**
 * Unsaved edits are also kept in this browser until the server has them, so that a reload,
 * a crash or a long time offline loses nothing.
 */

export interface Draft {
  /** The server version the edits were made on, and its assignments. */
  version: number;
  base: number[];
  assignments: number[];
}

function draftKey(scope: string, userId: number): string {
  return `tandem:draft:${userId}:${scope}`;
}

/** `scope` is a save target's: the document id for one's annotation (SaveTarget). */
export function loadDraft(scope: string, userId: number): Draft | null {
  try {
    const stored = window.localStorage.getItem(draftKey(scope, userId));
    if (!stored) return null;
    const draft = JSON.parse(stored) as Draft;
    const valid =
      Number.isInteger(draft.version) &&
      Array.isArray(draft.base) &&
      Array.isArray(draft.assignments) &&
      draft.base.length === draft.assignments.length;
    return valid ? draft : null;
  } catch {
    return null;
  }
}

export function storeDraft(scope: string, userId: number, draft: Draft): void {
  try {
    window.localStorage.setItem(draftKey(scope, userId), JSON.stringify(draft));
  } catch {
    // A full or disabled storage only loses the extra safety net; saving carries on.
  }
}

export function clearDraft(scope: string, userId: number): void {
  try {
    window.localStorage.removeItem(draftKey(scope, userId));
  } catch {
    // As above: nothing to clean up if storage is unavailable.
  }
}

/** Where the annotator last worked in a document, to pick up there. */
export interface Position {
  turn: number;
  turnCount: number;
  /** When the annotator was last there, in milliseconds since the epoch. */
  at: number;
}

function positionKey(documentId: number, userId: number): string {
  return `tandem:position:${userId}:${documentId}`;
}

export function loadPosition(documentId: number, userId: number): Position | null {
  try {
    const stored = window.localStorage.getItem(positionKey(documentId, userId));
    return stored ? (JSON.parse(stored) as Position) : null;
  } catch {
    return null;
  }
}

export function storePosition(documentId: number, userId: number, position: Position): void {
  try {
    window.localStorage.setItem(positionKey(documentId, userId), JSON.stringify(position));
  } catch {
    // Only convenience is lost.
  }
}

/** The turn to open a document at: where the annotator was last, in this browser or, when
 * later, on the server (another browser or device); the first turn before either. */
export function startingTurn(
  local: Position | null,
  server: { turn: number; updated_at: string } | null,
  turnCount: number,
): number {
  const serverAt = server ? Date.parse(server.updated_at) : -Infinity;
  const turn = server && (!local || serverAt > local.at) ? server.turn : (local?.turn ?? 0);
  return turn < turnCount ? turn : 0;
}

/** Where the annotator left off, for the documents page: the later of this browser's record
 * and the server's (kept from any browser or device), or null before either. */
export function leftOff(
  local: Position | null,
  server: { turn: number; updated_at: string } | null,
  turnCount: number,
): Position | null {
  const fromServer = server
    ? { turn: server.turn, turnCount, at: Date.parse(server.updated_at) }
    : null;
  const latest = fromServer && (!local || fromServer.at > local.at) ? fromServer : local;
  return latest && latest.turn < turnCount ? { ...latest, turnCount } : null;
}
