// Types of api-types.mjs (plain JavaScript, run by the build without a compile step).
/** src/client/partner-api.generated.ts, absolute. */
export const GENERATED: string;
/** The OpenAPI document the built command (dist/main.js) prints. */
export function servedDocument(): unknown;
/** The generated module's text for an OpenAPI document. */
export function apiTypes(doc: unknown): Promise<string>;
