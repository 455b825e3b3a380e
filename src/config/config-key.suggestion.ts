import { schemaKeysAt } from './config-schema.decorators';
import { GatewayConfigSchema } from './config.schema';

/** " (did you mean port?)" for a typo close to a sibling key, else "". */
export function suggestKey(keyPath: readonly string[]): string {
  const typed = keyPath[keyPath.length - 1];
  const siblings = schemaKeysAt(GatewayConfigSchema, keyPath.slice(0, -1));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of siblings) {
    const distance = editDistance(typed.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(1, Math.floor(typed.length / 3));
  return best !== undefined && bestDistance <= tolerance ? ` (did you mean "${best}"?)` : '';
}

/** Edit distance counting a swap of neighbours as one edit ("prot" is one typo from "port"). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
      }
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}
