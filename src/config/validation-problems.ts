import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import type { SchemaProblem } from './config.schema';

/**
 * `plain` as an instance of `schema`, and what class-validator finds wrong
 * with it: unknown keys are errors (not silently dropped), one finding per
 * key. The options the gateway config and the upstream registry files share.
 */
export function validateStrictly<T extends object>(
  schema: ClassConstructor<T>,
  plain: object,
): { instance: T; errors: ValidationError[] } {
  const instance = plainToInstance(schema, plain);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  return { instance, errors };
}

/**
 * Flattens class-validator's error tree into one problem per key path, with
 * messages phrased to follow the key ("must be ..."). Shared by the gateway
 * config and the upstream registry files, so both read the same way.
 */
export function validationProblems(
  errors: ValidationError[],
  unknownKeyMessage: string,
  parent: string[] = [],
  out: SchemaProblem[] = [],
): SchemaProblem[] {
  for (const error of errors) {
    const path = [...parent, error.property];
    const constraints = error.constraints ?? {};
    if ('whitelistValidation' in constraints) {
      out.push({ path, message: unknownKeyMessage, unknownKey: true });
    } else {
      const entries = Object.entries(constraints).filter(
        // "nested property x must be either object or array" repeats the isObject finding.
        ([name]) => !(name === 'nestedValidation' && 'isObject' in constraints),
      );
      for (const [, message] of entries) {
        out.push({ path, message: withoutSubject(message, error.property), unknownKey: false });
      }
    }
    if (error.children && error.children.length > 0) {
      validationProblems(error.children, unknownKeyMessage, path, out);
    }
  }
  return out;
}

/**
 * class-validator phrases messages as "<property> must ...". Callers prefix
 * the full key path themselves, so the repeated bare property name is dropped.
 */
function withoutSubject(message: string, property: string): string {
  if (message.startsWith(`${property} `)) return message.slice(property.length + 1);
  const each = `each value in ${property} `;
  if (message.startsWith(each)) return `each value ${message.slice(each.length)}`;
  return message;
}
