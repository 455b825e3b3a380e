import { Injectable } from '@nestjs/common';
import { loadSampleOrders, loadSampleProducts } from './demo-data';
import { Order, Product } from './demo.types';

/**
 * The demo shop's state: the bundled catalog and seed orders, copied into
 * memory at start. Changes (placed orders, stock taken) live as long as the
 * process; a restart brings back the sample data. Reads hand out copies so
 * callers cannot change the store by accident.
 */
@Injectable()
export class DemoStore {
  private readonly products = new Map<string, Product>();
  private readonly orders = new Map<string, Order>();
  private lastOrderNumber = 1000;

  constructor() {
    for (const product of loadSampleProducts()) this.products.set(product.sku, product);
    for (const order of loadSampleOrders()) this.saveOrder(order);
  }

  /** Every product, in catalog order. */
  listProducts(): Product[] {
    return [...this.products.values()].map((product) => ({ ...product }));
  }

  findProduct(sku: string): Product | undefined {
    const product = this.products.get(sku);
    return product && { ...product };
  }

  /** Every order, oldest first. */
  listOrders(): Order[] {
    return [...this.orders.values()].map((order) => structuredClone(order));
  }

  findOrder(id: string): Order | undefined {
    const order = this.orders.get(id);
    return order && structuredClone(order);
  }

  /** The next free order id, e.g. `ORD-1011` after the ten seed orders. */
  nextOrderId(): string {
    return `ORD-${this.lastOrderNumber + 1}`;
  }

  /**
   * Records a new order and takes its quantities out of stock. The caller has
   * checked availability and merged repeated SKUs; a line that would drive
   * stock below zero is a bug and fails before anything changes.
   */
  commitOrder(order: Order): Order {
    if (this.orders.has(order.id)) throw new Error(`order ${order.id} already exists`);
    if (new Set(order.items.map((line) => line.sku)).size !== order.items.length) {
      throw new Error(`order ${order.id} lists a sku twice`);
    }
    const takes = order.items.map((line) => {
      const product = this.products.get(line.sku);
      if (!product || product.stock < line.quantity) {
        throw new Error(`cannot take ${line.quantity} × ${line.sku} from stock`);
      }
      return { product, quantity: line.quantity };
    });
    for (const { product, quantity } of takes) product.stock -= quantity;
    this.saveOrder(structuredClone(order));
    return structuredClone(order);
  }

  private saveOrder(order: Order): void {
    this.orders.set(order.id, order);
    this.lastOrderNumber = Math.max(this.lastOrderNumber, Number(order.id.slice('ORD-'.length)));
  }
}
