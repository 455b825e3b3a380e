import catalog from './data/catalog.json';
import orders from './data/orders.json';
import {
  CATEGORIES,
  Order,
  ORDER_STATUSES,
  Product,
  SHIPPING_SPEEDS,
  SKU_PATTERN,
  WAREHOUSES,
} from './demo.types';

/**
 * The bundled sample data, checked once at load: a typo in the JSON files
 * stops the start-up with the offending record instead of surfacing as odd
 * tool results later.
 */
export function loadSampleProducts(): Product[] {
  const products = catalog.map((row, index) => checkProduct(row, index));
  const seen = new Set<string>();
  for (const { sku } of products) {
    if (seen.has(sku)) throw new Error(`demo catalog.json: duplicate sku ${sku}`);
    seen.add(sku);
  }
  return products;
}

export function loadSampleOrders(): Order[] {
  return orders.map((row, index) => checkOrder(row, index));
}

function checkProduct(row: (typeof catalog)[number], index: number): Product {
  const fail = (problem: string) =>
    new Error(`demo catalog.json [${index}] ${row.sku}: ${problem}`);
  if (!SKU_PATTERN.test(row.sku)) throw fail('sku must match ^[A-Z0-9-]+$');
  if (!includes(CATEGORIES, row.category)) throw fail(`unknown category ${row.category}`);
  if (!includes(WAREHOUSES, row.warehouse)) throw fail(`unknown warehouse ${row.warehouse}`);
  for (const key of ['stock', 'reorderPoint', 'leadTimeDays'] as const) {
    if (!Number.isInteger(row[key]) || row[key] < 0)
      throw fail(`${key} must be a non-negative integer`);
  }
  if (!(row.price > 0)) throw fail('price must be positive');
  return { ...row, category: row.category, warehouse: row.warehouse };
}

function checkOrder(row: (typeof orders)[number], index: number): Order {
  const fail = (problem: string) => new Error(`demo orders.json [${index}] ${row.id}: ${problem}`);
  if (!/^ORD-\d+$/.test(row.id)) throw fail('id must match ^ORD-\\d+$');
  if (!includes(ORDER_STATUSES, row.status)) throw fail(`unknown status ${row.status}`);
  if (!includes(SHIPPING_SPEEDS, row.shipping)) throw fail(`unknown shipping ${row.shipping}`);
  if (row.currency !== 'USD') throw fail(`unsupported currency ${row.currency}`);
  return {
    ...row,
    customer: { ...row.customer },
    items: row.items.map((item) => ({ ...item })),
    status: row.status,
    shipping: row.shipping,
    currency: 'USD',
  };
}

/** Narrows a string to one of a literal list. */
function includes<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
