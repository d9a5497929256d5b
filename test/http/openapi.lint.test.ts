// The served /openapi.json of the real domain list under Redocly's recommended ruleset, and the
// properties of the document that generated clients and the docs page rely on (support/openapi-lint.ts).
import { domains } from '../../src/domains/index.js';
import { describeOpenApiLint } from '../support/openapi-lint.js';

describeOpenApiLint('/openapi.json', domains);
