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
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { waitForProcessExit } from './process-exit.wait';
import { upstreamBusy, upstreamCallError, upstreamUnavailable } from './upstream-call.errors';
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
import { failureOf, isHealthFailure, UpstreamConnectionStatus } from './upstream-connection.status';

/** What a caller may pass along with an upstream tool call. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  onprogress?: RequestOptions['onprogress'];
}

/**
 * One SDK `Client` for one upstream record: connects on first use, enforces the
 * record's budgets on every call (timeout, concurrency, output size) and maps
 * failures to gateway errors. Reconnects lazily after the upstream goes away.
 */
export class UpstreamConnection {
  private readonly logger: Logger;
  private readonly semaphore: UpstreamCallSemaphore;
  private client?: Client;
  private transport?: Transport;
  private connecting?: Promise<Client>;
  private closed = false;
  private lastError?: UpstreamConnectionStatus['lastError'];
  private since = new Date().toISOString();
  private lastSuccessAt?: string;

  constructor(readonly record: UpstreamRecord) {
    this.logger = new Logger(`Upstream ${record.server_id}`);
    this.semaphore = new UpstreamCallSemaphore(record.budgets.max_concurrency);
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** For the admin API: connected or not since when, and the last failure to reach the upstream. */
  status(): UpstreamConnectionStatus {
    return {
      connected: this.connected,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      since: this.since,
      ...(this.lastSuccessAt ? { lastSuccessAt: this.lastSuccessAt } : {}),
    };
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

  /** Every tool the upstream lists, all pages, at most MAX_UPSTREAM_TOOLS. */
  async listTools(): Promise<Tool[]> {
    try {
      const tools = await this.withSession((client) => this.listAllPages(client));
      this.lastSuccessAt = new Date().toISOString();
      return tools;
    } catch (error) {
      throw this.noted(upstreamCallError(this.record.server_id, 'tools/list', error));
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
      throw this.noted(
        upstreamBusy(this.record.server_id, this.semaphore.max, Date.now() - queuedAt),
      );
    }
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
      this.lastSuccessAt = new Date().toISOString();
      return truncateToolOutput(result as CallToolResult, max_tool_output_bytes);
    } catch (error) {
      throw this.noted(upstreamCallError(this.record.server_id, name, error, options.signal));
    } finally {
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
    const client = new Client({ name: 'owlclaw-gateway', version: GATEWAY_VERSION });
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.since = new Date().toISOString();
    };
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await this.disconnect(client);
      throw this.noted(upstreamUnavailable(this.record.server_id, error));
    }
    this.client = client;
    this.lastError = undefined;
    this.since = new Date().toISOString();
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

  /** Remembers a failure that says the upstream is unwell, for status(); returns it to be thrown. */
  private noted(error: unknown): unknown {
    if (isHealthFailure(error)) this.lastError = failureOf(error);
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
