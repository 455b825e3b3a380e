import { HttpCell, HttpResults, HttpTargetKey } from './results';

const BASELINES: readonly HttpTargetKey[] = ['c', 'd', 'e'];

/**
 * The cell of target `key` that gateway (a)'s cell is compared with: same
 * method and connections, except that a baseline has no spend path, so (a)'s
 * priced call meets the baseline's plain tools/call (what it would answer).
 */
export function comparedCell(
  http: HttpResults,
  key: HttpTargetKey,
  a: HttpCell,
): HttpCell | undefined {
  const method =
    a.method === 'tools/call (priced)' && BASELINES.includes(key) ? 'tools/call' : a.method;
  return http.cells.find(
    (cell) => cell.target === key && cell.method === method && cell.connections === a.connections,
  );
}
