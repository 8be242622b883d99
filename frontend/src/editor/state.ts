/**
 * The editor's state: which report segment each transcript turn is assigned to, the turns the
 * annotator is working on, and the history that undo and redo walk.
 *
 * Everything here is pure and immutable so that every rule (order, boundaries, undo) can be
 * tested without a browser and React can compare states by reference.
 */

/** A turn with no counterpart in the report. */
export const UNALIGNED = -1;

const HISTORY_LIMIT = 1000;

/** One edit, stored as the values it replaced so that undo and redo are exact. */
export interface Change {
  first: number;
  before: readonly number[];
  after: readonly number[];
  description: string;
}

/** An edit the order rule refused, offered instead as a move of the boundary. */
export interface Proposal {
  reason: string;
  change: Change;
}

export interface EditorState {
  assignments: readonly number[];
  preAlignment: readonly number[];
  segmentCount: number;
  /** The turn the keyboard acts on; with `anchor` it spans the selected run of turns. */
  focus: number;
  anchor: number;
  past: readonly Change[];
  future: readonly Change[];
  proposal: Proposal | null;
  /** Why the last command did nothing, for the annotator to read. */
  notice: string | null;
}

export type Direction = -1 | 1;

export type EditorAction =
  | { type: "select"; turn: number; extend?: boolean }
  | { type: "selectRange"; first: number; last: number }
  | { type: "moveFocus"; delta: number; extend?: boolean }
  | { type: "assign"; segment: number }
  | { type: "assignAdjacent"; direction: Direction }
  | { type: "markUnaligned" }
  | { type: "resetToPreAlignment" }
  | { type: "moveBoundary"; direction: Direction; turn?: number }
  | { type: "acceptProposal" }
  | { type: "dismissNotice" }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "replaceAssignments"; assignments: readonly number[] }
  /** Adjudication: the selected turns take `source`'s labels (one annotator's side). */
  | { type: "take"; labels: readonly number[]; source: string };

export function createEditorState(
  assignments: readonly number[],
  preAlignment: readonly number[],
  segmentCount: number,
): EditorState {
  if (assignments.length !== preAlignment.length) {
    throw new Error("assignments and pre-alignment must cover the same turns");
  }
  return {
    assignments,
    preAlignment,
    segmentCount,
    focus: 0,
    anchor: 0,
    past: [],
    future: [],
    proposal: null,
    notice: null,
  };
}

export function selection(state: EditorState): { first: number; last: number } {
  return { first: Math.min(state.anchor, state.focus), last: Math.max(state.anchor, state.focus) };
}

export function isChanged(state: EditorState, turn: number): boolean {
  return state.assignments[turn] !== state.preAlignment[turn];
}

export const canUndo = (state: EditorState): boolean => state.past.length > 0;
export const canRedo = (state: EditorState): boolean => state.future.length > 0;

/** Human numbering: the annotator reads turn 1 and segment 1, the state stores 0. */
export const turnLabel = (turn: number): string => `turn ${turn + 1}`;
export const segmentLabel = (segment: number): string => `segment ${segment + 1}`;

function rangeLabel(first: number, last: number): string {
  return first === last ? turnLabel(first) : `turns ${first + 1}–${last + 1}`;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "select":
      return select(state, action.turn, action.extend ?? false);
    case "selectRange":
      return {
        ...select(state, action.first, false),
        focus: clampTurn(state, action.last),
      };
    case "moveFocus":
      return select(state, state.focus + action.delta, action.extend ?? false);
    case "assign":
      return assignSelection(state, action.segment);
    case "assignAdjacent":
      return assignAdjacent(state, action.direction);
    case "markUnaligned":
      return markUnaligned(state);
    case "resetToPreAlignment":
      return resetToPreAlignment(state);
    case "moveBoundary":
      return moveBoundary(state, action.direction, action.turn ?? state.focus);
    case "acceptProposal":
      return state.proposal ? apply(state, state.proposal.change) : state;
    case "dismissNotice":
      return { ...state, proposal: null, notice: null };
    case "undo":
      return undo(state);
    case "redo":
      return redo(state);
    case "replaceAssignments":
      return replaceAssignments(state, action.assignments);
    case "take":
      return take(state, action.labels, action.source);
  }
}

function clampTurn(state: EditorState, turn: number): number {
  return Math.max(0, Math.min(state.assignments.length - 1, turn));
}

function select(state: EditorState, turn: number, extend: boolean): EditorState {
  const focus = clampTurn(state, turn);
  return {
    ...state,
    focus,
    anchor: extend ? state.anchor : focus,
    proposal: null,
    notice: null,
  };
}

function refuse(state: EditorState, notice: string): EditorState {
  return { ...state, proposal: null, notice };
}

function previousAligned(assignments: readonly number[], before: number): number {
  for (let turn = before - 1; turn >= 0; turn -= 1) {
    if (assignments[turn]! !== UNALIGNED) return turn;
  }
  return -1;
}

function nextAligned(assignments: readonly number[], after: number): number {
  for (let turn = after + 1; turn < assignments.length; turn += 1) {
    if (assignments[turn]! !== UNALIGNED) return turn;
  }
  return -1;
}

/** Where a document first goes back in the report (see `firstOrderBreak`). */
export interface OrderBreak {
  turn: number;
  segment: number;
  /** The aligned turn before `turn`, whose segment is later. */
  earlierTurn: number;
  earlierSegment: number;
}

/**
 * The report-order rule: reading the transcript from the start, the segments of its aligned
 * turns never go back (unaligned turns are skipped). Returns the first aligned turn whose
 * segment comes before that of the aligned turn before it, or null when the whole document
 * keeps the order. This is the rule the server checks on every save and the engine keeps its
 * corrections to (workers/align/report_order.py); both pass
 * tests/fixtures/report_order_cases.json.
 */
export function firstOrderBreak(assignments: readonly number[]): OrderBreak | null {
  let earlierTurn = -1;
  for (let turn = 0; turn < assignments.length; turn += 1) {
    const segment = assignments[turn]!;
    if (segment === UNALIGNED) continue;
    if (earlierTurn >= 0 && segment < assignments[earlierTurn]!) {
      return { turn, segment, earlierTurn, earlierSegment: assignments[earlierTurn]! };
    }
    earlierTurn = turn;
  }
  return null;
}

/**
 * Whether the document, with `values` written from turn `first`, keeps the report order
 * throughout. The whole document is checked, as the server checks it: on a document out of
 * order elsewhere (a pre-alignment or reference that returns to the report's opening, say) an
 * edit that fits its neighbours would still be refused when saved.
 */
export function keepsOrder(
  assignments: readonly number[],
  first: number,
  values: readonly number[],
): boolean {
  return firstOrderBreak(write(assignments, first, values)) === null;
}

/** A break in the order that an edit of turns first..last leaves as it is, if any. */
function disorderOutside(
  assignments: readonly number[],
  first: number,
  last: number,
): OrderBreak | null {
  const before = firstOrderBreak(assignments.slice(0, first));
  if (before) return before;
  const after = firstOrderBreak(assignments.slice(last + 1));
  if (!after) return null;
  const offset = last + 1;
  return { ...after, turn: after.turn + offset, earlierTurn: after.earlierTurn + offset };
}

function outOfOrder(state: EditorState, found: OrderBreak): EditorState {
  return refuse(
    state,
    `${capitalise(turnLabel(found.turn))} (${segmentLabel(found.segment)}) comes after ` +
      `${turnLabel(found.earlierTurn)} (${segmentLabel(found.earlierSegment)}): the document ` +
      "is out of report order there, and only a document in order can be saved. Mend that " +
      "first: select those turns and give them one segment, or mark one unaligned.",
  );
}

function makeChange(
  state: EditorState,
  first: number,
  after: readonly number[],
  description: string,
): Change {
  return {
    first,
    before: state.assignments.slice(first, first + after.length),
    after,
    description,
  };
}

function isNoOp(change: Change): boolean {
  return change.before.every((value, index) => value === change.after[index]);
}

function write(assignments: readonly number[], first: number, values: readonly number[]): number[] {
  const next = assignments.slice();
  values.forEach((value, index) => {
    next[first + index] = value;
  });
  return next;
}

/** Every edit goes through here: one that would leave the document out of order is refused,
 * naming where, since the server would refuse to save it. */
function apply(state: EditorState, change: Change): EditorState {
  const found = firstOrderBreak(write(state.assignments, change.first, change.after));
  if (found) return outOfOrder(state, found);
  if (isNoOp(change)) return { ...state, proposal: null, notice: null };
  const last = change.first + change.after.length - 1;
  return {
    ...state,
    assignments: write(state.assignments, change.first, change.after),
    past: [...state.past, change].slice(-HISTORY_LIMIT),
    future: [],
    proposal: null,
    notice: null,
    anchor: Math.max(change.first, Math.min(state.anchor, last)),
    focus: Math.max(change.first, Math.min(state.focus, last)),
  };
}

function assignSelection(state: EditorState, segment: number): EditorState {
  if (segment < 0 || segment >= state.segmentCount) {
    return refuse(state, `There is no segment ${segment + 1}.`);
  }
  const { first, last } = selection(state);
  const values = new Array<number>(last - first + 1).fill(segment);
  const description = `${rangeLabel(first, last)} → ${segmentLabel(segment)}`;
  if (keepsOrder(state.assignments, first, values)) {
    return apply(state, makeChange(state, first, values, description));
  }
  const elsewhere = disorderOutside(state.assignments, first, last);
  if (elsewhere) return outOfOrder(state, elsewhere);
  return proposeBoundaryMove(state, first, last, segment);
}

/**
 * The order rule refused assigning turns first..last to `segment`: the neighbouring turns that
 * stand in the way (later segments above, earlier ones below) are offered the same segment,
 * which is moving the boundary. Unaligned turns in between stay unaligned.
 */
function proposeBoundaryMove(
  state: EditorState,
  first: number,
  last: number,
  segment: number,
): EditorState {
  const { assignments } = state;
  let start = first;
  for (let turn = first - 1; turn >= 0; turn -= 1) {
    const value = assignments[turn]!;
    if (value !== UNALIGNED && value <= segment) break;
    start = turn;
  }
  while (start < first && assignments[start] === UNALIGNED) start += 1;
  let end = last;
  for (let turn = last + 1; turn < assignments.length; turn += 1) {
    const value = assignments[turn]!;
    if (value !== UNALIGNED && value >= segment) break;
    end = turn;
  }
  while (end > last && assignments[end] === UNALIGNED) end -= 1;

  const values = assignments
    .slice(start, end + 1)
    .map((value, offset) =>
      start + offset >= first && start + offset <= last
        ? segment
        : value === UNALIGNED
          ? UNALIGNED
          : segment,
    );
  const moved = rangeLabel(start, end);
  const change = makeChange(state, start, values, `${moved} → ${segmentLabel(segment)}`);
  const side =
    start < first
      ? "turns of a later segment come before it"
      : "turns of an earlier segment come after it";
  return {
    ...state,
    notice: null,
    proposal: {
      reason: `${capitalise(rangeLabel(first, last))} cannot go to ${segmentLabel(segment)} alone: ${side}.`,
      change,
    },
  };
}

/**
 * The selection takes `labels` (one annotator's, in an adjudication). When that breaks the
 * report order at its edges, the run of neighbouring turns where the two still differ is
 * offered instead: taking a side for a whole disagreement keeps that side's own order.
 */
function take(state: EditorState, labels: readonly number[], source: string): EditorState {
  const { first, last } = selection(state);
  const values = labels.slice(first, last + 1);
  if (keepsOrder(state.assignments, first, values)) {
    return apply(state, makeChange(state, first, values, `${rangeLabel(first, last)} ← ${source}`));
  }
  const elsewhere = disorderOutside(state.assignments, first, last);
  if (elsewhere) return outOfOrder(state, elsewhere);
  let start = first;
  while (start > 0 && state.assignments[start - 1] !== labels[start - 1]) start -= 1;
  let end = last;
  while (end < labels.length - 1 && state.assignments[end + 1] !== labels[end + 1]) end += 1;
  const wider = labels.slice(start, end + 1);
  if ((start === first && end === last) || !keepsOrder(state.assignments, start, wider)) {
    return refuse(
      state,
      `${capitalise(rangeLabel(first, last))} cannot take ${source}'s labels: the turns around ` +
        "would go back in the report. Select more turns, or correct by hand.",
    );
  }
  return {
    ...state,
    notice: null,
    proposal: {
      reason: `${capitalise(rangeLabel(first, last))} cannot take ${source}'s labels alone: the turns around would go back in the report.`,
      change: makeChange(state, start, wider, `${rangeLabel(start, end)} ← ${source}`),
    },
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The segment "above" a turn is the one before its own; an unaligned turn looks at the nearest
 * aligned turn on that side instead, since it has no segment of its own.
 */
function adjacentSegment(state: EditorState, direction: Direction): number | null {
  const { first, last } = selection(state);
  const { assignments } = state;
  const edge = direction < 0 ? first : last;
  const own = assignments[edge]!;
  if (own !== UNALIGNED) return own + direction;
  const neighbour =
    direction < 0 ? previousAligned(assignments, edge) : nextAligned(assignments, edge);
  return neighbour < 0 ? null : assignments[neighbour]!;
}

function assignAdjacent(state: EditorState, direction: Direction): EditorState {
  const segment = adjacentSegment(state, direction);
  if (segment === null || segment < 0 || segment >= state.segmentCount) {
    return refuse(state, `There is no segment ${direction < 0 ? "above" : "below"}.`);
  }
  return assignSelection(state, segment);
}

function markUnaligned(state: EditorState): EditorState {
  const { first, last } = selection(state);
  const values = new Array<number>(last - first + 1).fill(UNALIGNED);
  return apply(state, makeChange(state, first, values, `${rangeLabel(first, last)} → unaligned`));
}

/**
 * Resetting restores the pre-alignment; if the annotator moved the neighbours meanwhile, that
 * could break the order, so the reset grows over them until it fits and is offered instead.
 */
function resetToPreAlignment(state: EditorState): EditorState {
  const { first, last } = selection(state);
  const description = (start: number, end: number) => `${rangeLabel(start, end)} → pre-alignment`;
  const values = state.preAlignment.slice(first, last + 1);
  if (keepsOrder(state.assignments, first, values)) {
    return apply(state, makeChange(state, first, values, description(first, last)));
  }
  const elsewhere = disorderOutside(state.assignments, first, last);
  if (elsewhere) return outOfOrder(state, elsewhere);
  let start = first;
  let end = last;
  const fits = () => keepsOrder(state.assignments, start, state.preAlignment.slice(start, end + 1));
  while (!fits() && (start > 0 || end < state.assignments.length - 1)) {
    start = Math.max(0, start - 1);
    end = Math.min(state.assignments.length - 1, end + 1);
  }
  if (!fits()) {
    return refuse(
      state,
      "The pre-alignment itself is out of order here; assign the turns by hand.",
    );
  }
  const change = makeChange(
    state,
    start,
    state.preAlignment.slice(start, end + 1),
    description(start, end),
  );
  return {
    ...state,
    notice: null,
    proposal: {
      reason: `Resetting ${rangeLabel(first, last)} alone would break the order with the turns around it.`,
      change,
    },
  };
}

/**
 * The boundary a turn belongs to is the top of its segment's run of turns, between its first
 * turn and the nearest aligned turn above. Moving it up gives that turn above to the run;
 * moving it down gives the run's first turn to the segment above. Focus follows the boundary
 * so that pressing again keeps moving it.
 */
function moveBoundary(state: EditorState, direction: Direction, turn: number): EditorState {
  const { assignments } = state;
  const segment = assignments[turn];
  if (segment === undefined || segment === UNALIGNED) {
    return refuse(state, "An unaligned turn has no boundary to move; select an aligned turn.");
  }
  let runStart = turn;
  for (
    let above = previousAligned(assignments, turn);
    above >= 0;
    above = previousAligned(assignments, above)
  ) {
    if (assignments[above] !== segment) break;
    runStart = above;
  }
  const above = previousAligned(assignments, runStart);
  if (above < 0) return refuse(state, `No segment comes before ${segmentLabel(segment)}'s turns.`);
  const segmentAbove = assignments[above]!;

  if (direction < 0) {
    const change = makeChange(
      state,
      above,
      [segment],
      `${turnLabel(above)} → ${segmentLabel(segment)}`,
    );
    return { ...apply(state, change), focus: above, anchor: above };
  }
  const change = makeChange(
    state,
    runStart,
    [segmentAbove],
    `${turnLabel(runStart)} → ${segmentLabel(segmentAbove)}`,
  );
  const applied = apply(state, change);
  const below = nextAligned(applied.assignments, runStart);
  const focus = below < 0 ? runStart : below;
  return { ...applied, focus, anchor: focus };
}

function undo(state: EditorState): EditorState {
  const change = state.past[state.past.length - 1];
  if (!change) return refuse(state, "Nothing to undo.");
  return {
    ...state,
    assignments: write(state.assignments, change.first, change.before),
    past: state.past.slice(0, -1),
    future: [...state.future, change],
    proposal: null,
    notice: null,
    anchor: change.first,
    focus: change.first + change.before.length - 1,
  };
}

function redo(state: EditorState): EditorState {
  const change = state.future[state.future.length - 1];
  if (!change) return refuse(state, "Nothing to redo.");
  return {
    ...state,
    assignments: write(state.assignments, change.first, change.after),
    past: [...state.past, change],
    future: state.future.slice(0, -1),
    proposal: null,
    notice: null,
    anchor: change.first,
    focus: change.first + change.after.length - 1,
  };
}

/**
 * Another version replaces the annotator's (the server's, or theirs rebased on it); the old
 * history described edits to a different starting point, so it is dropped rather than replayed.
 */
function replaceAssignments(state: EditorState, assignments: readonly number[]): EditorState {
  if (assignments.length !== state.assignments.length) {
    throw new Error("the replacement covers a different number of turns");
  }
  return { ...state, assignments, past: [], future: [], proposal: null, notice: null };
}
