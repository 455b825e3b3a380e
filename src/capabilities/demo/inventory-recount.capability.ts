import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { text, toolResult, ToolResult } from '../../tools/content';
import { HandlerContext } from '../../tools/handler-context';
import { Capability, Handler } from '../../tools/handler.decorator';
import { DemoStore } from './demo-store';
import { WAREHOUSES } from './demo.types';
import { DEFAULT_SECONDS_PER_ITEM, InventoryRecountDto } from './dto/inventory-recount.dto';
import { RECOUNT_OUTPUT_SCHEMA } from './dto/inventory-recount.output';
import { recountLine, RecountLine, recountSummary, recountTotals } from './stock-recount';

/**
 * The demo pack's long-running tool: a stock-take that walks the catalog one
 * product at a time, so a client sees it run as a task, with progress, and
 * can cancel it half-way.
 */
@Injectable()
@Capability()
export class InventoryRecountCapability {
  constructor(private readonly store: DemoStore) {}

  @Handler({
    name: 'inventory_recount',
    title: 'Recount stock',
    description:
      'A stock-take: counts every product (optionally of one warehouse) one after the other and ' +
      'reports units on hand, units of placed or packed orders still awaiting shipment, stock value ' +
      `at unit price and how many products are low or sold out, per warehouse (${WAREHOUSES.join(', ')}) ` +
      'and per product. Slow on purpose: about secondsPerItem seconds per product (default ' +
      `${DEFAULT_SECONDS_PER_ITEM}, about 24 s in all), so it runs as a task for clients that accept ` +
      'tasks, reports progress as it goes and can be cancelled. For one stock question use ' +
      'inventory_check_stock instead.',
    estimatedCost: 3,
    maxCost: 3,
    maxDurationSeconds: 30,
    // The slowest run allowed (30 products at 5 s) fits, with room for a loaded machine.
    timeoutSeconds: 180,
    task: 'optional',
    outputSchema: RECOUNT_OUTPUT_SCHEMA,
    annotations: {
      title: 'Recount stock',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  })
  async recount(dto: InventoryRecountDto, ctx: HandlerContext): Promise<ToolResult> {
    const delayMs = Math.round((dto.secondsPerItem ?? DEFAULT_SECONDS_PER_ITEM) * 1000);
    const scope = dto.warehouse ?? 'all';
    const skus = this.store
      .listProducts()
      .filter((product) => scope === 'all' || product.warehouse === scope)
      .map((product) => product.sku);
    ctx.progress(0, skus.length, `Counting ${skus.length} products`);
    const lines: RecountLine[] = [];
    for (const [index, sku] of skus.entries()) {
      ctx.signal.throwIfAborted();
      await sleep(delayMs, undefined, { signal: ctx.signal });
      // Read at its turn: an order placed during the recount shows where it stands now.
      const product = this.store.findProduct(sku);
      if (product) lines.push(recountLine(product, this.store.listOrders()));
      ctx.progress(index + 1, skus.length, `Counted ${sku}`);
    }
    const result = recountTotals(scope, lines);
    // The JSON as text too, for clients that read no structuredContent (MCP tools, "Structured Content").
    return toolResult([text(recountSummary(result)), text(JSON.stringify(result))], {
      structuredContent: { ...result },
    });
  }
}
