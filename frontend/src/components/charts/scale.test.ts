import { describe, expect, it } from "vitest";
import { coefficientDomain, countDomain, linearScale, niceTicks, percentDomain } from "./scale";

describe("linearScale", () => {
  it("maps the domain onto a downward range, as SVG's y axis needs", () => {
    const y = linearScale([0, 100], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(100)).toBe(0);
    expect(y(25)).toBe(150);
    expect(y.ticks).toEqual([0, 20, 40, 60, 80, 100]);
  });
});

describe("niceTicks", () => {
  it("steps by 1, 2 or 5 times a power of ten", () => {
    expect(niceTicks(0, 7, 4)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(0, 1300, 4)).toEqual([0, 500, 1000]);
    expect(niceTicks(0.1, 0.5, 4)).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
  });
});

describe("countDomain", () => {
  it("ends on a round number at or above the largest count", () => {
    expect(countDomain([3, 7])).toEqual([0, 8]);
    expect(countDomain([1300])).toEqual([0, 1500]);
    expect(countDomain([])).toEqual([0, 1]);
  });
});

describe("percentDomain", () => {
  it("zooms to the tens around the values, within 0 to 100", () => {
    expect(percentDomain([80, 98.5, 91.1])).toEqual([80, 100]);
    expect(percentDomain([12.5, 3])).toEqual([0, 20]);
    expect(percentDomain([100])).toEqual([90, 100]);
    expect(percentDomain([0])).toEqual([0, 10]);
    expect(percentDomain([])).toEqual([0, 100]);
  });
});

describe("coefficientDomain", () => {
  it("zooms to the tenths that hold kappa or alpha, within -1 to 1", () => {
    expect(coefficientDomain([0.62, 0.97])).toEqual([0.6, 1]);
    expect(coefficientDomain([-0.25, 0.31])).toEqual([-0.3, 0.4]);
    expect(coefficientDomain([1, 1])).toEqual([0.9, 1]);
    expect(coefficientDomain([-1])).toEqual([-1, -0.9]);
    expect(coefficientDomain([])).toEqual([0, 1]);
  });
});
