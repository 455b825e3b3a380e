import { Product } from './demo.types';

/**
 * The shop's stock policy, in one place so the tools and the reorder-policy
 * skill (capabilities/inventory/reorder-policy) say the same thing.
 */

export type StockStatus = 'in_stock' | 'low' | 'out' | 'unknown';
export type ReorderPriority = 'critical' | 'high' | 'normal';

/** Purchase orders are placed in whole cases of this many units. */
export const CASE_PACK = 5;
/** Reordering refills a product up to this multiple of its reorder point. */
export const ORDER_UP_TO_FACTOR = 2;

/** `out` at zero units, `low` at or below the reorder point, else `in_stock`. */
export function stockStatus(
  product: Pick<Product, 'stock' | 'reorderPoint'>,
): Exclude<StockStatus, 'unknown'> {
  if (product.stock <= 0) return 'out';
  if (product.stock <= product.reorderPoint) return 'low';
  return 'in_stock';
}

export function needsReorder(product: Pick<Product, 'stock' | 'reorderPoint'>): boolean {
  return product.stock <= product.reorderPoint;
}

/** Units to order: up to ORDER_UP_TO_FACTOR × reorder point, rounded up to whole cases (at least one). */
export function suggestedReorderQuantity(product: Pick<Product, 'stock' | 'reorderPoint'>): number {
  const shortfall = ORDER_UP_TO_FACTOR * product.reorderPoint - product.stock;
  return Math.max(CASE_PACK, Math.ceil(shortfall / CASE_PACK) * CASE_PACK);
}

/** `critical` when sold out, `high` at or below half the reorder point, else `normal`. */
export function reorderPriority(product: Pick<Product, 'stock' | 'reorderPoint'>): ReorderPriority {
  if (product.stock <= 0) return 'critical';
  if (product.stock <= product.reorderPoint / 2) return 'high';
  return 'normal';
}
