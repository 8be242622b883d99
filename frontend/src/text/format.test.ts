import { describe, expect, it } from "vitest";
import { duration, percent } from "./format";

describe("format", () => {
  it("prints percentages with one decimal and a dash for nothing", () => {
    expect(percent(76.634)).toBe("76.6%");
    expect(percent(null)).toBe("—");
  });

  it("prints durations in the largest unit that reads well", () => {
    expect(duration(42)).toBe("42 s");
    expect(duration(600)).toBe("10 min");
    expect(duration(3900)).toBe("1 h 5 min");
  });
});
