import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { wrapChildLaunch } from './child-launch.wrapper';
import { OwnedStdioClientTransport } from './owned-stdio.transport';
import { upstreamOAuthProvider } from './upstream-oauth.provider';
import type { UpstreamRecord } from './upstream-record';
import { forwardStderrLines } from './upstream-stderr.lines';
import { tracedFetch } from './traced-upstream.fetch';

/**
 * Builds the SDK client transport a record names. A stdio child gets the SDK's
 * minimal base environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the
 * record's own `env`, never the gateway's whole environment, which holds its secrets.
 * It runs under the ownership wrapper (child-launch.wrapper.ts): its own process
 * group, and the parent-death signal so it cannot outlive the gateway. An HTTP
 * upstream gets its record's headers and credentials only, never a client's,
 * plus the `traceparent` of the gateway request each message serves.
 */
export function createUpstreamTransport(
  record: UpstreamRecord,
  logStderr: (line: string) => void,
  traceparent?: () => string | undefined,
): Transport {
  if (record.transport === 'stdio') {
    const launch = required(record.stdio, record, 'stdio');
    const owned = wrapChildLaunch(launch.command, launch.args);
    const transport = new OwnedStdioClientTransport(
      {
        command: owned.command,
        args: owned.args,
        env: launch.env,
        cwd: launch.cwd,
        stderr: 'pipe',
      },
      owned.ownsProcessGroup,
    );
    if (transport.stderr) forwardStderrLines(transport.stderr, logStderr);
    return transport;
  }
  const endpoint = required(record.http, record, 'http');
  const headers: Record<string, string> = { ...endpoint.headers };
  if (endpoint.auth_secret) headers.Authorization = `Bearer ${endpoint.auth_secret}`;
  const url = new URL(endpoint.url);
  const options = {
    requestInit: { headers },
    ...(endpoint.oauth ? { authProvider: upstreamOAuthProvider(endpoint.oauth) } : {}),
    ...(traceparent ? { fetch: tracedFetch(url, traceparent) } : {}),
  };
  if (record.transport === 'streamable_http') {
    return new StreamableHTTPClientTransport(url, options);
  }
  // The SDK sends requestInit's headers, and the provider's token, on the legacy GET stream as
  // well as on the POSTs.
  return new SSEClientTransport(url, options);
}

function required<T>(block: T | undefined, record: UpstreamRecord, key: string): T {
  if (!block) throw new Error(`upstream ${record.server_id} has no ${key} block`);
  return block;
}
