import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { embeddedText, text, toolResult, ToolResult } from '../../tools/content';
import { HandlerContext } from '../../tools/handler-context';
import { Capability, Handler } from '../../tools/handler.decorator';
import { DemoStore } from './demo-store';
import { CATEGORIES, Product, WAREHOUSES } from './demo.types';
import { CheckStockDto } from './dto/check-stock.dto';
import { DEFAULT_DELAY_MS_PER_ITEM, ReorderReportDto } from './dto/reorder-report.dto';
import { DEFAULT_SEARCH_LIMIT, SearchInventoryDto } from './dto/search-inventory.dto';
import { STOCK_CHECK_OUTPUT_SCHEMA, StockCheckResult, StockLevel } from './dto/stock-level.output';
import { MATCH_ALL, searchProducts } from './product-search';
import {
  reorderCsv,
  ReorderLine,
  reorderSummary,
  sortReorderLines,
  toReorderLine,
} from './reorder-report.format';
import { needsReorder, stockStatus, StockStatus } from './stock-rules';

export interface ProductView extends Product {
  status: Exclude<StockStatus, 'unknown'>;
}

export interface SearchResult {
  /** Products that matched, before the limit. */
  total: number;
  returned: number;
  products: ProductView[];
}

/** Read-only views of the demo shop's catalog and stock. */
@Injectable()
@Capability()
export class InventoryCapability {
  constructor(private readonly store: DemoStore) {}

  @Handler({
    name: 'inventory_search',
    title: 'Search the product catalog',
    description:
      'Finds products of the outdoor-gear catalog by keyword. Use it to turn what a customer asks for ' +
      '("a 2-person tent", "rain jacket") into exact SKUs before checking stock or placing an order. ' +
      `Every word of the query must appear in the SKU, name or category; "${MATCH_ALL}" matches everything. ` +
      `Categories: ${CATEGORIES.join(', ')}. ` +
      'Returns {total, returned, products[]}: each product has sku, name, category, price (USD per unit), ' +
      `stock (units on hand), reorderPoint, leadTimeDays (supplier lead time, days), warehouse (${WAREHOUSES.join(', ')}) ` +
      'and status (in_stock | low | out). total counts matches before the limit.',
    estimatedCost: 0.1,
    maxCost: 0.1,
    annotations: {
      title: 'Search the product catalog',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  })
  search(dto: SearchInventoryDto, _ctx: HandlerContext): SearchResult {
    const matches = searchProducts(this.store.listProducts(), dto);
    const products = matches.slice(0, dto.limit ?? DEFAULT_SEARCH_LIMIT).map((product) => ({
      ...product,
      status: stockStatus(product),
    }));
    return { total: matches.length, returned: products.length, products };
  }

  @Handler({
    name: 'inventory_check_stock',
    title: 'Check stock for SKUs',
    description:
      'Reports current units on hand for up to 20 exact SKUs in one call. Use it right before placing an ' +
      'order (stock changes as orders come in) or to answer "is X available?". ' +
      'Each result: sku, stock (units, null if unknown), reorderPoint (units), status: in_stock (above the ' +
      'reorder point), low (1 unit up to the reorder point; still orderable), out (0 units), unknown (no such ' +
      'SKU; find valid ones with inventory_search).',
    estimatedCost: 0.2,
    maxCost: 0.2,
    outputSchema: STOCK_CHECK_OUTPUT_SCHEMA,
    annotations: {
      title: 'Check stock for SKUs',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  })
  checkStock(dto: CheckStockDto, _ctx: HandlerContext): StockCheckResult {
    const results = dto.skus.map((sku): StockLevel => {
      const product = this.store.findProduct(sku);
      if (!product) return { sku, stock: null, reorderPoint: null, status: 'unknown' };
      return {
        sku,
        stock: product.stock,
        reorderPoint: product.reorderPoint,
        status: stockStatus(product),
      };
    });
    return { results };
  }

  @Handler({
    name: 'inventory_reorder_report',
    title: 'Build the reorder report',
    description:
      'Walks every product (optionally of one warehouse) and lists those at or below their reorder point, ' +
      'with a suggested purchase quantity (refill to twice the reorder point, in cases of 5), a priority ' +
      '(critical = sold out, high = at or below half the reorder point, normal) and the expected arrival date ' +
      'from the supplier lead time. Use it for replenishment planning, not to answer a single stock question ' +
      '(inventory_check_stock is faster). Slow: about delayMsPerItem milliseconds per product (default ' +
      `${DEFAULT_DELAY_MS_PER_ITEM}), with progress notifications; it can be cancelled. Returns a text summary ` +
      'and the full report as an embedded text/csv resource.',
    skill: 'inventory/reorder-policy',
    estimatedCost: 2.5,
    maxCost: 2.5,
    maxDurationSeconds: 30,
    timeoutSeconds: 120,
    annotations: {
      title: 'Build the reorder report',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  })
  async reorderReport(dto: ReorderReportDto, ctx: HandlerContext): Promise<ToolResult> {
    const delayMs = dto.delayMsPerItem ?? DEFAULT_DELAY_MS_PER_ITEM;
    const warehouse = dto.warehouse ?? undefined;
    const products = this.store
      .listProducts()
      .filter((product) => warehouse === undefined || product.warehouse === warehouse);
    const today = new Date();
    const due: ReorderLine[] = [];
    for (const [index, product] of products.entries()) {
      ctx.signal.throwIfAborted();
      await sleep(delayMs, undefined, { signal: ctx.signal });
      if (needsReorder(product)) due.push(toReorderLine(product, today));
      ctx.progress(
        index + 1,
        products.length,
        `Checked ${product.sku} (${index + 1}/${products.length})`,
      );
    }
    const lines = sortReorderLines(due);
    const scope = warehouse ?? 'all';
    const scopeLabel = warehouse ? `warehouse ${warehouse}` : 'all warehouses';
    const uri = `demo://inventory/reorder-report/${scope}.csv`;
    return toolResult([
      text(`${reorderSummary(lines, products.length, scopeLabel)}\nFull report (CSV): ${uri}`),
      embeddedText(uri, reorderCsv(lines), 'text/csv'),
    ]);
  }
}
