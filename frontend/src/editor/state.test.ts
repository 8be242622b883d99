import { describe, expect, it } from "vitest";
import {
  UNALIGNED as U,
  canRedo,
  canUndo,
  createEditorState,
  editorReducer,
  firstOrderBreak,
  isChanged,
  keepsOrder,
  selection,
  type EditorAction,
  type EditorState,
} from "./state";
import orderCases from "../../../tests/fixtures/report_order_cases.json";

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

/** Turns 0-2 → segment 0, 3-5 → 1, 6 unaligned, 7-9 → 2; segment 3 has no turns. */
const preAlignment = [0, 0, 0, 1, 1, 1, U, 2, 2, 2];
const initial = createEditorState(preAlignment, preAlignment, 4);

describe("selection", () => {
  it("starts on the first turn", () => {
    expect(selection(initial)).toEqual({ first: 0, last: 0 });
  });

  it("moves focus and clamps it to the document", () => {
    expect(run(initial, { type: "moveFocus", delta: 3 }).focus).toBe(3);
    expect(run(initial, { type: "moveFocus", delta: -1 }).focus).toBe(0);
    expect(run(initial, { type: "moveFocus", delta: 99 }).focus).toBe(9);
  });

  it("extends a run of turns from the anchor either way", () => {
    const extended = run(
      initial,
      { type: "select", turn: 4 },
      { type: "moveFocus", delta: -2, extend: true },
    );
    expect(selection(extended)).toEqual({ first: 2, last: 4 });
    expect(selection(run(extended, { type: "select", turn: 7, extend: true }))).toEqual({
      first: 4,
      last: 7,
    });
  });

  it("selects a range directly", () => {
    const state = run(initial, { type: "selectRange", first: 2, last: 5 });
    expect(selection(state)).toEqual({ first: 2, last: 5 });
    expect(state.focus).toBe(5);
  });
});

describe("the report-order rule (tests/fixtures/report_order_cases.json, as the server)", () => {
  it.each(orderCases.documents)("first break: $why", ({ labels, first_break }) => {
    const found = firstOrderBreak(labels);
    expect(
      found && {
        turn: found.turn,
        segment: found.segment,
        earlier_turn: found.earlierTurn,
        earlier_segment: found.earlierSegment,
      },
    ).toEqual(first_break);
  });

  it.each(orderCases.edits)("keepsOrder: $why", ({ labels, first, values, keeps_order }) => {
    expect(keepsOrder(labels, first, values)).toBe(keeps_order);
  });
});

describe("a document out of order elsewhere", () => {
  /** Turn 2 (segment 1) returns to the report's opening after turn 1 (segment 4). */
  const disordered = [3, 0, 0, 1, 1, 2];
  const state = createEditorState(disordered, disordered, 4);

  it("refuses an edit that fits its neighbours, naming where the order breaks", () => {
    const after = run(state, { type: "select", turn: 4 }, { type: "assign", segment: 2 });
    expect(after.assignments).toEqual(disordered);
    expect(after.proposal).toBeNull();
    expect(after.notice).toMatch(/^Turn 2 \(segment 1\) comes after turn 1 \(segment 4\)/);
    expect(run(state, { type: "select", turn: 5 }, { type: "markUnaligned" }).assignments).toEqual(
      disordered,
    );
  });

  it("accepts the edit that mends it", () => {
    const mended = run(state, { type: "select", turn: 0 }, { type: "markUnaligned" });
    expect(mended.assignments).toEqual([U, 0, 0, 1, 1, 2]);
    expect(mended.notice).toBeNull();
  });
});

describe("assign", () => {
  it("assigns the selected run when the order allows it", () => {
    const state = run(
      initial,
      { type: "selectRange", first: 3, last: 4 },
      { type: "assign", segment: 0 },
    );
    expect(state.assignments).toEqual([0, 0, 0, 0, 0, 1, U, 2, 2, 2]);
    expect(state.past).toHaveLength(1);
    expect(state.past[0]!.description).toBe("turns 4–5 → segment 1");
    expect(state.proposal).toBeNull();
  });

  it("assigns an unaligned turn to a segment on either side", () => {
    expect(
      run(initial, { type: "select", turn: 6 }, { type: "assign", segment: 1 }).assignments[6],
    ).toBe(1);
    expect(
      run(initial, { type: "select", turn: 6 }, { type: "assign", segment: 2 }).assignments[6],
    ).toBe(2);
  });

  it("offers a boundary move instead of breaking the order upwards", () => {
    const state = run(initial, { type: "select", turn: 4 }, { type: "assign", segment: 0 });
    expect(state.assignments).toEqual(preAlignment);
    expect(state.proposal?.reason).toMatch(/turn 5 cannot go to segment 1 alone/i);
    expect(state.proposal?.change).toMatchObject({ first: 3, after: [0, 0] });
    const accepted = run(state, { type: "acceptProposal" });
    expect(accepted.assignments).toEqual([0, 0, 0, 0, 0, 1, U, 2, 2, 2]);
    expect(accepted.proposal).toBeNull();
    expect(accepted.past).toHaveLength(1);
  });

  it("offers a boundary move instead of breaking the order downwards", () => {
    const state = run(initial, { type: "select", turn: 3 }, { type: "assign", segment: 2 });
    expect(state.proposal?.change).toMatchObject({ first: 3, after: [2, 2, 2] });
    expect(run(state, { type: "acceptProposal" }).assignments).toEqual([
      0,
      0,
      0,
      2,
      2,
      2,
      U,
      2,
      2,
      2,
    ]);
  });

  it("leaves unaligned turns inside a moved boundary unaligned", () => {
    const state = run(initial, { type: "select", turn: 8 }, { type: "assign", segment: 1 });
    expect(state.proposal?.change).toMatchObject({ first: 7, after: [1, 1] });
    const across = createEditorState([0, U, 1, 1], [0, U, 1, 1], 2);
    const backwards = run(
      across,
      { type: "select", turn: 3 },
      { type: "assign", segment: 0 },
    ).proposal;
    expect(backwards?.change).toMatchObject({ first: 2, after: [0, 0] });
    const spanning = createEditorState([0, 1, U, 1, 2], [0, 1, U, 1, 2], 3);
    const over = run(
      spanning,
      { type: "select", turn: 4 },
      { type: "assign", segment: 0 },
    ).proposal;
    expect(over?.change).toMatchObject({ first: 1, after: [0, U, 0, 0] });
    const wider = run(initial, { type: "select", turn: 2 }, { type: "assign", segment: 2 });
    expect(wider.proposal?.change).toMatchObject({ first: 2, after: [2, 2, 2, 2] });
  });

  it("dismisses a proposal without changing anything", () => {
    const state = run(
      initial,
      { type: "select", turn: 4 },
      { type: "assign", segment: 0 },
      { type: "dismissNotice" },
    );
    expect(state.proposal).toBeNull();
    expect(state.assignments).toEqual(preAlignment);
    expect(run(state, { type: "acceptProposal" })).toBe(state);
  });

  it("refuses a segment that does not exist", () => {
    const state = run(initial, { type: "assign", segment: 4 });
    expect(state.notice).toMatch(/no segment 5/);
    expect(state.assignments).toBe(initial.assignments);
  });

  it("records nothing when the turns already have that segment", () => {
    const state = run(initial, { type: "select", turn: 1 }, { type: "assign", segment: 0 });
    expect(state.past).toHaveLength(0);
  });
});

describe("assign to the adjacent segment", () => {
  it("gives the first turn of a run to the segment above: the boundary moves down", () => {
    const state = run(
      initial,
      { type: "select", turn: 3 },
      { type: "assignAdjacent", direction: -1 },
    );
    expect(state.assignments.slice(0, 6)).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it("gives the last turn of a run to the segment below: the boundary moves up", () => {
    const state = run(
      initial,
      { type: "select", turn: 2 },
      { type: "assignAdjacent", direction: 1 },
    );
    expect(state.assignments.slice(0, 6)).toEqual([0, 0, 1, 1, 1, 1]);
  });

  it("may reach a segment that has no turns yet", () => {
    const state = run(
      initial,
      { type: "select", turn: 9 },
      { type: "assignAdjacent", direction: 1 },
    );
    expect(state.assignments[9]).toBe(3);
  });

  it("offers a boundary move for a turn in the middle of a run", () => {
    const state = run(
      initial,
      { type: "select", turn: 4 },
      { type: "assignAdjacent", direction: -1 },
    );
    expect(state.proposal?.change).toMatchObject({ first: 3, after: [0, 0] });
  });

  it("uses the nearest aligned turn for an unaligned one", () => {
    const up = run(initial, { type: "select", turn: 6 }, { type: "assignAdjacent", direction: -1 });
    const down = run(
      initial,
      { type: "select", turn: 6 },
      { type: "assignAdjacent", direction: 1 },
    );
    expect(up.assignments[6]).toBe(1);
    expect(down.assignments[6]).toBe(2);
  });

  it("refuses to go past the first or last segment", () => {
    expect(run(initial, { type: "assignAdjacent", direction: -1 }).notice).toMatch(
      /no segment above/,
    );
    const last = createEditorState([0, 3], [0, 3], 4);
    expect(
      run(last, { type: "select", turn: 1 }, { type: "assignAdjacent", direction: 1 }).notice,
    ).toMatch(/no segment below/);
    const allUnaligned = createEditorState([U, U], [U, U], 2);
    expect(run(allUnaligned, { type: "assignAdjacent", direction: -1 }).notice).toMatch(
      /no segment above/,
    );
  });
});

describe("mark unaligned and reset", () => {
  it("marks the selected turns unaligned", () => {
    const state = run(
      initial,
      { type: "selectRange", first: 1, last: 2 },
      { type: "markUnaligned" },
    );
    expect(state.assignments.slice(0, 4)).toEqual([0, U, U, 1]);
    expect(isChanged(state, 1)).toBe(true);
    expect(isChanged(state, 0)).toBe(false);
  });

  it("resets turns to the pre-alignment", () => {
    const edited = run(
      initial,
      { type: "selectRange", first: 1, last: 2 },
      { type: "markUnaligned" },
    );
    const reset = run(edited, { type: "select", turn: 2 }, { type: "resetToPreAlignment" });
    expect(reset.assignments.slice(0, 3)).toEqual([0, U, 0]);
    expect(isChanged(reset, 2)).toBe(false);
  });

  it("grows a reset that would break the order with edited neighbours, as a proposal", () => {
    const edited = run(
      initial,
      { type: "selectRange", first: 2, last: 5 },
      { type: "assign", segment: 2 },
    );
    expect(edited.assignments.slice(0, 6)).toEqual([0, 0, 2, 2, 2, 2]);
    const reset = run(edited, { type: "select", turn: 3 }, { type: "resetToPreAlignment" });
    expect(reset.assignments).toBe(edited.assignments);
    expect(reset.proposal?.reason).toMatch(/resetting turn 4 alone/i);
    const accepted = run(reset, { type: "acceptProposal" });
    expect(accepted.assignments.slice(0, 6)).toEqual([0, 0, 0, 1, 1, 2]);
  });
});

describe("move a boundary", () => {
  it("moves the boundary above a run down one turn at a time, focus following", () => {
    const once = run(initial, { type: "select", turn: 4 }, { type: "moveBoundary", direction: 1 });
    expect(once.assignments.slice(0, 6)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(once.focus).toBe(4);
    const twice = run(once, { type: "moveBoundary", direction: 1 });
    expect(twice.assignments.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(twice.past).toHaveLength(2);
  });

  it("moves the boundary up, focus following", () => {
    const state = run(
      initial,
      { type: "select", turn: 5 },
      { type: "moveBoundary", direction: -1 },
    );
    expect(state.assignments.slice(0, 6)).toEqual([0, 0, 1, 1, 1, 1]);
    expect(state.focus).toBe(2);
  });

  it("moves a boundary named by its turn, whatever the focus", () => {
    const state = run(initial, { type: "moveBoundary", direction: -1, turn: 7 });
    expect(state.assignments.slice(5, 8)).toEqual([2, U, 2]);
  });

  it("steps over unaligned turns between two runs", () => {
    const down = run(initial, { type: "select", turn: 7 }, { type: "moveBoundary", direction: 1 });
    expect(down.assignments.slice(5, 10)).toEqual([1, U, 1, 2, 2]);
    expect(down.focus).toBe(8);
  });

  it("lets a run empty out, then moves the next boundary", () => {
    const small = createEditorState([0, 1, 2, 2], [0, 1, 2, 2], 3);
    const emptied = run(small, { type: "select", turn: 1 }, { type: "moveBoundary", direction: 1 });
    expect(emptied.assignments).toEqual([0, 0, 2, 2]);
    expect(emptied.focus).toBe(2);
    expect(run(emptied, { type: "moveBoundary", direction: 1 }).assignments).toEqual([0, 0, 0, 2]);
  });

  it("refuses when there is no boundary above or the turn is unaligned", () => {
    expect(
      run(initial, { type: "select", turn: 1 }, { type: "moveBoundary", direction: 1 }).notice,
    ).toMatch(/no segment comes before/i);
    expect(
      run(initial, { type: "select", turn: 6 }, { type: "moveBoundary", direction: 1 }).notice,
    ).toMatch(/unaligned turn has no boundary/i);
  });
});

describe("undo and redo", () => {
  const edited = run(
    initial,
    { type: "select", turn: 3 },
    { type: "assignAdjacent", direction: -1 },
    { type: "select", turn: 9 },
    { type: "markUnaligned" },
  );

  it("undoes edits in reverse order and redoes them", () => {
    const once = run(edited, { type: "undo" });
    expect(once.assignments).toEqual([0, 0, 0, 0, 1, 1, U, 2, 2, 2]);
    expect(once.focus).toBe(9);
    const twice = run(once, { type: "undo" });
    expect(twice.assignments).toEqual(preAlignment);
    expect(canUndo(twice)).toBe(false);
    expect(canRedo(twice)).toBe(true);
    expect(run(twice, { type: "redo" }, { type: "redo" }).assignments).toEqual(edited.assignments);
  });

  it("forgets the redo history when a new edit is made", () => {
    const branched = run(
      edited,
      { type: "undo" },
      { type: "select", turn: 0 },
      { type: "markUnaligned" },
    );
    expect(canRedo(branched)).toBe(false);
    expect(branched.past).toHaveLength(2);
  });

  it("says so when there is nothing to undo or redo", () => {
    expect(run(initial, { type: "undo" }).notice).toBe("Nothing to undo.");
    expect(run(initial, { type: "redo" }).notice).toBe("Nothing to redo.");
  });

  it("undoes an accepted boundary proposal in one step", () => {
    const accepted = run(
      initial,
      { type: "select", turn: 5 },
      { type: "assign", segment: 0 },
      { type: "acceptProposal" },
    );
    expect(accepted.assignments.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(run(accepted, { type: "undo" }).assignments).toEqual(preAlignment);
  });

  it("never mutates an earlier state", () => {
    const frozen = Object.freeze([...preAlignment]);
    const state = createEditorState(frozen, frozen, 4);
    expect(() =>
      run(state, { type: "markUnaligned" }, { type: "undo" }, { type: "redo" }),
    ).not.toThrow();
    expect(frozen).toEqual(preAlignment);
  });
});

describe("replace the assignments", () => {
  it("takes another version and drops the history that no longer applies", () => {
    const edited = run(initial, { type: "markUnaligned" });
    const replaced = run(edited, {
      type: "replaceAssignments",
      assignments: [...preAlignment].reverse(),
    });
    expect(replaced.assignments[0]).toBe(2);
    expect(canUndo(replaced)).toBe(false);
  });

  it("refuses a version with a different number of turns", () => {
    expect(() => run(initial, { type: "replaceAssignments", assignments: [0] })).toThrow();
  });
});

it("refuses assignments and a pre-alignment of different lengths", () => {
  expect(() => createEditorState([0], [0, 0], 1)).toThrow();
});

describe("take an annotator's labels (adjudication)", () => {
  const theirs = [0, 1, 1, 2];

  it("writes their labels over the selection, undoably", () => {
    const state = editorReducer(
      editorReducer(createEditorState([0, 0, 1, 2], [0, 0, 1, 2], 3), { type: "select", turn: 1 }),
      { type: "take", labels: theirs, source: "bob" },
    );

    expect(state.assignments).toEqual([0, 1, 1, 2]);
    expect(state.past[0]!.description).toBe("turn 2 ← bob");
    expect(editorReducer(state, { type: "undo" }).assignments).toEqual([0, 0, 1, 2]);
  });

  it("offers the whole disagreement when one turn alone would break the order", () => {
    const start = createEditorState([0, 0, 0, 2], [0, 0, 0, 2], 3);
    const selected = editorReducer(start, { type: "select", turn: 1 });

    const refused = editorReducer(selected, { type: "take", labels: [0, 1, 0, 2], source: "ann" });
    expect(refused.assignments).toEqual([0, 0, 0, 2]);
    expect(refused.notice).toMatch(/cannot take ann's labels/);

    const offered = editorReducer(selected, { type: "take", labels: [0, 1, 1, 2], source: "bob" });
    expect(offered.assignments).toEqual([0, 0, 0, 2]);
    expect(offered.proposal?.change.first).toBe(1);
    expect(editorReducer(offered, { type: "acceptProposal" }).assignments).toEqual([0, 1, 1, 2]);
  });
});
