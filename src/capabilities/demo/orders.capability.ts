import { Injectable } from '@nestjs/common';
import { HandlerContext } from '../../tools/handler-context';
import { Capability, Handler } from '../../tools/handler.decorator';
import { ToolError } from '../../tools/tool.error';
import { DemoStore } from './demo-store';
import { Order, OrderLine, Product } from './demo.types';
import { GetOrderDto } from './dto/get-order.dto';
import { OrderItemDto } from './dto/order-item.dto';
import { MAX_ORDER_LINES, PlaceOrderDto } from './dto/place-order.dto';
import { estimatedDelivery, lineTotal, orderTotals } from './pricing';

/** Budget units of a placed order: a base plus a little per order line. */
export const ORDER_BASE_COST = 0.5;
export const ORDER_LINE_COST = 0.1;
/** Budget units of an order refused for unknown SKUs or missing stock. */
export const REJECTED_ORDER_COST = 0.1;
/** The most an order reports (every line a different SKU): what a call reserves on the budget. */
export const MAX_ORDER_COST = ORDER_BASE_COST + ORDER_LINE_COST * MAX_ORDER_LINES;

interface OrderProblem {
  sku: string;
  problem: 'unknown_sku' | 'insufficient_stock';
  requested: number;
  available?: number;
}

/** Places and looks up orders of the demo shop. */
@Injectable()
@Capability()
export class OrdersCapability {
  constructor(private readonly store: DemoStore) {}

  @Handler({
    name: 'orders_place',
    title: 'Place an order',
    description:
      'Places a customer order for catalog SKUs and takes the units out of stock at once. Use it only when the ' +
      'customer has confirmed the items, quantities and shipping speed; check availability first with ' +
      'inventory_check_stock. The order is all or nothing: if any SKU is unknown or short of stock, nothing is ' +
      'reserved and the error names every failing line. Prices are in USD; returns the order with id ' +
      '(ORD-<number>), lines with unitPrice and lineTotal, subtotal, shippingCost, total, status "placed" and ' +
      'estimatedDelivery (YYYY-MM-DD). Not idempotent: calling it twice places two orders.',
    skill: 'orders/place-order',
    estimatedCost: 1,
    maxCost: MAX_ORDER_COST,
    annotations: {
      title: 'Place an order',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  })
  placeOrder(dto: PlaceOrderDto, ctx: HandlerContext): Order {
    const requested = mergeLines(dto.items);
    const problems: OrderProblem[] = [];
    const lines: OrderLine[] = [];
    for (const [sku, quantity] of requested) {
      const product = this.store.findProduct(sku);
      if (!product) problems.push({ sku, problem: 'unknown_sku', requested: quantity });
      else if (product.stock < quantity) {
        problems.push({
          sku,
          problem: 'insufficient_stock',
          requested: quantity,
          available: product.stock,
        });
      } else lines.push(toLine(product, quantity));
    }
    if (problems.length > 0) {
      ctx.reportCost(REJECTED_ORDER_COST);
      throw new ToolError(rejectionMessage(problems), { problems });
    }

    const placedAt = new Date();
    const order = this.store.commitOrder({
      id: this.store.nextOrderId(),
      status: 'placed',
      customer: { id: dto.customer.id, email: dto.customer.email },
      items: lines,
      shipping: dto.shipping,
      note: dto.note ?? null,
      ...orderTotals(lines, dto.shipping),
      currency: 'USD',
      placedAt: placedAt.toISOString(),
      estimatedDelivery: estimatedDelivery(placedAt, dto.shipping),
      deliveredOn: null,
    });
    ctx.reportCost(ORDER_BASE_COST + ORDER_LINE_COST * lines.length);
    ctx.log('info', {
      msg: 'order placed',
      orderId: order.id,
      lines: lines.length,
      total: order.total,
    });
    return order;
  }

  @Handler({
    name: 'orders_get',
    title: 'Look up an order',
    description:
      'Returns one order by id (ORD-<number>): customer, lines with quantities and USD prices, totals, ' +
      'shipping speed, status (placed | packed | shipped | delivered | cancelled), placedAt (ISO 8601), ' +
      'estimatedDelivery and deliveredOn (YYYY-MM-DD, null until delivered). Use it to answer order-status ' +
      'questions or to check return eligibility. Unknown ids are an error.',
    estimatedCost: 0.1,
    maxCost: 0.1,
    annotations: {
      title: 'Look up an order',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  })
  getOrder(dto: GetOrderDto, _ctx: HandlerContext): Order {
    const order = this.store.findOrder(dto.orderId);
    if (!order)
      throw new ToolError(`Order ${dto.orderId} does not exist`, { orderId: dto.orderId });
    return order;
  }
}

/** Quantities per SKU, in first-seen order; repeated SKUs are added together. */
function mergeLines(items: readonly OrderItemDto[]): Map<string, number> {
  const merged = new Map<string, number>();
  for (const { sku, quantity } of items) merged.set(sku, (merged.get(sku) ?? 0) + quantity);
  return merged;
}

function toLine(product: Product, quantity: number): OrderLine {
  return {
    sku: product.sku,
    name: product.name,
    quantity,
    unitPrice: product.price,
    lineTotal: lineTotal(product.price, quantity),
  };
}

function rejectionMessage(problems: readonly OrderProblem[]): string {
  const details = problems.map((p) =>
    p.problem === 'unknown_sku'
      ? `SKU ${p.sku} does not exist (find valid SKUs with inventory_search)`
      : `not enough stock for ${p.sku}: ${p.requested} requested, ${p.available} available`,
  );
  return `Order not placed, nothing was reserved: ${details.join('; ')}.`;
}
