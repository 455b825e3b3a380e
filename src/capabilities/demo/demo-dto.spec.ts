import { Type } from '@nestjs/common';
import { GatewayError } from '../../errors/gateway.error';
import { validateArguments } from '../../tools/tool-arguments.validator';
import { CheckStockDto } from './dto/check-stock.dto';
import { GetOrderDto } from './dto/get-order.dto';
import { PlaceOrderDto } from './dto/place-order.dto';
import { ReorderReportDto } from './dto/reorder-report.dto';
import { SearchInventoryDto } from './dto/search-inventory.dto';

/** The gateway's own argument check: unknown properties refused, nothing coerced. */
const valid = (dto: Type, args: Record<string, unknown>) =>
  validateArguments('test_tool', dto, args);

/** Field paths the gateway reports for rejected arguments. */
async function rejectedFields(dto: Type, args: Record<string, unknown>): Promise<string[]> {
  try {
    await valid(dto, args);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    const errors = (err as GatewayError).data.errors as { field: string }[];
    return errors.map((e) => e.field);
  }
  throw new Error('expected the arguments to be rejected');
}

const order = {
  customer: { id: 'CUST-1001', email: 'maya.lindqvist@example.com' },
  items: [{ sku: 'TENT-2P-ULTRA', quantity: 1 }],
  shipping: 'express',
};

describe('demo DTOs', () => {
  describe('SearchInventoryDto', () => {
    it('applies the default limit', async () => {
      await expect(valid(SearchInventoryDto, { query: 'tent' })).resolves.toMatchObject({
        query: 'tent',
        limit: 10,
      });
    });

    it.each([
      [{ query: '' }, 'query'],
      [{ query: 'x'.repeat(101) }, 'query'],
      [{ query: 'tent', category: 'kayaks' }, 'category'],
      [{ query: 'tent', inStockOnly: 'yes' }, 'inStockOnly'],
      [{ query: 'tent', limit: 51 }, 'limit'],
      [{ query: 'tent', limit: 2.5 }, 'limit'],
      [{ query: 'tent', sort: 'price' }, 'sort'],
    ])('rejects %j', async (args, field) => {
      await expect(rejectedFields(SearchInventoryDto, args)).resolves.toContain(field);
    });
  });

  describe('CheckStockDto', () => {
    it('accepts upper-case SKUs', async () => {
      await expect(
        valid(CheckStockDto, { skus: ['TENT-2P-ULTRA', 'SPORK-TI'] }),
      ).resolves.toBeInstanceOf(CheckStockDto);
    });

    it.each([
      [{ skus: [] }],
      [{ skus: ['tent-2p-ultra'] }],
      [{ skus: ['TENT 2P'] }],
      [{ skus: ['SPORK-TI', 'SPORK-TI'] }],
      [{ skus: Array.from({ length: 21 }, (_, i) => `SKU-${i}`) }],
    ])('rejects %j', async (args) => {
      await expect(rejectedFields(CheckStockDto, args)).resolves.toContain('skus');
    });
  });

  describe('PlaceOrderDto', () => {
    it('accepts a valid order, with or without a note, and a null note', async () => {
      await expect(valid(PlaceOrderDto, order)).resolves.toBeInstanceOf(PlaceOrderDto);
      await expect(valid(PlaceOrderDto, { ...order, note: 'Side door' })).resolves.toMatchObject({
        note: 'Side door',
      });
      await expect(valid(PlaceOrderDto, { ...order, note: null })).resolves.toMatchObject({
        note: null,
      });
    });

    it.each([
      [{ ...order, customer: { ...order.customer, id: 'C-1' } }, 'customer.id'],
      [{ ...order, customer: { ...order.customer, email: 'not-an-email' } }, 'customer.email'],
      [{ ...order, customer: { ...order.customer, vip: true } }, 'customer.vip'],
      [{ ...order, items: [] }, 'items'],
      [{ ...order, items: Array.from({ length: 26 }, () => order.items[0]) }, 'items'],
      [{ ...order, items: [{ sku: 'TENT-2P-ULTRA', quantity: 0 }] }, 'items.0.quantity'],
      [{ ...order, items: [{ sku: 'TENT-2P-ULTRA', quantity: 101 }] }, 'items.0.quantity'],
      [{ ...order, items: [{ sku: 'TENT-2P-ULTRA', quantity: '2' }] }, 'items.0.quantity'],
      [{ ...order, items: [{ sku: 'tent', quantity: 1 }] }, 'items.0.sku'],
      [{ ...order, shipping: 'drone' }, 'shipping'],
      [{ ...order, note: 'x'.repeat(501) }, 'note'],
    ])('rejects %j', async (args, field) => {
      await expect(rejectedFields(PlaceOrderDto, args)).resolves.toContain(field);
    });
  });

  describe('GetOrderDto', () => {
    it('accepts ORD-<digits> only', async () => {
      await expect(valid(GetOrderDto, { orderId: 'ORD-9' })).resolves.toMatchObject({
        orderId: 'ORD-9',
      });
      await expect(rejectedFields(GetOrderDto, { orderId: 'ord-9' })).resolves.toEqual(['orderId']);
      await expect(rejectedFields(GetOrderDto, { orderId: 1001 })).resolves.toEqual(['orderId']);
    });
  });

  describe('ReorderReportDto', () => {
    it('applies the default delay and checks the bounds', async () => {
      await expect(valid(ReorderReportDto, {})).resolves.toMatchObject({ delayMsPerItem: 50 });
      await expect(rejectedFields(ReorderReportDto, { delayMsPerItem: 2001 })).resolves.toEqual([
        'delayMsPerItem',
      ]);
      await expect(rejectedFields(ReorderReportDto, { warehouse: 'north' })).resolves.toEqual([
        'warehouse',
      ]);
    });
  });
});
