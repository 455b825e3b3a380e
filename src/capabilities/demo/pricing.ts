import { ShippingSpeed } from './demo.types';

export interface ShippingOption {
  /** US dollars. */
  cost: number;
  /** Calendar days from placing the order to delivery. */
  days: number;
}

/** Standard shipping is free from this subtotal on (US dollars). */
export const FREE_STANDARD_SHIPPING_FROM = 100;

export const SHIPPING_OPTIONS: Record<ShippingSpeed, ShippingOption> = {
  standard: { cost: 5.95, days: 5 },
  express: { cost: 14.95, days: 2 },
  overnight: { cost: 29.95, days: 1 },
};

export interface PricedLine {
  unitPrice: number;
  quantity: number;
}

export interface OrderTotals {
  subtotal: number;
  shippingCost: number;
  total: number;
}

/** Totals of an order in US dollars, summed in whole cents so no float drift shows up. */
export function orderTotals(lines: readonly PricedLine[], shipping: ShippingSpeed): OrderTotals {
  const subtotalCents = lines.reduce((sum, line) => sum + cents(line.unitPrice) * line.quantity, 0);
  const freeShipping =
    shipping === 'standard' && subtotalCents >= cents(FREE_STANDARD_SHIPPING_FROM);
  const shippingCents = freeShipping ? 0 : cents(SHIPPING_OPTIONS[shipping].cost);
  return {
    subtotal: dollars(subtotalCents),
    shippingCost: dollars(shippingCents),
    total: dollars(subtotalCents + shippingCents),
  };
}

export function lineTotal(unitPrice: number, quantity: number): number {
  return dollars(cents(unitPrice) * quantity);
}

/** YYYY-MM-DD of the expected delivery for an order placed at `placedAt`. */
export function estimatedDelivery(placedAt: Date, shipping: ShippingSpeed): string {
  const days = SHIPPING_OPTIONS[shipping].days;
  return new Date(placedAt.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

const cents = (value: number) => Math.round(value * 100);
const dollars = (value: number) => value / 100;
