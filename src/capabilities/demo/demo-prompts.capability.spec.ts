import { Module } from '@nestjs/common';
import { ResourcesModule } from '../../resources/resources.module';
import { Test, TestingModule } from '@nestjs/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../app.module';
import { loadGatewayConfig } from '../../config/config.loader';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { completionValues } from '../../prompts/completion-values';
import { validatePromptArguments } from '../../prompts/prompt-arguments.validator';
import { PromptArgumentCompleter } from '../../prompts/prompt-argument.completer';
import { PromptResult } from '../../prompts/prompt-message';
import { toPromptResult } from '../../prompts/prompt-result.mapper';
import { PromptRegistry } from '../../prompts/prompt.registry';
import { DemoPromptsCapability } from './demo-prompts.capability';
import { DemoStore } from './demo-store';

const SKILLS_DIR = join(__dirname, '..', '..', '..', 'capabilities');
const POLICY_FILE = join(SKILLS_DIR, 'inventory', 'reorder-policy', 'SKILL.md');

/** The demo store and prompts, as DemoCapabilityModule declares them. */
@Module({ imports: [ResourcesModule], providers: [DemoStore, DemoPromptsCapability] })
class DemoPromptsTestModule {}

/** prompts/get without the transport: validate, render, map. */
async function get(
  app: TestingModule,
  name: string,
  args: Record<string, unknown>,
): Promise<Required<PromptResult>> {
  const prompt = app.get(PromptRegistry).get(name);
  if (!prompt) throw new Error(`prompt ${name} is not registered`);
  const valid = validatePromptArguments(prompt.options, args);
  const output = await prompt.render(valid, {
    clientId: 'test-client',
    signal: new AbortController().signal,
  });
  return toPromptResult(name, output, prompt.options.description);
}

async function rejection(work: Promise<unknown>): Promise<GatewayError> {
  try {
    await work;
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a rejection');
}

function textOf(result: PromptResult, index: number): string {
  const content = result.messages[index]?.content;
  if (content?.type !== 'text') throw new Error(`message ${index} is not text`);
  return content.text;
}

describe('DemoPromptsCapability in the gateway graph', () => {
  let app: TestingModule;

  beforeAll(async () => {
    const config = loadGatewayConfig({
      env: {},
      overrides: {
        resources: { skills_dir: SKILLS_DIR },
        ledger: { sqlite_path: ':memory:' },
        // The demo pack is added below on its own, whether or not the pack lists the prompts yet.
        capabilities: { demo_pack: false },
      },
    });
    app = await Test.createTestingModule({
      // The gateway's whole graph without a transport (the ledger kept in memory).
      imports: [
        AppModule.forRoot({ transport: 'none', config, extraModules: [DemoPromptsTestModule] }),
      ],
    }).compile();
    app.useLogger(false);
    await app.init();
  });

  afterAll(() => app?.close());

  it('registers plan_restock and draft_order_confirmation with their arguments', () => {
    const prompts = app.get(PromptRegistry).list();
    expect(prompts.map((p) => [p.name, p.origin])).toEqual([
      ['plan_restock', 'DemoPromptsCapability.planRestock'],
      ['draft_order_confirmation', 'DemoPromptsCapability.draftOrderConfirmation'],
    ]);
    expect(prompts[0]?.options.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ['warehouse', true],
      ['horizonDays', false],
    ]);
  });

  it('plan_restock embeds the reorder-policy skill as resources/read serves it', async () => {
    const result = await get(app, 'plan_restock', { warehouse: 'west', horizonDays: '14' });
    expect(result.description).toBe('Restock plan for the west warehouse, 14-day horizon');
    expect(result.messages).toHaveLength(2);
    expect(result.messages[0]).toEqual({
      role: 'user',
      content: {
        type: 'resource',
        resource: {
          uri: 'skill://inventory/reorder-policy',
          mimeType: 'text/markdown',
          text: readFileSync(POLICY_FILE, 'utf8'),
        },
      },
    });
    const instructions = textOf(result, 1);
    expect(result.messages[1]?.role).toBe('user');
    expect(instructions).toContain('over the next 14 days');
    expect(instructions).toContain('Call inventory_reorder_report once with {"warehouse":"west"}');
    expect(instructions).toContain('lead time is longer than 14 days');
  });

  it('plan_restock covers all warehouses with the default 30-day horizon', async () => {
    const result = await get(app, 'plan_restock', { warehouse: 'all' });
    expect(result.description).toBe('Restock plan for all warehouses, 30-day horizon');
    expect(textOf(result, 1)).toContain('Call inventory_reorder_report once with {}');
  });

  it.each([
    [{ warehouse: 'north' }, 'warehouse'],
    [{ warehouse: 'WEST' }, 'warehouse'],
    [{ warehouse: 'west', horizonDays: '0' }, 'horizonDays'],
    [{ warehouse: 'west', horizonDays: '366' }, 'horizonDays'],
    [{ warehouse: 'west', horizonDays: 'two weeks' }, 'horizonDays'],
    [{ warehouse: 'west', horizonDays: '1.5' }, 'horizonDays'],
  ])('plan_restock refuses %j with -32602 naming %s', async (args, field) => {
    const err = await rejection(get(app, 'plan_restock', args));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toContain(field);
    expect(err.data.errors).toEqual([expect.objectContaining({ field })]);
  });

  it('completes warehouses and tones through the gateway completer', async () => {
    const completer = app.get(PromptArgumentCompleter);
    const complete = async (prompt: string, argument: string, value: string) =>
      completionValues(await completer.candidates(prompt, argument, value, {}, 'c'), value);
    await expect(complete('plan_restock', 'warehouse', '')).resolves.toEqual({
      values: ['west', 'central', 'east', 'all'],
      total: 4,
      hasMore: false,
    });
    await expect(complete('plan_restock', 'warehouse', 'E')).resolves.toMatchObject({
      values: ['east'],
    });
    await expect(complete('draft_order_confirmation', 'tone', 'f')).resolves.toMatchObject({
      values: ['formal', 'friendly'],
    });
    await expect(complete('draft_order_confirmation', 'tone', 'fr')).resolves.toMatchObject({
      values: ['friendly'],
    });
  });

  it('draft_order_confirmation embeds the order and asks for the chosen tone', async () => {
    const order = app.get(DemoStore).findOrder('ORD-1001');
    const result = await get(app, 'draft_order_confirmation', {
      orderId: 'ORD-1001',
      tone: 'formal',
    });
    expect(result.description).toBe('A formal confirmation of ORD-1001');
    const embedded = result.messages[0]?.content;
    expect(embedded).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://orders/ORD-1001.json', mimeType: 'application/json' },
    });
    if (embedded?.type !== 'resource' || !('text' in embedded.resource)) {
      throw new Error('expected an embedded text resource');
    }
    expect(JSON.parse(embedded.resource.text)).toEqual(order);
    const instructions = textOf(result, 1);
    expect(instructions).toContain('maya.lindqvist@example.com');
    expect(instructions).toContain('Dear customer');
    expect(instructions).toContain('delivered on 2025-09-07');
  });

  it('draft_order_confirmation is friendly by default', async () => {
    const result = await get(app, 'draft_order_confirmation', { orderId: 'ORD-1001' });
    expect(result.description).toBe('A friendly confirmation of ORD-1001');
    expect(textOf(result, 1)).toContain('Hi there');
  });

  it('draft_order_confirmation refuses an unknown order, a bad tone, a missing id', async () => {
    const unknown = await rejection(get(app, 'draft_order_confirmation', { orderId: 'ORD-9' }));
    expect(unknown.message).toBe('Unknown order: ORD-9');
    expect(unknown.data.errors).toEqual([expect.objectContaining({ field: 'orderId' })]);

    const tone = await rejection(
      get(app, 'draft_order_confirmation', { orderId: 'ORD-1001', tone: 'rude' }),
    );
    expect(tone.data.errors).toEqual([expect.objectContaining({ field: 'tone' })]);

    const missing = await rejection(get(app, 'draft_order_confirmation', {}));
    expect(missing.code).toBe(ErrorCode.InvalidParams);
    expect(missing.data.errors).toEqual([expect.objectContaining({ field: 'orderId' })]);
  });
});

describe('DemoPromptsCapability without the reorder-policy skill', () => {
  let app: TestingModule;
  const emptySkills = mkdtempSync(join(tmpdir(), 'owlclaw-no-skills-'));

  beforeAll(async () => {
    const config = loadGatewayConfig({
      env: {},
      overrides: {
        resources: { skills_dir: emptySkills },
        ledger: { sqlite_path: ':memory:' },
        capabilities: { demo_pack: false },
      },
    });
    app = await Test.createTestingModule({
      imports: [
        AppModule.forRoot({ transport: 'none', config, extraModules: [DemoPromptsTestModule] }),
      ],
    }).compile();
    app.useLogger(false);
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(emptySkills, { recursive: true, force: true });
  });

  it('plan_restock still works, pointing at the tool description instead', async () => {
    const result = await get(app, 'plan_restock', { warehouse: 'east' });
    expect(result.messages).toHaveLength(2);
    expect(textOf(result, 0)).toContain('is not available here');
    expect(textOf(result, 1)).toContain('{"warehouse":"east"}');
  });
});
