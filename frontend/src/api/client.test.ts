import { describe, expect, it } from "vitest";
import { errorMessage } from "./client";

const badRequest = { status: 400, statusText: "Bad Request" };

describe("errorMessage", () => {
  it("reads DRF's detail, or the first field's messages", () => {
    expect(errorMessage(badRequest, { detail: "Your copy is stale." })).toBe("Your copy is stale.");
    expect(errorMessage(badRequest, { version: ["must be an integer."] })).toBe(
      "version: must be an integer.",
    );
    expect(errorMessage(badRequest, { non_field_errors: ["Wrong password."] })).toBe(
      "Wrong password.",
    );
  });

  it("follows a nested serializer's errors to the field", () => {
    expect(errorMessage(badRequest, { settings: { license: ["Give an id."] } })).toBe(
      "settings.license: Give an id.",
    );
  });

  it("falls back to the status when the body says nothing", () => {
    expect(errorMessage({ status: 502, statusText: "Bad Gateway" }, "<html>")).toBe(
      "The server answered 502 Bad Gateway",
    );
  });
});
