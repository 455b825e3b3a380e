import { HandlerContext } from '../../tools/handler-context';
import { HANDLER_METADATA } from '../../tools/handler.decorator';
import { HandlerOptions } from '../../tools/handler-options';
import { ToolError } from '../../tools/tool.error';
import { LoggingLevel } from '../../session/logging-level';
import { DemoStore } from './demo-store';
import { CustomerDto } from './dto/customer.dto';
import { GetOrderDto } from './dto/get-order.dto';
import { OrderItemDto } from './dto/order-item.dto';
import { MAX_ORDER_LINES, PlaceOrderDto } from './dto/place-order.dto';
import { ShippingSpeed } from './demo.types';
import { MAX_ORDER_COST, OrdersCapability } from './orders.capability';

/** A real HandlerContext that records what the handler reports. */
function testContext() {
  const costs: number[] = [];
  const logs: { level: LoggingLevel; data: unknown }[] = [];
  const ctx: HandlerContext = {
    toolName: 'test',
    clientId: 'test-client',
    sessionId: 'test-session',
    traceId: 'test-trace',
    signal: new AbortController().signal,
    progress: () => undefined,
    log: (level, data) => void logs.push({ level, data }),
    reportCost: (amount) => void costs.push(amount),
    sample: () => Promise.reject(new Error('sampling is not available in tests')),
    elicit: () => Promise.reject(new Error('elicitation is not available in tests')),
  };
  return { ctx, costs, logs };
}

function placeOrderDto(
  items: [sku: string, quantity: number][],
  shipping: ShippingSpeed = 'standard',
  note?: string | null,
): PlaceOrderDto {
  return Object.assign(new PlaceOrderDto(), {
    customer: Object.assign(new CustomerDto(), {
      id: 'CUST-2001',
      email: 'river.jones@example.com',
    }),
    items: items.map(([sku, quantity]) => Object.assign(new OrderItemDto(), { sku, quantity })),
    shipping,
    note,
  });
}

const getOrderDto = (orderId: string) => Object.assign(new GetOrderDto(), { orderId });

/** Runs fn, expecting a ToolError, and returns it. */
function toolErrorOf(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    return err as ToolError;
  }
  throw new Error('expected a ToolError');
}

describe('OrdersCapability', () => {
  let store: DemoStore;
  let orders: OrdersCapability;
  const stockOf = (sku: string) => store.findProduct(sku)?.stock;

  beforeEach(() => {
    store = new DemoStore();
    orders = new OrdersCapability(store);
  });

  describe('orders_place', () => {
    it('creates the order with priced lines and totals, and takes the units out of stock', () => {
      const { ctx, costs, logs } = testContext();
      const order = orders.placeOrder(
        placeOrderDto(
          [
            ['TENT-2P-ULTRA', 2],
            ['STOVE-CANISTER', 1],
          ],
          'standard',
          'Ring twice',
        ),
        ctx,
      );

      expect(order).toMatchObject({
        id: 'ORD-1011',
        status: 'placed',
        customer: { id: 'CUST-2001', email: 'river.jones@example.com' },
        items: [
          {
            sku: 'TENT-2P-ULTRA',
            name: 'Skyline 2-Person Ultralight Tent',
            quantity: 2,
            unitPrice: 349.95,
            lineTotal: 699.9,
          },
          {
            sku: 'STOVE-CANISTER',
            name: 'Blaze Canister Stove',
            quantity: 1,
            unitPrice: 59.95,
            lineTotal: 59.95,
          },
        ],
        shipping: 'standard',
        note: 'Ring twice',
        subtotal: 759.85,
        shippingCost: 0,
        total: 759.85,
        currency: 'USD',
        deliveredOn: null,
      });
      expect(Date.parse(order.placedAt)).not.toBeNaN();
      expect(order.estimatedDelivery).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      expect(stockOf('TENT-2P-ULTRA')).toBe(2);
      expect(stockOf('STOVE-CANISTER')).toBe(37);
      expect(costs).toHaveLength(1);
      expect(costs[0]).toBeCloseTo(0.7);
      expect(logs).toEqual([
        { level: 'info', data: expect.objectContaining({ orderId: 'ORD-1011' }) },
      ]);
    });

    it('reports at most its declared maxCost, which the largest order reaches', () => {
      const { ctx, costs } = testContext();
      const options = Reflect.getMetadata(
        HANDLER_METADATA,
        OrdersCapability.prototype.placeOrder,
      ) as HandlerOptions;
      expect(options.maxCost).toBe(MAX_ORDER_COST);
      const inStock = store.listProducts().filter((p) => p.stock > 0);
      const lines = inStock.slice(0, MAX_ORDER_LINES).map((p): [string, number] => [p.sku, 1]);
      expect(lines).toHaveLength(MAX_ORDER_LINES);

      orders.placeOrder(placeOrderDto(lines), ctx);
      expect(costs).toEqual([MAX_ORDER_COST]);
    });

    it('charges shipping below the free-shipping threshold and for faster speeds', () => {
      const standard = orders.placeOrder(placeOrderDto([['POT-TI-750', 1]]), testContext().ctx);
      expect(standard).toMatchObject({
        subtotal: 44.95,
        shippingCost: 5.95,
        total: 50.9,
        note: null,
      });

      const overnight = orders.placeOrder(
        placeOrderDto([['PACK-28L-DAY', 1]], 'overnight'),
        testContext().ctx,
      );
      expect(overnight).toMatchObject({
        id: 'ORD-1012',
        subtotal: 119,
        shippingCost: 29.95,
        total: 148.95,
      });
    });

    it('adds up lines that repeat a SKU', () => {
      const order = orders.placeOrder(
        placeOrderDto([
          ['POT-TI-750', 2],
          ['POT-TI-750', 3],
        ]),
        testContext().ctx,
      );
      expect(order.items).toEqual([
        expect.objectContaining({ sku: 'POT-TI-750', quantity: 5, lineTotal: 224.75 }),
      ]);
      expect(stockOf('POT-TI-750')).toBe(47);
    });

    it('makes the order readable with orders_get', () => {
      const placed = orders.placeOrder(placeOrderDto([['SHOE-TRAIL-M', 1]]), testContext().ctx);
      expect(orders.getOrder(getOrderDto(placed.id), testContext().ctx)).toEqual(placed);
    });

    it('refuses an unknown SKU with a ToolError and reserves nothing', () => {
      const { ctx, costs } = testContext();
      const error = toolErrorOf(() =>
        orders.placeOrder(
          placeOrderDto([
            ['TENT-2P-ULTRA', 1],
            ['TENT-2P-LITE', 1],
          ]),
          ctx,
        ),
      );

      expect(error.message).toBe(
        'Order not placed, nothing was reserved: SKU TENT-2P-LITE does not exist ' +
          '(find valid SKUs with inventory_search).',
      );
      expect(error.data).toEqual({
        problems: [{ sku: 'TENT-2P-LITE', problem: 'unknown_sku', requested: 1 }],
      });
      expect(stockOf('TENT-2P-ULTRA')).toBe(4);
      expect(costs).toEqual([0.1]);
      expect(store.findOrder('ORD-1011')).toBeUndefined();
    });

    it('refuses a quantity above the stock with a ToolError naming requested and available units', () => {
      const error = toolErrorOf(() =>
        orders.placeOrder(
          placeOrderDto([
            ['TENT-2P-ULTRA', 5],
            ['SPORK-TI', 1],
            ['STOVE-CANISTER', 1],
          ]),
          testContext().ctx,
        ),
      );

      expect(error.message).toBe(
        'Order not placed, nothing was reserved: not enough stock for TENT-2P-ULTRA: 5 requested, 4 available; ' +
          'not enough stock for SPORK-TI: 1 requested, 0 available.',
      );
      expect(stockOf('TENT-2P-ULTRA')).toBe(4);
      expect(stockOf('STOVE-CANISTER')).toBe(38);
    });

    it('checks the stock against the sum of repeated lines', () => {
      const error = toolErrorOf(() =>
        orders.placeOrder(
          placeOrderDto([
            ['TENT-2P-ULTRA', 3],
            ['TENT-2P-ULTRA', 2],
          ]),
          testContext().ctx,
        ),
      );
      expect(error.message).toContain(
        'not enough stock for TENT-2P-ULTRA: 5 requested, 4 available',
      );
    });

    it('sells the last unit, then refuses the next order', () => {
      orders.placeOrder(placeOrderDto([['TENT-2P-ULTRA', 4]]), testContext().ctx);
      expect(stockOf('TENT-2P-ULTRA')).toBe(0);
      expect(() =>
        orders.placeOrder(placeOrderDto([['TENT-2P-ULTRA', 1]]), testContext().ctx),
      ).toThrow('not enough stock for TENT-2P-ULTRA: 1 requested, 0 available');
    });
  });

  describe('orders_get', () => {
    it('returns a seed order', () => {
      const order = orders.getOrder(getOrderDto('ORD-1001'), testContext().ctx);
      expect(order).toMatchObject({ id: 'ORD-1001', status: 'delivered', total: 399.9 });
    });

    it('refuses an unknown order with a ToolError', () => {
      const error = toolErrorOf(() => orders.getOrder(getOrderDto('ORD-9'), testContext().ctx));
      expect(error.message).toBe('Order ORD-9 does not exist');
      expect(error.data).toEqual({ orderId: 'ORD-9' });
    });

    it('hands out copies that cannot change the store', () => {
      const order = orders.getOrder(getOrderDto('ORD-1001'), testContext().ctx);
      order.items[0].quantity = 99;
      expect(orders.getOrder(getOrderDto('ORD-1001'), testContext().ctx).items[0].quantity).toBe(1);
    });
  });
});
