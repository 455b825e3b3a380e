import { Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { LIST_CHANGED_NOTIFICATIONS, UpstreamListKind } from './upstream-list-changed';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { waitForProcessExit } from './process-exit.wait';
import { upstreamBusy, upstreamCallError, upstreamUnavailable } from './upstream-call.errors';
import { RELAYED_CLIENT_CAPABILITIES, relayClientRequests } from './upstream-client-requests.relay';
import { callAbandoned, RelayCaller, UpstreamRelayCalls } from './upstream-relay.calls';
import { UpstreamCallSemaphore } from './upstream-call.semaphore';
import {
  CHILD_EXIT_WAIT_MS,
  CONNECT_TIMEOUT_MS,
  MAX_TOOL_LIST_PAGES,
  MAX_TOTAL_TIMEOUT_MS,
  MAX_UPSTREAM_TOOLS,
  TOTAL_TIMEOUT_FACTOR,
} from './upstream-connection.constants';
import { truncateToolOutput } from './upstream-output.truncator';
import type { UpstreamRecord } from './upstream-record';
import { createUpstreamTransport } from './upstream-transport.factory';

/** What a caller may pass along with an upstream tool call. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  onprogress?: RequestOptions['onprogress'];
  /** The client the call is made for: the upstream's sampling and elicitation requests go to it. */
  caller?: RelayCaller;
}

/**
 * One SDK `Client` for one upstream record: connects on first use, enforces the
 * record's budgets on every call (timeout, concurrency, output size) and maps
 * failures to gateway errors. Reconnects lazily after the upstream goes away.
 */
export class UpstreamConnection {
  private readonly logger: Logger;
  private readonly semaphore: UpstreamCallSemaphore;
  private readonly relayCalls = new UpstreamRelayCalls();
  private client?: Client;
  private transport?: Transport;
  private connecting?: Promise<Client>;
  private closed = false;
  private readonly listChangedListeners = new Set<(kind: UpstreamListKind) => void>();

  constructor(readonly record: UpstreamRecord) {
    this.logger = new Logger(`Upstream ${record.server_id}`);
    this.semaphore = new UpstreamCallSemaphore(record.budgets.max_concurrency);
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** The stdio child's pid while one runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport
      ? (this.transport.pid ?? undefined)
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
  async request<T>(
    operation: string,
    send: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const options = { timeout: this.record.budgets.tool_timeout_ms, signal };
    try {
      return await this.withSession((client) => send(client, options));
    } catch (error) {
      throw upstreamCallError(this.record.server_id, operation, error, signal);
    }
  }

  /** Every tool the upstream lists, all pages, at most MAX_UPSTREAM_TOOLS. */
  async listTools(): Promise<Tool[]> {
    try {
      return await this.withSession((client) => this.listAllPages(client));
    } catch (error) {
      throw upstreamCallError(this.record.server_id, 'tools/list', error);
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions = {},
  ): Promise<CallToolResult> {
    const { tool_timeout_ms: timeout, max_tool_output_bytes } = this.record.budgets;
    const queuedAt = Date.now();
    const release = await this.semaphore.acquire(timeout, options.signal);
    if (!release) {
      throw upstreamBusy(this.record.server_id, this.semaphore.max, Date.now() - queuedAt);
    }
    const end = this.relayCalls.begin(options.caller);
    let abandoned = false;
    try {
      const result = await this.withSession((client) =>
        client.callTool({ name, arguments: args }, undefined, {
          timeout,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: Math.min(timeout * TOTAL_TIMEOUT_FACTOR, MAX_TOTAL_TIMEOUT_MS),
          signal: options.signal,
          onprogress: options.onprogress,
        }),
      );
      return truncateToolOutput(result as CallToolResult, max_tool_output_bytes);
    } catch (error) {
      abandoned = callAbandoned(error, options.signal);
      throw upstreamCallError(this.record.server_id, name, error, options.signal);
    } finally {
      end(abandoned);
      release();
    }
  }

  /** Closes the client (the SDK ends a stdio child's stdin, then SIGTERM, then SIGKILL) and waits for the child to be gone. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    await this.disconnect(client);
  }

  private ready(): Promise<Client> {
    if (this.closed) {
      return Promise.reject(
        upstreamUnavailable(this.record.server_id, new Error('connection closed')),
      );
    }
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const transport = createUpstreamTransport(this.record, (line) =>
      this.logger.debug({ msg: 'upstream stderr', server_id: this.record.server_id, line }),
    );
    const client = new Client(
      { name: 'owlclaw-gateway', version: GATEWAY_VERSION },
      { capabilities: RELAYED_CLIENT_CAPABILITIES },
    );
    relayClientRequests(client, this.relayCalls, this.record.server_id);
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    for (const [kind, schema] of LIST_CHANGED_NOTIFICATIONS) {
      client.setNotificationHandler(schema, () => {
        for (const listener of this.listChangedListeners) listener(kind);
      });
    }
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await this.disconnect(client);
      throw upstreamUnavailable(this.record.server_id, error);
    }
    this.client = client;
    this.logger.log({ msg: 'upstream connected', server_id: this.record.server_id, pid: this.pid });
    return client;
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
      await this.disconnect(client);
      return request(await this.ready());
    }
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

  private async disconnect(client: Client | undefined): Promise<void> {
    const transport = this.transport;
    const pid = this.pid;
    if (this.client === client) this.client = undefined;
    if (transport === this.transport) this.transport = undefined;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client?.close().catch(() => undefined);
    if (pid !== undefined && !(await waitForProcessExit(pid, CHILD_EXIT_WAIT_MS))) {
      this.logger.warn({
        msg: 'upstream child still running after close',
        server_id: this.record.server_id,
        pid,
      });
    }
  }
}
