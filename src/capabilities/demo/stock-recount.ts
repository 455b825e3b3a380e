import { Order, OrderStatus, Product, Warehouse, WAREHOUSES } from './demo.types';
import { stockStatus, StockStatus } from './stock-rules';

/** Orders whose units left the stock figure when placed but not yet the warehouse. */
const AWAITING_SHIPMENT: ReadonlySet<OrderStatus> = new Set(['placed', 'packed']);

/** One product as the recount found it. */
export interface RecountLine {
  sku: string;
  warehouse: Warehouse;
  /** Units on hand and free to sell. */
  stock: number;
  /** Units of placed or packed orders: already out of `stock`, still in the warehouse. */
  awaitingShipment: number;
  status: Exclude<StockStatus, 'unknown'>;
  /** stock × unit price, US dollars. */
  value: number;
}

export interface WarehouseCount {
  warehouse: Warehouse;
  skus: number;
  units: number;
  awaitingShipment: number;
  value: number;
  low: number;
  out: number;
}

export interface RecountResult {
  /** A warehouse, or `all`. */
  scope: Warehouse | 'all';
  counted: number;
  units: number;
  awaitingShipment: number;
  value: number;
  warehouses: WarehouseCount[];
  items: RecountLine[];
}

export function recountLine(product: Product, orders: Order[]): RecountLine {
  let awaiting = 0;
  for (const order of orders) {
    if (!AWAITING_SHIPMENT.has(order.status)) continue;
    for (const line of order.items) if (line.sku === product.sku) awaiting += line.quantity;
  }
  return {
    sku: product.sku,
    warehouse: product.warehouse,
    stock: product.stock,
    awaitingShipment: awaiting,
    status: stockStatus(product),
    value: cents(product.stock * product.price) / 100,
  };
}

/** Totals for the whole scope and per warehouse (only the warehouses counted), in whole cents. */
export function recountTotals(scope: RecountResult['scope'], items: RecountLine[]): RecountResult {
  const total = (lines: RecountLine[], pick: (line: RecountLine) => number) =>
    lines.reduce((sum, line) => sum + pick(line), 0);
  const value = (lines: RecountLine[]) => total(lines, (line) => cents(line.value)) / 100;
  const warehouses = WAREHOUSES.map((warehouse) => {
    const lines = items.filter((line) => line.warehouse === warehouse);
    return {
      warehouse,
      skus: lines.length,
      units: total(lines, (line) => line.stock),
      awaitingShipment: total(lines, (line) => line.awaitingShipment),
      value: value(lines),
      low: lines.filter((line) => line.status === 'low').length,
      out: lines.filter((line) => line.status === 'out').length,
    };
  }).filter((count) => count.skus > 0);
  return {
    scope,
    counted: items.length,
    units: total(items, (line) => line.stock),
    awaitingShipment: total(items, (line) => line.awaitingShipment),
    value: value(items),
    warehouses,
    items,
  };
}

/** A few lines a person reads: totals, then one line per warehouse. */
export function recountSummary(result: RecountResult): string {
  const scope = result.scope === 'all' ? 'all warehouses' : `warehouse ${result.scope}`;
  const usd = (amount: number) => `$${amount.toFixed(2)}`;
  return [
    `Recounted ${result.counted} products in ${scope}: ${result.units} units on hand ` +
      `worth ${usd(result.value)}, ${result.awaitingShipment} more awaiting shipment.`,
    ...result.warehouses.map(
      (w) =>
        `- ${w.warehouse}: ${w.skus} products, ${w.units} units (${usd(w.value)}), ` +
        `${w.awaitingShipment} awaiting shipment, ${w.low} low, ${w.out} sold out`,
    ),
  ].join('\n');
}

function cents(usd: number): number {
  return Math.round(usd * 100);
}
