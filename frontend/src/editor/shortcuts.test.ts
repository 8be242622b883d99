import { describe, expect, it } from "vitest";
import {
  SHORTCUTS,
  commandFor,
  describeBinding,
  editorActionFor,
  type KeyPress,
} from "./shortcuts";

function press(key: string, modifiers: Partial<Omit<KeyPress, "key">> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...modifiers };
}

describe("commandFor", () => {
  it("moves, extends, assigns and moves boundaries with the arrows and modifiers", () => {
    expect(commandFor(press("ArrowDown"))).toBe("nextTurn");
    expect(commandFor(press("ArrowDown", { shiftKey: true }))).toBe("extendDown");
    expect(commandFor(press("ArrowUp", { altKey: true }))).toBe("assignAbove");
    expect(commandFor(press("ArrowDown", { altKey: true }))).toBe("assignBelow");
    expect(commandFor(press("ArrowUp", { altKey: true, shiftKey: true }))).toBe("boundaryUp");
  });

  it("takes Ctrl or ⌘ for the primary modifier", () => {
    expect(commandFor(press("z", { ctrlKey: true }))).toBe("undo");
    expect(commandFor(press("z", { metaKey: true }))).toBe("undo");
    expect(commandFor(press("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(commandFor(press("s", { ctrlKey: true }))).toBe("save");
    expect(commandFor(press("Enter", { ctrlKey: true }))).toBe("submit");
  });

  it("tells a letter from the same letter with a modifier", () => {
    expect(commandFor(press("z"))).toBeNull();
    expect(commandFor(press("u"))).toBe("markUnaligned");
    expect(commandFor(press("a"))).toBe("assignTo");
    expect(commandFor(press("u", { ctrlKey: true }))).toBeNull();
    expect(commandFor(press("n"))).toBe("nextLowConfidence");
    expect(commandFor(press("N", { shiftKey: true }))).toBe("previousLowConfidence");
  });

  it("accepts characters that need Shift on the keyboard", () => {
    expect(commandFor(press("?", { shiftKey: true }))).toBe("help");
    expect(commandFor(press("?"))).toBe("help");
  });

  it("binds each key combination once", () => {
    const seen = new Set<string>();
    for (const shortcut of SHORTCUTS) {
      for (const binding of shortcut.bindings) {
        const id = JSON.stringify(binding);
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
  });
});

describe("describeBinding", () => {
  it("names modifiers for the platform", () => {
    expect(describeBinding({ key: "Z", primary: true, shift: true }, false)).toBe(
      "Ctrl + Shift + Z",
    );
    expect(describeBinding({ key: "z", primary: true }, true)).toBe("⌘ + Z");
    expect(describeBinding({ key: "ArrowUp", alt: true }, false)).toBe("Alt + ↑");
    expect(describeBinding({ key: "?" }, false)).toBe("?");
    expect(describeBinding({ key: "N", shift: true }, false)).toBe("Shift + N");
  });
});

describe("editorActionFor", () => {
  it("turns editing commands into state actions and leaves the others to the page", () => {
    expect(editorActionFor("extendUp")).toEqual({ type: "moveFocus", delta: -1, extend: true });
    expect(editorActionFor("assignBelow")).toEqual({ type: "assignAdjacent", direction: 1 });
    expect(editorActionFor("boundaryUp")).toEqual({ type: "moveBoundary", direction: -1 });
    expect(editorActionFor("save")).toBeNull();
    expect(editorActionFor("help")).toBeNull();
  });
});
