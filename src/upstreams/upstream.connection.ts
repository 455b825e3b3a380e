import { Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { LIST_CHANGED_NOTIFICATIONS, UpstreamListKind } from './upstream-list-changed';
import { GatewayError } from '../errors/gateway.error';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { RequestTracer, SpanAttributes } from '../observability/tracing/request-tracer';
import {
  ATTR_MCP_TOOL,
  ATTR_MCP_UPSTREAM,
  ATTR_RPC_METHOD,
  ATTR_RPC_SYSTEM,
  UPSTREAM_SPAN_PREFIX,
} from '../observability/tracing/span-attributes';
import { UntracedRequestTracer } from '../observability/tracing/untraced-request.tracer';
import { ChildSlots } from './child-slots';
import { errorChain } from './error-chain';
import { IdleReclaimTimer } from './idle-reclaim.timer';
import { OwnedStdioClientTransport } from './owned-stdio.transport';
import { waitForProcessExit } from './process-exit.wait';
import { RELAYED_CLIENT_CAPABILITIES, relayClientRequests } from './upstream-client-requests.relay';
import { callAbandoned, RelayCaller, UpstreamRelayCalls } from './upstream-relay.calls';
import { killProcessGroup } from './process-group';
import { DEFAULT_RESTART_POLICY, RestartPolicy } from './restart-backoff';
import {
  upstreamBusy,
  upstreamCallError,
  upstreamChildLimit,
  upstreamUnavailable,
} from './upstream-call.errors';
import { UpstreamCallSemaphore } from './upstream-call.semaphore';
import {
  CHILD_EXIT_WAIT_MS,
  CONNECT_TIMEOUT_MS,
  MAX_TOOL_LIST_PAGES,
  MAX_TOTAL_TIMEOUT_MS,
  MAX_UPSTREAM_TOOLS,
  TOTAL_TIMEOUT_FACTOR,
} from './upstream-connection.constants';
import { NO_UPSTREAM_METRICS, UpstreamMetricsSink } from './upstream-metrics.sink';
import { measureToolOutput, truncateToolOutput } from './upstream-output.truncator';
import type { UpstreamRecord } from './upstream-record';
import { UpstreamRestartSupervisor } from './upstream-restart.supervisor';
import { UpstreamSecretScrubber } from './upstream-secret.scrubber';
import { UpstreamProgressRelay } from './upstream-progress.relay';
import type { UpstreamStatus } from './upstream-state';
import { UpstreamTaskCall } from './upstream-task.call';
import { TracedUpstreamClient } from './traced-upstream.client';
import { callsAsTask, UpstreamTaskSupport } from './upstream-task-support';
import { createUpstreamTransport } from './upstream-transport.factory';
import { failureOf, isHealthFailure, UpstreamConnectionStatus } from './upstream-connection.status';

/** What a caller may pass along with an upstream tool call. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  onprogress?: RequestOptions['onprogress'];
  /** The client the call is made for: the upstream's sampling and elicitation requests go to it. */
  caller?: RelayCaller;
  /** The tool's own `execution.taskSupport`: when set (and the upstream allows it) the call is task-augmented. */
  taskSupport?: UpstreamTaskSupport;
}

/** What the pool shares with its connections; each has a standalone default. */
export interface UpstreamConnectionDeps {
  /** `upstreams.max_children`, counted across the pool. */
  children?: ChildSlots;
  restart?: RestartPolicy;
  /** The jitter source of restart backoff (tests pin it). */
  restartJitter?: () => number;
  metrics?: UpstreamMetricsSink;
  /** Each call is a CLIENT span of the gateway request it serves, whose traceparent it carries. */
  tracer?: RequestTracer;
  /** `upstreams.progress_interval_ms`: the least time between two progress reports relayed for one call. */
  progressIntervalMs?: number;
}

/** The default of `upstreams.progress_interval_ms`. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

/**
 * One SDK `Client` for one upstream record: connects on first use, enforces the
 * record's budgets on every call (timeout, concurrency, output size) and maps
 * failures to gateway errors. A stdio child that crashes is restarted with
 * backoff (UpstreamRestartSupervisor), one idle for idle_timeout_seconds is
 * closed; HTTP upstreams reconnect lazily after they go away.
 */
export class UpstreamConnection {
  private readonly logger: Logger;
  private readonly semaphore: UpstreamCallSemaphore;
  private readonly relayCalls = new UpstreamRelayCalls();
  private readonly children: ChildSlots;
  private readonly metrics: UpstreamMetricsSink;
  private readonly supervisor: UpstreamRestartSupervisor;
  private readonly idle: IdleReclaimTimer;
  private readonly tracer: RequestTracer;
  private readonly progressIntervalMs: number;
  /** Every failure leaves this connection through it: SDK and fetch errors may quote the record's secrets. */
  private readonly scrubber: UpstreamSecretScrubber;
  private readonly traceparent = () => this.tracer.outgoingTraceparent();
  private client?: Client;
  private transport?: Transport;
  private connecting?: Promise<Client>;
  private closed = false;
  private readonly listChangedListeners = new Set<(kind: UpstreamListKind) => void>();
  private readonly reaped = new WeakSet<OwnedStdioClientTransport>();
  /** The reaping of a crashed child; a new child waits for it so its slot is free again. */
  private reaping: Promise<void> = Promise.resolve();
  /** The last request failure that says the upstream is unwell (admin API), and the last answer. */
  private lastRequestError?: UpstreamConnectionStatus['lastError'];
  private lastSuccessAt?: string;

  constructor(
    readonly record: UpstreamRecord,
    deps: UpstreamConnectionDeps = {},
  ) {
    const serverId = record.server_id;
    this.logger = new Logger(`Upstream ${serverId}`);
    this.scrubber = new UpstreamSecretScrubber(record);
    this.semaphore = new UpstreamCallSemaphore(record.budgets.max_concurrency);
    this.children = deps.children ?? new ChildSlots(Number.POSITIVE_INFINITY);
    this.metrics = deps.metrics ?? NO_UPSTREAM_METRICS;
    this.tracer = deps.tracer ?? new UntracedRequestTracer();
    this.progressIntervalMs = deps.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    this.supervisor = new UpstreamRestartSupervisor(
      serverId,
      deps.restart ?? DEFAULT_RESTART_POLICY,
      () => this.restartAfterFailure(),
      (state) => this.metrics.state(serverId, state),
      deps.restartJitter,
    );
    this.idle = new IdleReclaimTimer(record.idle_timeout_seconds * 1000, () => {
      void this.reclaimIdle();
    });
    this.metrics.state(serverId, 'idle');
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Connected / degraded / down / idle, since when, and the last failure. */
  get status(): Readonly<UpstreamStatus> {
    return this.supervisor.current;
  }

  /**
   * For the admin API: the supervisor's state, and the last failure, whether
   * a crash, a failed start or a request that timed out or found it gone.
   */
  health(): UpstreamConnectionStatus {
    const status = this.supervisor.current;
    const crash = status.last_error;
    const request = this.lastRequestError;
    const lastError =
      request ?? (crash ? { message: crash, at: status.since.toISOString() } : undefined);
    return {
      state: status.state,
      since: status.since.toISOString(),
      // A crash the supervisor recovered from is history; a request that failed after the last answer is now.
      requestsFailing:
        request !== undefined &&
        (this.lastSuccessAt === undefined || request.at >= this.lastSuccessAt),
      ...(lastError ? { lastError } : {}),
      ...(this.lastSuccessAt ? { lastSuccessAt: this.lastSuccessAt } : {}),
    };
  }

  /** The stdio child's pid while one runs (its process group's id when it owns one). */
  get pid(): number | undefined {
    return this.transport instanceof OwnedStdioClientTransport
      ? this.transport.spawnedPid
      : undefined;
  }

  async connect(): Promise<void> {
    await this.ready();
  }

  /** Hears the upstream's tools/prompts/resources list_changed notifications; returns the unsubscribe function. */
  onListChanged(listener: (kind: UpstreamListKind) => void): () => void {
    this.listChangedListeners.add(listener);
    return () => this.listChangedListeners.delete(listener);
  }

  /**
   * One relayed request (prompts, resources) with the session handling and
   * error mapping of tool calls, bounded by `tool_timeout_ms`.
   */
  request<T>(
    operation: string,
    send: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const options = { timeout: this.record.budgets.tool_timeout_ms, signal };
    return this.tracer.inSpan(
      UPSTREAM_SPAN_PREFIX + operation,
      this.spanAttributes(operation),
      () =>
        this.withSession((client) => send(client, options)).catch((error: unknown) => {
          throw upstreamCallError(
            this.record.server_id,
            operation,
            this.scrubber.error(error),
            signal,
          );
        }),
    );
  }

  /** Every tool the upstream lists, all pages, at most MAX_UPSTREAM_TOOLS. */
  async listTools(): Promise<Tool[]> {
    this.idle.busy();
    try {
      const tools = await this.withSession((client) => this.listAllPages(client));
      this.lastSuccessAt = new Date().toISOString();
      return tools;
    } catch (error) {
      const clean = this.scrubber.error(error);
      throw this.noted(upstreamCallError(this.record.server_id, 'tools/list', clean));
    } finally {
      this.idle.free();
    }
  }

  /** One tools/call; its span covers the wait for a call slot, the reconnect if any, and the call. */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions = {},
  ): Promise<CallToolResult> {
    const attributes = { ...this.spanAttributes('tools/call'), [ATTR_MCP_TOOL]: name };
    return this.tracer.inSpan(UPSTREAM_SPAN_PREFIX + 'tools/call', attributes, () =>
      this.callToolInSlot(name, args, options),
    );
  }

  private async callToolInSlot(
    name: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult> {
    const { tool_timeout_ms: timeout, max_tool_output_bytes } = this.record.budgets;
    const serverId = this.record.server_id;
    const queuedAt = performance.now();
    let outcome = 'success';
    this.idle.busy();
    const release = await this.semaphore
      .acquire(timeout, options.signal)
      .catch((reason: unknown) => {
        this.idle.free();
        throw reason;
      });
    if (!release) {
      this.idle.free();
      const busy = upstreamBusy(
        serverId,
        this.semaphore.max,
        Math.round(performance.now() - queuedAt),
      );
      this.metrics.call(serverId, name, callOutcome(busy), (performance.now() - queuedAt) / 1000);
      throw this.noted(busy);
    }
    const end = this.relayCalls.begin(options.caller);
    // An upstream may report progress thousands of times a call: the client gets the latest, paced.
    const progress = options.onprogress
      ? new UpstreamProgressRelay(options.onprogress, this.progressIntervalMs)
      : undefined;
    let abandoned = false;
    try {
      const result = await this.send(name, args, { ...options, onprogress: progress?.report });
      progress?.flush();
      const size = measureToolOutput(result);
      this.metrics.outputBytes(serverId, size.contentBytes + size.structuredBytes);
      if (result.isError === true) outcome = 'tool_error';
      this.lastSuccessAt = new Date().toISOString();
      return truncateToolOutput(result, max_tool_output_bytes, size);
    } catch (error) {
      abandoned = callAbandoned(error, options.signal);
      const mapped = upstreamCallError(serverId, name, this.scrubber.error(error), options.signal);
      outcome = callOutcome(mapped);
      throw this.noted(mapped);
    } finally {
      progress?.stop();
      end(abandoned);
      release();
      this.idle.free();
      this.metrics.call(serverId, name, outcome, (performance.now() - queuedAt) / 1000);
    }
  }

  /**
   * The call itself, inside the slot: task-augmented when the tool declares
   * task support and the upstream accepts tasks, so the timeout bounds the
   * whole task; a plain request otherwise, kept alive by progress.
   */
  private async send(
    name: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult> {
    const timeout = this.record.budgets.tool_timeout_ms;
    const maxTotalTimeout = Math.min(timeout * TOTAL_TIMEOUT_FACTOR, MAX_TOTAL_TIMEOUT_MS);
    const serverId = this.record.server_id;
    const capabilities = (await this.ready()).getServerCapabilities();
    if (callsAsTask(serverId, name, options.taskSupport, capabilities)) {
      const call = new UpstreamTaskCall(
        serverId,
        { name, arguments: args },
        { idleMs: timeout, totalMs: maxTotalTimeout },
        { ...options, scrub: (error) => this.scrubber.error(error) },
        this.logger,
      );
      return call.run((request) => this.withSession(request));
    }
    const result = await this.withSession((client) =>
      client.callTool({ name, arguments: args }, undefined, {
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout,
        signal: options.signal,
        onprogress: options.onprogress,
      }),
    );
    return result as CallToolResult;
  }

  /** Closes the client (the SDK ends a stdio child's stdin, then SIGTERM, then SIGKILL) and waits for the child to be gone. */
  async close(): Promise<void> {
    this.closed = true;
    this.supervisor.cancel();
    this.idle.stop();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    await this.disconnect(client, this.transport);
    await this.reaping;
  }

  private ready(): Promise<Client> {
    if (this.closed) {
      return Promise.reject(
        upstreamUnavailable(this.record.server_id, new Error('connection closed')),
      );
    }
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) {
      const refusal = this.supervisor.refusal();
      if (refusal) return Promise.reject(refusal);
      this.connecting = this.open().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const serverId = this.record.server_id;
    const stdio = this.record.transport === 'stdio';
    await this.reaping;
    if (stdio && !this.children.tryAcquire()) {
      this.metrics.connectAttempt(serverId, 'refused');
      throw upstreamChildLimit(serverId, this.children.max);
    }
    let transport: Transport;
    try {
      transport = createUpstreamTransport(
        this.record,
        (line) =>
          this.logger.debug({
            msg: 'upstream stderr',
            server_id: serverId,
            line: this.scrubber.text(line),
          }),
        this.traceparent,
      );
    } catch (error) {
      if (stdio) this.children.release();
      throw this.scrubber.error(error);
    }
    const client = new TracedUpstreamClient(
      { name: 'owlclaw-gateway', version: GATEWAY_VERSION },
      { capabilities: RELAYED_CLIENT_CAPABILITIES },
      this.traceparent,
    );
    relayClientRequests(client, this.relayCalls, serverId);
    client.onclose = () => this.onClientClosed(client, transport);
    for (const [kind, schema] of LIST_CHANGED_NOTIFICATIONS) {
      client.setNotificationHandler(schema, () => {
        for (const listener of this.listChangedListeners) listener(kind);
      });
    }
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      const clean = this.scrubber.error(error);
      await this.disconnect(client, transport);
      this.metrics.connectAttempt(serverId, 'failure');
      this.supervisor.failed(errorChain(clean), { restart: stdio && !this.closed });
      throw this.noted(upstreamUnavailable(serverId, clean));
    }
    this.client = client;
    this.lastRequestError = undefined;
    this.metrics.connectAttempt(serverId, 'success');
    this.supervisor.connected();
    this.idle.arm();
    this.logger.log({ msg: 'upstream connected', server_id: serverId, pid: this.pid });
    return client;
  }

  /** The SDK closed a published client we did not close: a stdio child that exited on its own. */
  private onClientClosed(client: Client, transport: Transport): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.transport === transport) this.transport = undefined;
    if (!(transport instanceof OwnedStdioClientTransport)) return;
    this.logger.warn({
      msg: 'upstream child exited unexpectedly',
      server_id: this.record.server_id,
      pid: transport.spawnedPid,
    });
    this.idle.stop();
    this.reaping = this.reapChild(transport);
    this.supervisor.failed('child exited unexpectedly', { restart: !this.closed });
  }

  private restartAfterFailure(): void {
    if (this.closed || this.client) return;
    this.ready().catch((error: unknown) =>
      this.logger.warn({
        msg: 'upstream restart failed',
        server_id: this.record.server_id,
        error: errorChain(error),
      }),
    );
  }

  /** Closes a healthy stdio child nobody used for idle_timeout_seconds; the next call starts it again. */
  private async reclaimIdle(): Promise<void> {
    const client = this.client;
    if (!client || this.closed || !(this.transport instanceof OwnedStdioClientTransport)) return;
    this.logger.log({ msg: 'upstream idle, closing its child', server_id: this.record.server_id });
    this.supervisor.idle();
    await this.disconnect(client, this.transport);
  }

  /** Runs `request`; an HTTP session the upstream no longer knows (404) is re-initialized once. */
  private async withSession<T>(request: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.ready();
    try {
      return await request(client);
    } catch (error) {
      if (!(error instanceof StreamableHTTPError && error.code === 404)) throw error;
      this.logger.log({
        msg: 'upstream session expired, re-initializing',
        server_id: this.record.server_id,
      });
      await this.disconnect(client, this.transport);
      return request(await this.ready());
    }
  }

  private spanAttributes(method: string): SpanAttributes {
    return {
      [ATTR_RPC_SYSTEM]: 'jsonrpc',
      [ATTR_RPC_METHOD]: method,
      [ATTR_MCP_UPSTREAM]: this.record.server_id,
    };
  }

  /** Remembers a failure that says the upstream is unwell, for status(); returns it to be thrown. */
  private noted(error: unknown): unknown {
    if (isHealthFailure(error)) this.lastRequestError = failureOf(error);
    return error;
  }

  private async listAllPages(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: this.record.budgets.tool_timeout_ms,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
      pages++;
    } while (
      cursor !== undefined &&
      pages < MAX_TOOL_LIST_PAGES &&
      tools.length < MAX_UPSTREAM_TOOLS
    );
    if (cursor !== undefined || tools.length > MAX_UPSTREAM_TOOLS) {
      this.logger.warn({
        msg: 'upstream tool list cut',
        server_id: this.record.server_id,
        max_tools: MAX_UPSTREAM_TOOLS,
        max_pages: MAX_TOOL_LIST_PAGES,
      });
    }
    return tools.slice(0, MAX_UPSTREAM_TOOLS);
  }

  /**
   * Closes our client (the SDK ends a stdio child's stdin, then SIGTERMs it, then
   * SIGKILLs it), then kills what is left of the child's process group.
   */
  private async disconnect(
    client: Client | undefined,
    transport: Transport | undefined,
  ): Promise<void> {
    if (this.client === client) this.client = undefined;
    if (transport === this.transport) this.transport = undefined;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client?.close().catch(() => undefined);
    if (transport instanceof OwnedStdioClientTransport) await this.reapChild(transport);
  }

  /** Waits (bounded) until the child and its group are gone, then gives its slot back; once per transport. */
  private async reapChild(transport: OwnedStdioClientTransport): Promise<void> {
    if (this.reaped.has(transport)) return;
    this.reaped.add(transport);
    const pid = transport.spawnedPid;
    const gone =
      pid === undefined ||
      (transport.ownsProcessGroup
        ? await killProcessGroup(pid, CHILD_EXIT_WAIT_MS)
        : await waitForProcessExit(pid, CHILD_EXIT_WAIT_MS));
    if (!gone) {
      this.logger.warn({
        msg: 'upstream child still running after close',
        server_id: this.record.server_id,
        pid,
      });
    }
    this.children.release();
  }
}

/** A bounded label for a call's outcome: the seed's error code, or `cancelled` for the caller's own abort. */
function callOutcome(error: unknown): string {
  if (error instanceof GatewayError && typeof error.data.code === 'string') return error.data.code;
  return 'cancelled';
}
