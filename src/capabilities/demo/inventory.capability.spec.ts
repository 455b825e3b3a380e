import Ajv2020 from 'ajv/dist/2020';
import { EmbeddedResource, TextContent, ToolResult } from '../../tools/content';
import { HandlerContext } from '../../tools/handler-context';
import { DemoStore } from './demo-store';
import { CheckStockDto } from './dto/check-stock.dto';
import { ReorderReportDto } from './dto/reorder-report.dto';
import { SearchInventoryDto } from './dto/search-inventory.dto';
import { STOCK_CHECK_OUTPUT_SCHEMA } from './dto/stock-level.output';
import { InventoryCapability } from './inventory.capability';

interface ProgressCall {
  done: number;
  total?: number;
  message?: string;
}

/** A real HandlerContext that records what the handler reports. */
function testContext(
  options: { signal?: AbortSignal; onProgress?: (call: ProgressCall) => void } = {},
) {
  const progress: ProgressCall[] = [];
  const costs: number[] = [];
  const ctx: HandlerContext = {
    toolName: 'test',
    clientId: 'test-client',
    sessionId: 'test-session',
    traceId: 'test-trace',
    signal: options.signal ?? new AbortController().signal,
    progress: (done, total, message) => {
      progress.push({ done, total, message });
      options.onProgress?.({ done, total, message });
    },
    log: () => undefined,
    reportCost: (amount) => void costs.push(amount),
    sample: () => Promise.reject(new Error('sampling is not available in tests')),
    elicit: () => Promise.reject(new Error('elicitation is not available in tests')),
  };
  return { ctx, progress, costs };
}

const search = (fields: Partial<SearchInventoryDto>) =>
  Object.assign(new SearchInventoryDto(), fields);
const checkStock = (skus: string[]) => Object.assign(new CheckStockDto(), { skus });
const reorder = (fields: Partial<ReorderReportDto>) =>
  Object.assign(new ReorderReportDto(), fields);

describe('InventoryCapability', () => {
  let store: DemoStore;
  let inventory: InventoryCapability;

  beforeEach(() => {
    store = new DemoStore();
    inventory = new InventoryCapability(store);
  });

  describe('inventory_search', () => {
    it('matches keywords against SKU, name and category', () => {
      const result = inventory.search(search({ query: 'TENT' }), testContext().ctx);
      expect(result.total).toBe(6);
      expect(result.products.every((p) => p.category === 'tents')).toBe(true);
    });

    it('requires every word of the query and forgives a plural', () => {
      const rain = inventory.search(search({ query: 'rain jacket' }), testContext().ctx);
      expect(rain.products.map((p) => p.sku)).toEqual(['JACKET-RAIN-M', 'JACKET-RAIN-W']);

      const jackets = inventory.search(search({ query: 'jackets' }), testContext().ctx);
      expect(jackets.products.map((p) => p.sku)).toEqual([
        'JACKET-RAIN-M',
        'JACKET-RAIN-W',
        'JACKET-DOWN-800',
      ]);
    });

    it('filters by category with the * query', () => {
      const result = inventory.search(
        search({ query: '*', category: 'cooking', limit: 50 }),
        testContext().ctx,
      );
      expect(result.total).toBe(6);
      expect(new Set(result.products.map((p) => p.category))).toEqual(new Set(['cooking']));
    });

    it('leaves out sold-out products when inStockOnly is set', () => {
      const all = inventory.search(search({ query: '*', limit: 50 }), testContext().ctx);
      const inStock = inventory.search(
        search({ query: '*', inStockOnly: true, limit: 50 }),
        testContext().ctx,
      );
      expect(all.total).toBe(30);
      expect(inStock.total).toBe(27);
      expect(inStock.products.every((p) => p.stock > 0 && p.status !== 'out')).toBe(true);
    });

    it('applies the limit (default 10) and reports the total before it', () => {
      const byDefault = inventory.search(search({ query: '*' }), testContext().ctx);
      expect(byDefault).toMatchObject({ total: 30, returned: 10 });
      const five = inventory.search(search({ query: '*', limit: 5 }), testContext().ctx);
      expect(five).toMatchObject({ total: 30, returned: 5 });
      expect(five.products).toHaveLength(5);
    });

    it('treats optional arguments sent as null as absent', () => {
      const result = inventory.search(
        search({ query: 'tent', category: null, inStockOnly: null, limit: null }),
        testContext().ctx,
      );
      expect(result).toMatchObject({ total: 6, returned: 6 });
    });

    it('returns nothing for an unmatched query', () => {
      expect(inventory.search(search({ query: 'kayak' }), testContext().ctx)).toEqual({
        total: 0,
        returned: 0,
        products: [],
      });
    });
  });

  describe('inventory_check_stock', () => {
    it('reports in_stock, low (including at the reorder point), out and unknown', () => {
      const result = inventory.checkStock(
        checkStock(['TENT-1P-ULTRA', 'TENT-2P-ULTRA', 'JACKET-RAIN-W', 'SPORK-TI', 'KAYAK-1']),
        testContext().ctx,
      );
      expect(result.results).toEqual([
        { sku: 'TENT-1P-ULTRA', stock: 14, reorderPoint: 6, status: 'in_stock' },
        { sku: 'TENT-2P-ULTRA', stock: 4, reorderPoint: 8, status: 'low' },
        { sku: 'JACKET-RAIN-W', stock: 10, reorderPoint: 10, status: 'low' },
        { sku: 'SPORK-TI', stock: 0, reorderPoint: 25, status: 'out' },
        { sku: 'KAYAK-1', stock: null, reorderPoint: null, status: 'unknown' },
      ]);
    });

    it('returns structured content that matches its declared outputSchema', () => {
      const validate = new Ajv2020({ strict: true }).compile(STOCK_CHECK_OUTPUT_SCHEMA);
      const result = inventory.checkStock(
        checkStock(['TENT-2P-ULTRA', 'KAYAK-1']),
        testContext().ctx,
      );
      expect(validate(result)).toBe(true);
    });
  });

  describe('inventory_reorder_report', () => {
    it('reports progress per product with strictly increasing values up to the total', async () => {
      const { ctx, progress } = testContext();
      await inventory.reorderReport(reorder({ delayMsPerItem: 0 }), ctx);

      expect(progress).toHaveLength(30);
      const done = progress.map((call) => call.done);
      done.slice(1).forEach((value, i) => expect(value).toBeGreaterThan(done[i]));
      expect(done.at(-1)).toBe(30);
      expect(
        progress.every((call) => call.total === 30 && call.message?.startsWith('Checked ')),
      ).toBe(true);
    });

    it('returns a text summary and an embedded CSV of the products at or below their reorder point', async () => {
      const result: ToolResult = await inventory.reorderReport(
        reorder({ delayMsPerItem: 0 }),
        testContext().ctx,
      );

      expect(result.content.map((block) => block.type)).toEqual(['text', 'resource']);
      const summary = (result.content[0] as TextContent).text;
      expect(summary).toContain('9 of 30 products are at or below their reorder point');
      expect(summary).toContain('(3 critical = sold out, 3 high, 3 normal)');

      const { resource } = result.content[1] as EmbeddedResource;
      expect(resource).toMatchObject({
        uri: 'demo://inventory/reorder-report/all.csv',
        mimeType: 'text/csv',
      });
      const rows = ('text' in resource ? resource.text : '').trimEnd().split('\r\n');
      expect(rows[0]).toBe(
        'sku,name,category,warehouse,stock,reorderPoint,suggestedQuantity,priority,leadTimeDays,expectedArrival',
      );
      expect(rows).toHaveLength(1 + 9);
      // Most urgent first, then by SKU.
      expect(rows.slice(1, 4).map((row) => row.split(',')[0])).toEqual([
        'SANDAL-CAMP',
        'SPORK-TI',
        'TENT-3P-4SEASON',
      ]);
      // SPORK-TI is sold out: refill to 2 x 25 = 50 units.
      expect(rows[2]).toMatch(
        /^SPORK-TI,Titanium Spork,cooking,west,0,25,50,critical,14,\d{4}-\d{2}-\d{2}$/,
      );
      expect(
        rows.some((row) => row.startsWith('TENT-2P-ULTRA,') && row.includes(',4,8,15,high,')),
      ).toBe(true);
    });

    it('walks only the chosen warehouse', async () => {
      const { ctx, progress } = testContext();
      const result = await inventory.reorderReport(
        reorder({ warehouse: 'central', delayMsPerItem: 0 }),
        ctx,
      );

      const centralCount = store.listProducts().filter((p) => p.warehouse === 'central').length;
      expect(progress.at(-1)).toMatchObject({ done: centralCount, total: centralCount });
      const { resource } = result.content[1] as EmbeddedResource;
      const rows = ('text' in resource ? resource.text : '').trimEnd().split('\r\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.split(',')[3] === 'central')).toBe(true);
    });

    it('treats a null warehouse and delay as absent', async () => {
      const { ctx, progress } = testContext();
      const result = await inventory.reorderReport(
        reorder({ warehouse: null, delayMsPerItem: null }),
        ctx,
      );
      expect(progress).toHaveLength(30);
      expect((result.content[0] as TextContent).text).toContain('(all warehouses)');
    });

    it('stops early when its signal is aborted', async () => {
      const controller = new AbortController();
      const { ctx, progress } = testContext({
        signal: controller.signal,
        onProgress: ({ done }) => {
          if (done === 3) controller.abort(new Error('cancelled by the client'));
        },
      });

      await expect(inventory.reorderReport(reorder({ delayMsPerItem: 20 }), ctx)).rejects.toThrow();
      expect(progress).toHaveLength(3);

      // Nothing keeps running in the background after the rejection.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(progress).toHaveLength(3);
    });

    it('does no work when the signal is already aborted', async () => {
      const { ctx, progress } = testContext({ signal: AbortSignal.abort() });
      await expect(inventory.reorderReport(reorder({ delayMsPerItem: 0 }), ctx)).rejects.toThrow();
      expect(progress).toHaveLength(0);
    });
  });
});
