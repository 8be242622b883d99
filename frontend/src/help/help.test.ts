import { describe, expect, it } from "vitest";
import { helpPath, inAppTarget, parseHelpPath } from "./api";

const plainClick = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };

describe("parseHelpPath", () => {
  it("reads the index and a page back from the paths it builds", () => {
    expect(parseHelpPath("/help")).toBeNull();
    expect(parseHelpPath("/help/")).toBeNull();
    expect(parseHelpPath(helpPath("ratings"))).toBe("ratings");
    expect(parseHelpPath("/help/ratings/")).toBe("ratings");
  });

  it("leaves other paths alone", () => {
    expect(parseHelpPath("/helpers")).toBeUndefined();
    expect(parseHelpPath("/help/a/b")).toBeUndefined();
    expect(parseHelpPath("/help/screenshots/editor.png")).toBeUndefined();
  });
});

describe("inAppTarget", () => {
  it("keeps links between help pages in the app, anchors included", () => {
    expect(inAppTarget(helpPath("exports", "filters"), plainClick)).toBe("/help/exports#filters");
  });

  it("lets the browser follow other links and modified clicks", () => {
    expect(inAppTarget("https://django-axes.readthedocs.io/", plainClick)).toBeNull();
    expect(inAppTarget("#listening", plainClick)).toBeNull();
    expect(inAppTarget(null, plainClick)).toBeNull();
    expect(inAppTarget("/help/exports", { ...plainClick, ctrlKey: true })).toBeNull();
    expect(inAppTarget("/help/exports", { ...plainClick, button: 1 })).toBeNull();
  });
});
