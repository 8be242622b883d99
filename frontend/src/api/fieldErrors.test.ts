import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "./client";
import { fieldErrors } from "./fieldErrors";

const badRequest = (body: unknown) => new ApiError(400, "bad", body);

describe("fieldErrors", () => {
  it("reads a serializer's messages per field, list items' included", () => {
    expect(
      fieldErrors(
        badRequest({
          sample_size: ["Ensure this value is greater than or equal to 1."],
          raters: { "0": ["A valid integer is required."] },
          non_field_errors: ["Wrong."],
          detail: "sample_size: Ensure this value is greater than or equal to 1.",
        }),
      ),
    ).toEqual({
      sample_size: "Ensure this value is greater than or equal to 1.",
      raters: "A valid integer is required.",
      "": "Wrong.",
    });
  });

  it("puts a service's refusal under the field it names, or under none", () => {
    expect(
      fieldErrors(
        badRequest({ detail: "controls is 3 but the project has 0.", field: "controls" }),
      ),
    ).toEqual({ controls: "controls is 3 but the project has 0." });
    expect(fieldErrors(badRequest({ detail: "No." }))).toEqual({ "": "No." });
  });

  it("is empty for anything but a 400 with a JSON body", () => {
    expect(fieldErrors(new ApiError(403, "no", { detail: "no" }))).toEqual({});
    expect(fieldErrors(badRequest("<html>"))).toEqual({});
    expect(fieldErrors(new NetworkError(null))).toEqual({});
  });
});
