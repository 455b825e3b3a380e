import { Product } from './demo.types';
import { reorderPriority, ReorderPriority, suggestedReorderQuantity } from './stock-rules';

/** One product at or below its reorder point, with what to order. */
export interface ReorderLine {
  sku: string;
  name: string;
  category: string;
  warehouse: string;
  stock: number;
  reorderPoint: number;
  suggestedQuantity: number;
  priority: ReorderPriority;
  leadTimeDays: number;
  /** YYYY-MM-DD the goods arrive if ordered today. */
  expectedArrival: string;
}

const PRIORITY_ORDER: Record<ReorderPriority, number> = { critical: 0, high: 1, normal: 2 };

export function toReorderLine(product: Product, today: Date): ReorderLine {
  return {
    sku: product.sku,
    name: product.name,
    category: product.category,
    warehouse: product.warehouse,
    stock: product.stock,
    reorderPoint: product.reorderPoint,
    suggestedQuantity: suggestedReorderQuantity(product),
    priority: reorderPriority(product),
    leadTimeDays: product.leadTimeDays,
    expectedArrival: new Date(today.getTime() + product.leadTimeDays * 86_400_000)
      .toISOString()
      .slice(0, 10),
  };
}

/** Most urgent first, then by SKU. */
export function sortReorderLines(lines: ReorderLine[]): ReorderLine[] {
  const bySku = (a: ReorderLine, b: ReorderLine) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0);
  return [...lines].sort(
    (a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || bySku(a, b),
  );
}

/** A few lines an agent can read and relay: counts by priority, then one line per product. */
export function reorderSummary(
  lines: readonly ReorderLine[],
  checked: number,
  scope: string,
): string {
  if (lines.length === 0) {
    return `Reorder report (${scope}): all ${checked} products are above their reorder point; nothing to reorder.`;
  }
  const count = (priority: ReorderPriority) =>
    lines.filter((line) => line.priority === priority).length;
  const units = lines.reduce((sum, line) => sum + line.suggestedQuantity, 0);
  const header =
    `Reorder report (${scope}): ${lines.length} of ${checked} products are at or below their reorder point ` +
    `(${count('critical')} critical = sold out, ${count('high')} high, ${count('normal')} normal); ` +
    `suggested purchase: ${units} units in total.`;
  const rows = lines.map(
    (line) =>
      `- [${line.priority}] ${line.sku} ${line.name} (${line.warehouse}): ${line.stock} on hand, ` +
      `reorder point ${line.reorderPoint} -> order ${line.suggestedQuantity}, ` +
      `arrives in ${line.leadTimeDays} days (${line.expectedArrival})`,
  );
  return [header, ...rows].join('\n');
}

const CSV_COLUMNS: readonly (keyof ReorderLine)[] = [
  'sku',
  'name',
  'category',
  'warehouse',
  'stock',
  'reorderPoint',
  'suggestedQuantity',
  'priority',
  'leadTimeDays',
  'expectedArrival',
];

/** RFC 4180 CSV with a header row (CRLF line ends, fields quoted when needed). */
export function reorderCsv(lines: readonly ReorderLine[]): string {
  const rows = [
    CSV_COLUMNS.join(','),
    ...lines.map((line) => CSV_COLUMNS.map((key) => csvField(line[key])).join(',')),
  ];
  return rows.join('\r\n') + '\r\n';
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
