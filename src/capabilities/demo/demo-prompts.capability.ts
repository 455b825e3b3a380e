import { Injectable } from '@nestjs/common';
import { GatewayError } from '../../errors/gateway.error';
import { PromptContext } from '../../prompts/prompt-context';
import { PromptResult, userMessage } from '../../prompts/prompt-message';
import { Prompt } from '../../prompts/prompt.decorator';
import { SKILL_MIME_TYPE } from '../../resources/resource-entry';
import { readSkillFile } from '../../resources/resource-read';
import { ResourceVisibility } from '../../resources/resource-visibility';
import { SkillCatalog } from '../../resources/skill-catalog';
import { ContentBlock, embeddedText, text } from '../../tools/content';
import { Capability } from '../../tools/handler.decorator';
import { DemoStore } from './demo-store';
import { Order, WAREHOUSES } from './demo.types';

export const RESTOCK_SCOPES = [...WAREHOUSES, 'all'] as const;
export const DEFAULT_HORIZON_DAYS = 30;
export const MAX_HORIZON_DAYS = 365;
export const CONFIRMATION_TONES = ['formal', 'friendly'] as const;
export const REORDER_POLICY = { category: 'inventory', name: 'reorder-policy' };

const TONE_GUIDE: Record<(typeof CONFIRMATION_TONES)[number], string> = {
  formal: 'Formal and courteous: "Dear customer", full sentences, no exclamation marks, no emoji.',
  friendly:
    'Warm and upbeat: "Hi there", short paragraphs, plain words, at most one exclamation mark.',
};

/**
 * Prompt templates of the demo shop: a buyer's restock planning session and
 * a customer-service order confirmation. Without the reorder-policy skill
 * (no skills directory, or hidden from the client) the restock prompt still
 * works, minus the embedded policy.
 */
@Injectable()
@Capability()
export class DemoPromptsCapability {
  constructor(
    private readonly store: DemoStore,
    private readonly catalog: SkillCatalog,
    private readonly visibility: ResourceVisibility,
  ) {}

  @Prompt({
    name: 'plan_restock',
    title: 'Plan a restock',
    description:
      'Replenishment planning for one warehouse (or all): embeds the reorder policy and asks the model to run ' +
      'inventory_reorder_report once and turn it into prioritised purchase orders for the planning horizon.',
    arguments: [
      {
        name: 'warehouse',
        title: 'Warehouse',
        description: `Which stock to plan: ${RESTOCK_SCOPES.join(', ')}.`,
        required: true,
        completions: [...RESTOCK_SCOPES],
      },
      {
        name: 'horizonDays',
        title: 'Horizon (days)',
        description: `Planning horizon in days, 1-${MAX_HORIZON_DAYS}. Default ${DEFAULT_HORIZON_DAYS}.`,
        completions: ['7', '14', '30', '60', '90'],
      },
    ],
  })
  planRestock(args: Record<string, string>, ctx: PromptContext): PromptResult {
    const warehouse = oneOf(args.warehouse, RESTOCK_SCOPES, 'warehouse');
    const horizon = horizonDays(args.horizonDays);
    const scope = warehouse === 'all' ? 'all warehouses' : `the ${warehouse} warehouse`;
    const reportArgs = warehouse === 'all' ? '{}' : JSON.stringify({ warehouse });
    const policy = this.reorderPolicy(ctx.clientId);
    const instructions = [
      `Plan restocking for ${scope} over the next ${horizon} days.`,
      '',
      `1. Call inventory_reorder_report once with ${reportArgs}. It is slow (it reports progress); do not repeat it.`,
      '2. Apply the reorder policy: list the purchase orders to raise now, critical lines first, then high, then ' +
        'normal, each with SKU, product, suggested quantity and expected arrival.',
      `3. Flag every line whose lead time is longer than ${horizon} days: its stock will not be replenished ` +
        'within the horizon, so suggest whether a larger quantity is justified.',
      '4. End with a short table (SKU, quantity, priority, arrival) and the total number of units.',
      '',
      'Do not place orders: this gateway has no purchasing tool. Say so if the buyer asks.',
    ].join('\n');
    return {
      description: `Restock plan for ${scope}, ${horizon}-day horizon`,
      messages: [userMessage(policy), userMessage(text(instructions))],
    };
  }

  @Prompt({
    name: 'draft_order_confirmation',
    title: 'Draft an order confirmation',
    description:
      'Customer-service email confirming an order: embeds the order (JSON) and asks for a subject line and ' +
      'body in the chosen tone, using only facts from the order.',
    arguments: [
      {
        name: 'orderId',
        title: 'Order id',
        description: 'The order to confirm, e.g. ORD-1001.',
        required: true,
      },
      {
        name: 'tone',
        title: 'Tone',
        description: `${CONFIRMATION_TONES.join(' or ')}. Default friendly.`,
        completions: [...CONFIRMATION_TONES],
      },
    ],
    // It embeds the whole order (customer email included): seen only by clients that may call orders_get.
    reads: ['orders_get'],
  })
  draftOrderConfirmation(args: Record<string, string>): PromptResult {
    const tone = oneOf(args.tone ?? 'friendly', CONFIRMATION_TONES, 'tone');
    const order = this.store.findOrder(args.orderId);
    if (!order) {
      throw GatewayError.invalidParams(`Unknown order: ${args.orderId}`, {
        errors: [{ field: 'orderId', problems: [`no order ${args.orderId}`] }],
      });
    }
    const instructions = [
      `Draft an order confirmation email for order ${order.id} (attached above) to ${order.customer.email}.`,
      `Tone: ${TONE_GUIDE[tone]}`,
      'Include every item with quantity and price, the subtotal, the shipping speed and cost, the total (USD) ' +
        'and the estimated delivery date.',
      statusNote(order),
      'Use only facts from the order; if it may have changed, refresh it with orders_get first. ' +
        'Answer with a subject line, then the body.',
    ].join('\n');
    return {
      description: `A ${tone} confirmation of ${order.id}`,
      messages: [
        userMessage(
          embeddedText(
            `demo://orders/${order.id}.json`,
            JSON.stringify(order, null, 2),
            'application/json',
          ),
        ),
        userMessage(text(instructions)),
      ],
    };
  }

  /** The reorder-policy skill as an embedded resource, exactly as resources/read serves it. */
  private reorderPolicy(clientId: string): ContentBlock {
    const { catalog } = this;
    const skill = catalog.get(REORDER_POLICY.category, REORDER_POLICY.name);
    if (!catalog.rootDir || !skill || !this.visibility.isVisible(skill.uri, clientId)) {
      return text(
        'The reorder policy (skill://inventory/reorder-policy) is not available here: rely on the rules in ' +
          'the description of inventory_reorder_report.',
      );
    }
    const snapshot = readSkillFile(catalog.rootDir, skill, skill.skillFile, skill.uri);
    return embeddedText(skill.uri, snapshot.bytes.toString('utf8'), SKILL_MIME_TYPE);
  }
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw GatewayError.invalidParams(
    `${field} must be one of ${allowed.join(', ')}, got "${value}"`,
    {
      errors: [{ field, problems: [`must be one of ${allowed.join(', ')}`] }],
    },
  );
}

function horizonDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_HORIZON_DAYS;
  const days = /^\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (days >= 1 && days <= MAX_HORIZON_DAYS) return days;
  throw GatewayError.invalidParams(
    `horizonDays must be a whole number of days from 1 to ${MAX_HORIZON_DAYS}, got "${raw}"`,
    { errors: [{ field: 'horizonDays', problems: [`must be an integer 1-${MAX_HORIZON_DAYS}`] }] },
  );
}

function statusNote(order: Order): string {
  switch (order.status) {
    case 'placed':
    case 'packed':
      return `The order is ${order.status}; it has not shipped yet.`;
    case 'shipped':
      return 'The order has already shipped: say it is on its way.';
    case 'delivered':
      return `The order was delivered on ${order.deliveredOn ?? 'an unrecorded date'}: confirm the details as a receipt.`;
    case 'cancelled':
      return 'The order is cancelled: confirm the cancellation instead of the purchase, and promise nothing else.';
  }
}
