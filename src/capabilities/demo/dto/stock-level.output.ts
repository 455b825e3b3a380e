import { JsonSchemaObject } from '../../../tools/handler-options';
import { StockStatus } from '../stock-rules';

/** One SKU's stock as inventory_check_stock reports it; unknown SKUs carry nulls. */
export interface StockLevel {
  sku: string;
  stock: number | null;
  reorderPoint: number | null;
  status: StockStatus;
}

export interface StockCheckResult {
  results: StockLevel[];
}

/** outputSchema of inventory_check_stock (its structuredContent). */
export const STOCK_CHECK_OUTPUT_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      description: 'One entry per requested SKU, in request order.',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          stock: {
            type: ['integer', 'null'],
            minimum: 0,
            description: 'Units on hand; null when the SKU is not in the catalog.',
          },
          reorderPoint: {
            type: ['integer', 'null'],
            minimum: 0,
            description:
              'Stock level at or below which the product is reordered; null when unknown.',
          },
          status: {
            type: 'string',
            enum: ['in_stock', 'low', 'out', 'unknown'],
            description:
              'in_stock: above the reorder point; low: 1 unit up to the reorder point; out: 0 units; unknown: not in the catalog.',
          },
        },
        required: ['sku', 'stock', 'reorderPoint', 'status'],
        additionalProperties: false,
      },
    },
  },
  required: ['results'],
  additionalProperties: false,
};
