/** The demo shop's domain: an outdoor-gear retailer's catalog and orders. */

export const CATEGORIES = ['tents', 'backpacks', 'footwear', 'apparel', 'cooking'] as const;
export type Category = (typeof CATEGORIES)[number];

export const WAREHOUSES = ['west', 'central', 'east'] as const;
export type Warehouse = (typeof WAREHOUSES)[number];

export const SHIPPING_SPEEDS = ['standard', 'express', 'overnight'] as const;
export type ShippingSpeed = (typeof SHIPPING_SPEEDS)[number];

export const ORDER_STATUSES = ['placed', 'packed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** SKUs are upper-case letters, digits and hyphens, e.g. `TENT-2P-ULTRA`. */
export const SKU_PATTERN = /^[A-Z0-9-]+$/;

export interface Product {
  sku: string;
  name: string;
  category: Category;
  /** Unit price in US dollars. */
  price: number;
  /** Units on hand in the product's warehouse. */
  stock: number;
  /** At or below this many units the product must be reordered. */
  reorderPoint: number;
  /** Days between placing a purchase order with the supplier and receiving the goods. */
  leadTimeDays: number;
  warehouse: Warehouse;
}

export interface OrderLine {
  sku: string;
  name: string;
  quantity: number;
  /** US dollars. */
  unitPrice: number;
  /** unitPrice × quantity, US dollars. */
  lineTotal: number;
}

export interface Order {
  id: string;
  status: OrderStatus;
  customer: { id: string; email: string };
  items: OrderLine[];
  shipping: ShippingSpeed;
  note: string | null;
  subtotal: number;
  shippingCost: number;
  total: number;
  currency: 'USD';
  /** ISO 8601 timestamp. */
  placedAt: string;
  /** YYYY-MM-DD. */
  estimatedDelivery: string;
  /** YYYY-MM-DD, null until delivered. */
  deliveredOn: string | null;
}
