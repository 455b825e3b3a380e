import { JsonRpcId, JsonRpcParams } from '../json-rpc/json-rpc.types';
import { InputRequest } from '../json-rpc/mrtr/input-round';
import { TaskStatus } from './tasks.constants';

/** The JSON-RPC error a failed task carries, as tools/call would have answered it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What the ledger row and the run need of the tools/call that created the task:
 * kept with the task because the run may happen in another process, after a restart.
 */
export interface TaskOrigin {
  requestId: JsonRpcId;
  traceId: string;
  sessionId: string;
  sessionOwner: string;
  transport: 'stdio' | 'streamable-http' | 'legacy-sse';
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  /** The OAuth caller's verified token, scopes as a list (never the token itself). */
  token?: {
    issuer: string;
    subject: string;
    clientId: string;
    tokenId?: string;
    scopes: string[];
    expiresAt: number;
  };
  /** Governance's findings on the call (estimate, cost cap, budget claim, upstream). */
  estimatedCost?: number;
  costCap?: number;
  budgetClaim?: { id: string; month: string };
  upstream?: { server: string; tool: string };
  argumentsOverLimit?: string;
}

/** One task as the store keeps it. Times are epoch milliseconds. */
export interface TaskRecord {
  taskId: string;
  /** Who may see it: the creating session's owner and client, as requestState binds them. */
  principal: string;
  clientId: string;
  tool: string;
  /** The tools/call params (name and arguments, without _meta). */
  params: JsonRpcParams;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** Questions for the client not answered yet (input_required while any is here). */
  inputRequests: Record<string, InputRequest>;
  /** Every answer the client gave (MRTR rounds before the task, tasks/update after), by key. */
  answers: Record<string, unknown>;
  /** Keys ever asked: a key is never reused for another question (ext-tasks, "Task Update Requests"). */
  askedKeys: string[];
  cancelRequested: boolean;
  /** Runs begun; a run interrupted by a dead process is begun again up to tasks.max_attempts. */
  attempts: number;
  /** When the first run began (queue wait ends here). */
  startedAt?: number;
  finishedAt?: number;
  /** The replica running it, for the admin list. */
  runner?: string;
  /** Set by whoever ends the task (one process, once): the ledger row is being written. */
  endedBy?: string;
  /** When endedBy was set: an ending that old was abandoned by a process that died. */
  endingSince?: number;
  /** The charged cost once it ran (budget units). */
  cost?: number;
  result?: Record<string, unknown>;
  error?: TaskError;
  origin: TaskOrigin;
}

/** What the admin list filters on. */
export interface TaskFilter {
  clientId?: string;
  status?: TaskStatus;
  limit: number;
}
