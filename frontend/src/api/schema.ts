/**
 * The API's shapes, as its OpenAPI schema declares them. `schema.gen.ts` is generated from
 * `/api/v1/schema/` by `scripts/api-types` (never edit it): the frontend's API types are
 * aliases of its components, so tsc checks the frontend against the real API.
 */
import type { components } from "./schema.gen";

/** One component of the schema, e.g. `Schema<"EditorPayload">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
