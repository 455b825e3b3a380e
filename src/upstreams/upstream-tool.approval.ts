import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { InputRequiredSignal } from '../json-rpc/mrtr/input-required.signal';
import { GovernanceDeniedError } from '../governance/governance-denied.error';
import type { HandlerContext } from '../tools/handler-context';
import type { UpstreamRecord } from './upstream-record';
import { APPROVAL_ARGUMENTS_SUMMARY_CHARS, APPROVAL_TIMEOUT_MS } from './upstream-relay.limits';

/** Why a call that needed approval was not forwarded (`error.data.approval`). */
export type ApprovalRefusal =
  'declined' | 'cancelled' | 'no_elicitation_capability' | 'timeout' | 'elicitation_failed';

/** The one field the client is asked to fill: a confirmation, false unless the user sets it. */
const APPROVAL_SCHEMA = {
  type: 'object',
  properties: {
    approve: {
      type: 'boolean',
      title: 'Approve',
      description: 'Run this tool call',
      default: false,
    },
  },
  required: ['approve'],
} as const;

/**
 * `approval_policy: always`: asks the calling client through
 * elicitation/create before the call is forwarded, and refuses it (-32003,
 * `data.reason: approval_required`) unless the client accepts with
 * `approve: true`. A refused call reports cost 0: the upstream never ran.
 */
export async function requireApproval(
  record: UpstreamRecord,
  tool: string,
  exposedName: string,
  args: unknown,
  context: HandlerContext,
): Promise<void> {
  const refusal = await askForApproval(record, tool, exposedName, args, context);
  if (refusal === undefined) return;
  context.reportCost(0);
  throw new GovernanceDeniedError(
    'approval_required',
    `Approval required: ${exposedName} (${record.server_id}/${tool}) was not approved (${refusal.replaceAll('_', ' ')})`,
    {
      retryable: false,
      remaining: {},
      data: { code: 'mcp_policy_denied', server_id: record.server_id, tool, approval: refusal },
    },
  );
}

async function askForApproval(
  record: UpstreamRecord,
  tool: string,
  exposedName: string,
  args: unknown,
  context: HandlerContext,
): Promise<ApprovalRefusal | undefined> {
  let answer: Record<string, unknown>;
  try {
    answer = await context.elicit(
      {
        message: approvalMessage(record, tool, exposedName, args),
        requestedSchema: APPROVAL_SCHEMA,
      },
      { timeoutMs: APPROVAL_TIMEOUT_MS },
    );
  } catch (error) {
    // A cancelled or timed-out call ends as such, not as a refusal.
    if (context.signal.aborted) throw context.signal.reason;
    // On 2026-07-28 the question goes back as an input-required round, or the missing capability as -32021.
    if (
      error instanceof InputRequiredSignal ||
      (error instanceof GatewayError && error.code === ErrorCode.MissingRequiredClientCapability)
    ) {
      throw error;
    }
    return refusalOf(error);
  }
  if (answer.action === 'accept') {
    const content = answer.content as { approve?: unknown } | undefined;
    return content?.approve === true ? undefined : 'declined';
  }
  return answer.action === 'cancel' ? 'cancelled' : 'declined';
}

function refusalOf(error: unknown): ApprovalRefusal {
  if (!(error instanceof GatewayError)) return 'elicitation_failed';
  if (error.data.capability !== undefined) return 'no_elicitation_capability';
  return error.code === ErrorCode.Timeout ? 'timeout' : 'elicitation_failed';
}

/** Names the server, the tool and a bounded view of the arguments, so the user knows what they allow. */
export function approvalMessage(
  record: UpstreamRecord,
  tool: string,
  exposedName: string,
  args: unknown,
): string {
  const server =
    record.display_name === record.server_id
      ? record.server_id
      : `${record.display_name} (${record.server_id})`;
  return [
    `Approve a call to the tool "${tool}" of the MCP server ${server}, called as ${exposedName}?`,
    `Arguments: ${argumentsSummary(args)}`,
  ].join('\n');
}

function argumentsSummary(args: unknown): string {
  const json = JSON.stringify(args ?? {});
  const max = APPROVAL_ARGUMENTS_SUMMARY_CHARS;
  if (json.length <= max) return json;
  return `${json.slice(0, max)}… (${json.length - max} more characters not shown)`;
}
