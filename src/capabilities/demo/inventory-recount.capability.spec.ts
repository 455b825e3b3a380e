import Ajv2020 from 'ajv/dist/2020';
import { TextContent } from '../../tools/content';
import { HandlerContext } from '../../tools/handler-context';
import { DemoStore } from './demo-store';
import { CustomerDto } from './dto/customer.dto';
import { InventoryRecountDto } from './dto/inventory-recount.dto';
import { RECOUNT_OUTPUT_SCHEMA } from './dto/inventory-recount.output';
import { OrderItemDto } from './dto/order-item.dto';
import { PlaceOrderDto } from './dto/place-order.dto';
import { InventoryRecountCapability } from './inventory-recount.capability';
import { OrdersCapability } from './orders.capability';
import { RecountResult } from './stock-recount';

interface ProgressCall {
  done: number;
  total?: number;
  message?: string;
}

/** A real HandlerContext that records progress and lets a test act at a given step. */
function testContext(onProgress: (call: ProgressCall) => void = () => undefined) {
  const abort = new AbortController();
  const progress: ProgressCall[] = [];
  const ctx: HandlerContext = {
    toolName: 'inventory_recount',
    clientId: 'test-client',
    sessionId: 'test-session',
    traceId: 'test-trace',
    signal: abort.signal,
    progress: (done, total, message) => {
      progress.push({ done, total, message });
      onProgress({ done, total, message });
    },
    log: () => undefined,
    reportCost: () => undefined,
    sample: () => Promise.reject(new Error('sampling is not available in tests')),
    elicit: () => Promise.reject(new Error('elicitation is not available in tests')),
  };
  return { ctx, progress, abort };
}

const recountArgs = (fields: Partial<InventoryRecountDto>) =>
  Object.assign(new InventoryRecountDto(), { secondsPerItem: 0, ...fields });

describe('InventoryRecountCapability (inventory_recount)', () => {
  let store: DemoStore;
  let recount: InventoryRecountCapability;

  beforeEach(() => {
    store = new DemoStore();
    recount = new InventoryRecountCapability(store);
  });

  it('counts every product in catalog order and totals them per warehouse', async () => {
    const catalog = store.listProducts();
    const result = await recount.recount(recountArgs({}), testContext().ctx);
    const counted = result.structuredContent as unknown as RecountResult;

    // Read-only: counting changes nothing.
    expect(store.listProducts()).toEqual(catalog);
    expect(counted.items.map((line) => line.sku)).toEqual(catalog.map((product) => product.sku));
    expect(counted).toMatchObject({ scope: 'all', counted: 30 });
    expect(counted.units).toBe(catalog.reduce((sum, product) => sum + product.stock, 0));
    // Seed orders still in the warehouse: ORD-1009 (packed, 1 + 2 units), ORD-1010 (placed, 1 + 1).
    expect(counted.awaitingShipment).toBe(5);
    expect(counted.items.find((line) => line.sku === 'BASE-MERINO-TOP')).toMatchObject({
      awaitingShipment: 2,
    });
    expect(counted.items.find((line) => line.sku === 'SPORK-TI')).toMatchObject({
      stock: 0,
      status: 'out',
      awaitingShipment: 0,
      value: 0,
    });
    expect(counted.warehouses.map((w) => [w.warehouse, w.skus])).toEqual([
      ['west', 10],
      ['central', 10],
      ['east', 10],
    ]);
    expect(counted.warehouses.reduce((sum, w) => sum + w.units, 0)).toBe(counted.units);
    expect(counted.warehouses.reduce((sum, w) => sum + w.out, 0)).toBe(
      counted.items.filter((line) => line.status === 'out').length,
    );

    expect(new Ajv2020({ strict: true }).compile(RECOUNT_OUTPUT_SCHEMA)(counted)).toBe(true);
    const [summary, json] = result.content as TextContent[];
    expect(summary.text).toMatch(/^Recounted 30 products in all warehouses: \d+ units on hand/);
    expect(JSON.parse(json.text)).toEqual(counted);
  });

  it('counts one warehouse when asked', async () => {
    const result = await recount.recount(recountArgs({ warehouse: 'east' }), testContext().ctx);
    const counted = result.structuredContent as unknown as RecountResult;
    expect(counted).toMatchObject({ scope: 'east', counted: 10 });
    expect(counted.items.every((line) => line.warehouse === 'east')).toBe(true);
    expect(counted.warehouses.map((w) => w.warehouse)).toEqual(['east']);
  });

  it('reports progress after each product, from 0 to the number of products', async () => {
    const { ctx, progress } = testContext();
    await recount.recount(recountArgs({ warehouse: 'west' }), ctx);
    expect(progress[0]).toEqual({ done: 0, total: 10, message: 'Counting 10 products' });
    expect(progress.map((call) => call.done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(progress.every((call) => call.total === 10)).toBe(true);
    expect(progress[1].message).toBe('Counted TENT-1P-ULTRA');
  });

  it('stops at the next product once cancelled, without a result', async () => {
    const { ctx, progress, abort } = testContext(({ done }) => {
      if (done === 3) abort.abort(new Error('cancelled by the test'));
    });
    await expect(recount.recount(recountArgs({}), ctx)).rejects.toThrow('cancelled by the test');
    expect(progress.at(-1)?.done).toBe(3);
  });

  it('reads each product at its turn: an order placed mid-count moves units, not the total', async () => {
    const lastSku = 'COOKSET-2P';
    const stockBefore = store.findProduct(lastSku)!.stock;
    const orders = new OrdersCapability(store);
    const { ctx } = testContext(({ done }) => {
      if (done !== 1) return;
      const order = Object.assign(new PlaceOrderDto(), {
        customer: Object.assign(new CustomerDto(), { id: 'CUST-2002', email: 'ana@example.com' }),
        items: [Object.assign(new OrderItemDto(), { sku: lastSku, quantity: 3 })],
        shipping: 'standard',
      });
      orders.placeOrder(order, testContext().ctx);
    });
    const result = await recount.recount(recountArgs({}), ctx);
    const line = (result.structuredContent as unknown as RecountResult).items.find(
      (each) => each.sku === lastSku,
    );
    expect(line).toMatchObject({ stock: stockBefore - 3, awaitingShipment: 3 });
  });
});
