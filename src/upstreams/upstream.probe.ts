import { errorChain } from './error-chain';
import { PROBE_TIMEOUT_MS } from './upstream-connection.constants';
import { UpstreamConnection } from './upstream.connection';
import type { UpstreamRecord } from './upstream-record';
import { isToolExposed } from './upstream-tool.policy';

/** How many tool names a probe reports (an upstream may list thousands). */
export const PROBE_MAX_TOOL_NAMES = 200;

export interface ProbeResult {
  ok: boolean;
  server_id: string;
  duration_ms: number;
  error?: string;
  /** Every tool the upstream lists. */
  tools?: number;
  /** Of those, the ones the record's allowed_tools / denied_tools expose. */
  allowed?: number;
  /** The first PROBE_MAX_TOOL_NAMES names, each with whether the record exposes it. */
  tool_names?: Array<{ name: string; exposed: boolean }>;
}

/**
 * Connects to an upstream the way the gateway would, on a throwaway
 * connection, lists its tools and closes again (stopping a stdio child):
 * nothing is kept. Bounded by `timeoutMs` whatever the upstream does.
 */
export async function probeUpstream(
  record: UpstreamRecord,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeResult> {
  const started = Date.now();
  const connection = new UpstreamConnection(record);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs} ms (the probe's limit)`)),
      timeoutMs,
    );
  });
  try {
    const tools = await Promise.race([connection.listTools(), deadline]);
    const names = tools.map((tool) => ({
      name: tool.name,
      exposed: isToolExposed(record, tool.name),
    }));
    return {
      ok: true,
      server_id: record.server_id,
      duration_ms: Date.now() - started,
      tools: tools.length,
      allowed: names.filter((tool) => tool.exposed).length,
      tool_names: names.slice(0, PROBE_MAX_TOOL_NAMES),
    };
  } catch (error) {
    return {
      ok: false,
      server_id: record.server_id,
      duration_ms: Date.now() - started,
      error: errorChain(error).slice(0, 2048),
    };
  } finally {
    clearTimeout(timer);
    await connection.close();
  }
}
