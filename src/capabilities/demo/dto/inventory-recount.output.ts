import { JsonSchemaObject } from '../../../tools/handler-options';
import { WAREHOUSES } from '../demo.types';

const COUNT = { type: 'integer', minimum: 0 };
const USD = { type: 'number', minimum: 0, description: 'US dollars' };

/** outputSchema of inventory_recount (its structuredContent). */
export const RECOUNT_OUTPUT_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    scope: { type: 'string', enum: [...WAREHOUSES, 'all'] },
    counted: { ...COUNT, description: 'Products counted' },
    units: { ...COUNT, description: 'Units on hand, free to sell' },
    awaitingShipment: {
      ...COUNT,
      description: 'Units of placed or packed orders: out of stock already, still in the warehouse',
    },
    value: { ...USD, description: 'Units on hand at their unit price, US dollars' },
    warehouses: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          warehouse: { type: 'string', enum: [...WAREHOUSES] },
          skus: COUNT,
          units: COUNT,
          awaitingShipment: COUNT,
          value: USD,
          low: COUNT,
          out: COUNT,
        },
        required: ['warehouse', 'skus', 'units', 'awaitingShipment', 'value', 'low', 'out'],
        additionalProperties: false,
      },
    },
    items: {
      type: 'array',
      description: 'One entry per product counted, in catalog order.',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          warehouse: { type: 'string', enum: [...WAREHOUSES] },
          stock: COUNT,
          awaitingShipment: COUNT,
          status: { type: 'string', enum: ['in_stock', 'low', 'out'] },
          value: USD,
        },
        required: ['sku', 'warehouse', 'stock', 'awaitingShipment', 'status', 'value'],
        additionalProperties: false,
      },
    },
  },
  required: ['scope', 'counted', 'units', 'awaitingShipment', 'value', 'warehouses', 'items'],
  additionalProperties: false,
};
