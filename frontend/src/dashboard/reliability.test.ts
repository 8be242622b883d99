import { describe, expect, it } from "vitest";
import { reliabilitySummary } from "./ReliabilityPanel";

describe("reliabilitySummary", () => {
  it("gives the calibration error and how well the confidence ranks the turns", () => {
    expect(
      reliabilitySummary({
        turns: 30,
        expected_calibration_error: 0.0432,
        auroc: 0.8125,
        bins: [],
      }),
    ).toBe("calibration error 4.3%, AUROC 0.81");
  });

  it("leaves the AUROC out when the gold kept every turn or none", () => {
    expect(
      reliabilitySummary({ turns: 12, expected_calibration_error: 0.1, auroc: null, bins: [] }),
    ).toBe("calibration error 10.0%");
  });
});
