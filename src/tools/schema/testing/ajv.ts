import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Ajv for JSON Schema 2020-12 (MCP 2025-11-25's default dialect) with the standard formats.
 * `strict` makes Ajv reject unknown keywords, so an internal marker leaking into a published
 * schema fails the tests; union types (`type: ['string', 'null']`) are valid 2020-12.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}
