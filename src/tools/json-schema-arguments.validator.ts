import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { JsonSchemaObject } from './handler-options';
import { FieldError, invalidArguments } from './invalid-arguments.error';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/*
 * One Ajv for every hand-written input schema. Not strict: MCP schemas may
 * carry annotations Ajv does not know; union types are valid 2020-12.
 */
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true }));

export type ArgumentsCheck = (args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Compiles a handler's hand-written `inputSchema` (JSON Schema 2020-12, the
 * default dialect of MCP) into the check tools/call runs: arguments are
 * accepted exactly as the published schema says (nothing coerced, no defaults
 * filled in) or refused with -32602 naming each failing field, like DTO
 * checks. A schema that is not an object schema, names another dialect or
 * does not compile stops the start-up with the tool's name.
 */
export function compileArgumentsSchema(toolName: string, schema: JsonSchemaObject): ArgumentsCheck {
  const problem = schemaProblem(schema);
  if (problem) throw new Error(`Tool "${toolName}": inputSchema ${problem}`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new Error(`Tool "${toolName}": inputSchema does not compile: ${(err as Error).message}`);
  }
  return (args) => {
    if (validate(args)) return Promise.resolve(args);
    return Promise.reject(invalidArguments(toolName, fieldErrors(validate.errors ?? [])));
  };
}

function schemaProblem(schema: JsonSchemaObject): string | undefined {
  if (schema.type !== 'object') return 'must describe an object ("type": "object")';
  const dialect = schema.$schema;
  if (dialect !== undefined && dialect !== DRAFT_2020_12) {
    return `must be JSON Schema 2020-12 ($schema ${JSON.stringify(dialect)} is not supported)`;
  }
  return undefined;
}

/** Ajv errors grouped by the dotted path of the field they concern (`address.city`). */
function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const byField = new Map<string, string[]>();
  for (const error of errors) {
    const path = error.instancePath.split('/').slice(1);
    const named = namedProperty(error);
    if (named !== undefined) path.push(named);
    const field = path.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
    const problem =
      error.keyword === 'additionalProperties'
        ? 'property should not exist'
        : (error.message ?? error.keyword);
    const problems = byField.get(field || '(arguments)') ?? [];
    problems.push(problem);
    byField.set(field || '(arguments)', problems);
  }
  return [...byField].map(([field, problems]) => ({ field, problems }));
}

function namedProperty(error: ErrorObject): string | undefined {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  return params.missingProperty ?? params.additionalProperty;
}
