/** A cost, estimated or reported, is budget units: a finite number, never negative (a credit). */
export function isValidCost(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
