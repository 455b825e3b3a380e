import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { EverythingHttpServer } from '../support/everything-http';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';
import { EVERYTHING_ENTRY_PATH } from '../support/upstream-records';

/**
 * The relay with a real server from npm: server-everything offers its
 * trigger-sampling-request and trigger-elicitation-request tools only to a
 * client that declares sampling and elicitation (the gateway now does), and
 * their requests reach the calling client whether the upstream runs over
 * stdio or over Streamable HTTP (where they arrive on the call's SSE stream).
 */

let dir: string;
let http: EverythingHttpServer;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-relay-everything-'));
  http = await EverythingHttpServer.start();
  const allowed = ['trigger-sampling-request', 'trigger-elicitation-request'];
  writeFileSync(
    join(dir, 'stdio.json'),
    JSON.stringify({
      version: 1,
      server_id: 'every',
      transport: 'stdio',
      stdio: { command: process.execPath, args: [EVERYTHING_ENTRY_PATH, 'stdio'], cwd: REPO_ROOT },
      allowed_tools: allowed,
    }),
  );
  writeFileSync(
    join(dir, 'http.json'),
    JSON.stringify({
      version: 1,
      server_id: 'every_http',
      transport: 'streamable_http',
      http: { url: http.url },
      allowed_tools: allowed,
    }),
  );
  gateway = await startHttpGateway({ config: { upstreams: { registry_dir: dir } } });
  await gateway.app.get(UpstreamToolsPublisher).settled();
}, 120_000);

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

afterAll(async () => {
  await gateway?.close();
  await http?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function clientWithBoth(clientId: string): Promise<{ client: Client; prompts: string[] }> {
  const handle = await connectSdkClient({
    kind: 'streamable-http',
    baseUrl: gateway.baseUrl,
    headers: { 'X-MCP-Client-ID': clientId },
    capabilities: { sampling: {}, elicitation: {} },
  });
  handles.push(handle);
  const prompts: string[] = [];
  handle.client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const content = request.params.messages[0]?.content;
    prompts.push(content && 'text' in content ? String(content.text) : '');
    return {
      role: 'assistant',
      content: { type: 'text', text: 'the answer is 42' },
      model: 'relay-test',
    };
  });
  handle.client.setRequestHandler(ElicitRequestSchema, (request) => {
    prompts.push(request.params.message);
    return { action: 'decline' };
  });
  return { client: handle.client, prompts };
}

function text(result: unknown): string {
  return (result as CallToolResult).content
    .map((item) => (item.type === 'text' ? item.text : ''))
    .join('\n');
}

describe.each(['every', 'every_http'])('server-everything (%s) through the gateway', (server) => {
  it('relays its sampling request to the calling client and returns the answer', async () => {
    const { client, prompts } = await clientWithBoth(`sampling-${server}`);
    const result = await client.callTool({
      name: `${server}__trigger-sampling-request`,
      arguments: { prompt: 'six times seven', maxTokens: 10 },
    });
    expect(text(result)).toContain('the answer is 42');
    expect(text(result)).toContain('relay-test');
    expect(prompts).toEqual([expect.stringContaining('six times seven')]);
  });

  it('relays its elicitation request and returns the decline', async () => {
    const { client, prompts } = await clientWithBoth(`elicit-${server}`);
    const result = await client.callTool({
      name: `${server}__trigger-elicitation-request`,
      arguments: {},
    });
    expect(text(result).toLowerCase()).toContain('decline');
    expect(prompts).toEqual([expect.stringContaining('Please provide inputs')]);
  });
});
