import { Test, TestingModule } from '@nestjs/testing';
import matter from 'gray-matter';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HandlerContext } from '../../tools/handler-context';
import { AppModule } from '../../app.module';
import { loadGatewayConfig } from '../../config/config.loader';
import { ToolResultMapper } from '../../tools/tool-result.mapper';
import { ToolError } from '../../tools/tool.error';
import { ToolRegistry } from '../../tools/tool.registry';
import { CATEGORIES } from './demo.types';
import { MAX_SECONDS_PER_ITEM } from './dto/inventory-recount.dto';

const SKILLS_DIR = join(__dirname, '..', '..', '..', 'capabilities');

const context: HandlerContext = {
  toolName: 'test',
  clientId: 'test-client',
  sessionId: 'test-session',
  traceId: 'test-trace',
  signal: new AbortController().signal,
  progress: () => undefined,
  log: () => undefined,
  reportCost: () => undefined,
  sample: () => Promise.reject(new Error('sampling is not available in tests')),
  elicit: () => Promise.reject(new Error('elicitation is not available in tests')),
};

describe('DemoCapabilityModule', () => {
  let app: TestingModule;
  let registry: ToolRegistry;

  beforeAll(async () => {
    app = await Test.createTestingModule({
      // The gateway's graph without a transport, the demo pack on (the ledger kept in memory).
      imports: [
        AppModule.forRoot({
          transport: 'none',
          config: loadGatewayConfig({
            env: {},
            overrides: { ledger: { sqlite_path: ':memory:' } },
          }),
        }),
      ],
    }).compile();
    app.useLogger(false);
    await app.init();
    registry = app.get(ToolRegistry);
  });

  afterAll(() => app.close());

  const tool = (name: string) => {
    const found = registry.get(name);
    if (!found) throw new Error(`tool ${name} is not registered`);
    return found;
  };

  it('registers the six demo tools', () => {
    expect(registry.list().map((t) => t.name)).toEqual([
      'inventory_search',
      'inventory_check_stock',
      'inventory_reorder_report',
      'inventory_recount',
      'orders_place',
      'orders_get',
    ]);
  });

  it('publishes input schemas generated from the DTOs', () => {
    const search = tool('inventory_search').inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
    };
    expect(search.required).toEqual(['query']);
    // Optional properties admit null, as the gateway's validation does.
    expect(search.properties.category.anyOf).toContainEqual({
      type: 'string',
      enum: [...CATEGORIES],
    });
    expect(search.properties.limit).toMatchObject({ minimum: 1, maximum: 50 });
    expect(search.properties.query.description).toEqual(expect.stringContaining('Keywords'));

    const place = JSON.stringify(tool('orders_place').inputSchema);
    for (const fragment of ['^CUST-\\\\d+$', '"format":"email"', 'overnight', '"maxItems":25']) {
      expect(place).toContain(fragment);
    }
    expect(tool('inventory_check_stock').outputSchema).toMatchObject({ required: ['results'] });
  });

  it('validates arguments and runs a handler end to end', async () => {
    const getOrder = tool('orders_get');
    const args = await getOrder.validate({ orderId: 'ORD-1003' });
    // A handler may answer at once or with a promise; either way the spec reads a promise.
    const answer = (input: unknown) =>
      Promise.resolve().then(() => getOrder.execute(input, context));
    await expect(answer(args)).resolves.toMatchObject({
      id: 'ORD-1003',
      status: 'delivered',
    });

    const missing = await getOrder.validate({ orderId: 'ORD-9' });
    await expect(answer(missing)).rejects.toThrow(ToolError);
    await expect(getOrder.validate({ orderId: 'ORD-9', verbose: true })).rejects.toThrow('verbose');
  });

  it('shares one store between the capabilities', async () => {
    const place = tool('orders_place');
    const order = await place.validate({
      customer: { id: 'CUST-3001', email: 'sam.quill@example.com' },
      items: [{ sku: 'COOKSET-2P', quantity: 3 }],
      shipping: 'express',
    });
    await place.execute(order, context);

    const check = tool('inventory_check_stock');
    const result = await check.execute(await check.validate({ skus: ['COOKSET-2P'] }), context);
    expect(result).toEqual({
      results: [{ sku: 'COOKSET-2P', stock: 10, reorderPoint: 8, status: 'in_stock' }],
    });
  });

  it('maps the results to CallToolResults as clients receive them', async () => {
    const mapper = new ToolResultMapper();

    const check = tool('inventory_check_stock');
    const stock = await check.execute(
      await check.validate({ skus: ['SPORK-TI', 'KAYAK-1'] }),
      context,
    );
    // Checked against the declared outputSchema; a mismatch would throw.
    expect(mapper.toResult(check, stock)).toMatchObject({
      structuredContent: { results: [{ status: 'out' }, { status: 'unknown', stock: null }] },
    });

    const report = tool('inventory_reorder_report');
    const args = await report.validate({ warehouse: 'east', delayMsPerItem: 0 });
    const result = mapper.toResult(report, await report.execute(args, context));
    expect(result.content.map((block) => block.type)).toEqual(['text', 'resource']);
    expect(result.structuredContent).toBeUndefined();
  });

  it('publishes inventory_recount as an optional task bounded by its timeout', async () => {
    const recount = tool('inventory_recount');
    expect(recount.options).toMatchObject({ task: 'optional', maxDurationSeconds: 30 });
    // The slowest run the arguments allow (30 products at the most seconds each) fits its timeout.
    const products = (await tool('inventory_search').execute(
      { query: '*', limit: 50 },
      context,
    )) as {
      total: number;
    };
    expect(recount.options.timeoutSeconds).toBeGreaterThan(products.total * MAX_SECONDS_PER_ITEM);
    const schema = JSON.stringify(recount.inputSchema);
    expect(schema).toContain(`"maximum":${MAX_SECONDS_PER_ITEM}`);
    for (const secondsPerItem of [-1, MAX_SECONDS_PER_ITEM + 0.5, 'slow']) {
      await expect(recount.validate({ secondsPerItem })).rejects.toThrow('secondsPerItem');
    }

    const mapper = new ToolResultMapper();
    const args = await recount.validate({ warehouse: 'central', secondsPerItem: 0 });
    // Checked against the declared outputSchema; a mismatch would throw.
    const result = mapper.toResult(recount, await recount.execute(args, context));
    expect(result.structuredContent).toMatchObject({ scope: 'central', counted: 10 });
  });

  describe('skills', () => {
    const skillFiles = readdirSync(SKILLS_DIR, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('SKILL.md'))
      .sort();

    it('includes the demo skills', () => {
      expect(skillFiles.map((path) => path.split(/[\\/]/).slice(0, 2).join('/'))).toEqual(
        expect.arrayContaining([
          'inventory/reorder-policy',
          'inventory/stock-check',
          'orders/place-order',
          'orders/returns',
        ]),
      );
    });

    it.each(skillFiles)('%s has valid front matter named after its directory', (path) => {
      const { data, content } = matter(readFileSync(join(SKILLS_DIR, path), 'utf8'));
      const directory = path.split(/[\\/]/).at(-2);
      expect(data.name).toBe(directory);
      expect(data.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(typeof data.title).toBe('string');
      expect(typeof data.description).toBe('string');
      expect(
        Array.isArray(data.tags) && data.tags.every((tag: unknown) => typeof tag === 'string'),
      ).toBe(true);
      expect(content.trim().length).toBeGreaterThan(200);
    });

    it('exists for every skill a demo tool references', () => {
      const refs = registry.list().flatMap((t) => (t.options.skill ? [t.options.skill] : []));
      expect(refs).toEqual(['inventory/reorder-policy', 'orders/place-order']);
      for (const ref of refs) expect(existsSync(join(SKILLS_DIR, ref, 'SKILL.md'))).toBe(true);
    });
  });
});
