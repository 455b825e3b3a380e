import { ValidationError } from 'class-validator';
import { configShapeProblems } from '../config/config-shape.check';
import type { SchemaProblem } from '../config/config.schema';
import { validateStrictly, validationProblems } from '../config/validation-problems';
import { isMapping } from './upstream-blocks.schema';
import { UpstreamFileSchema } from './upstream-file.schema';

export type FileValidation =
  | { ok: true; file: UpstreamFileSchema; unknownKeys: string[] }
  | { ok: false; problems: string[]; unknownKeys: string[] };

const UNKNOWN_KEY = 'is not a known registry key';

/**
 * Checks one parsed registry file against UpstreamFileSchema and the
 * transport rule. Unknown keys are kept apart from the other problems: the
 * caller decides, by `upstreams.strict`, whether they reject the file.
 * Messages name the key and never quote a value (values may be secrets).
 */
export function validateUpstreamFile(plain: unknown): FileValidation {
  if (!isMapping(plain)) {
    return { ok: false, problems: ['must hold a mapping of registry keys'], unknownKeys: [] };
  }
  const shape = configShapeProblems(plain);
  if (shape.length > 0) return { ok: false, problems: shape.map(render), unknownKeys: [] };

  let file: UpstreamFileSchema;
  let errors: ValidationError[];
  try {
    ({ instance: file, errors } = validateStrictly(UpstreamFileSchema, plain));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [`cannot be read: ${message}`], unknownKeys: [] };
  }
  const found = validationProblems(errors, UNKNOWN_KEY);
  const unknownKeys = found.filter((p) => p.unknownKey).map(render);
  const problems = found.filter((p) => !p.unknownKey).map(render);
  if (problems.length === 0) problems.push(...transportBlockProblems(file));
  return problems.length > 0
    ? { ok: false, problems, unknownKeys }
    : { ok: true, file, unknownKeys };
}

/** The block the transport needs must be there, and the other one must not (it would be ignored). */
function transportBlockProblems(file: UpstreamFileSchema): string[] {
  const problems: string[] = [];
  if (file.transport === 'stdio') {
    if (file.stdio == null) problems.push('stdio: is required when transport is stdio');
    if (file.http != null) {
      problems.push('http: is only for transport streamable_http or http_sse_legacy; remove it');
    }
  } else {
    if (file.http == null) {
      problems.push(`http: is required when transport is ${file.transport}`);
    }
    if (file.stdio != null) problems.push('stdio: is only for transport stdio; remove it');
  }
  return problems;
}

function render(problem: SchemaProblem): string {
  return problem.path.length === 0
    ? problem.message
    : `${problem.path.join('.')}: ${problem.message}`;
}
