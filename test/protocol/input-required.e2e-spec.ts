import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { RequestStateCodec } from '../../src/json-rpc/mrtr/request-state.codec';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { readLedgerRows } from '../support/sqlite-ledger';

/**
 * MCP 2026-07-28 multi round-trip requests (#17): a handler that asks the
 * client (here fx_elicit, written for sessions and unchanged) ends its call
 * with an input-required result, and runs again on the retry that carries
 * the answer and the signed requestState. The SDK v2 client fulfils the
 * rounds itself; the attacks on requestState go out as raw requests.
 */
const MODERN = '2026-07-28';
const INPUT_RESPONSES_BYTES = 2048;
// The key every replica reads through mrtr.state_secret_ref; this test plays a second replica.
const SECRET_ENV = 'OWLCLAW_MRTR_E2E_SECRET';
const SECRET = 'replicas-share-this-secret';

interface LedgerRow {
  target: string;
  outcome: string;
  cost: number;
}

interface RpcBody {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

describe('MCP 2026-07-28 input-required results (MRTR)', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    process.env[SECRET_ENV] = SECRET;
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        limits: { input_responses_bytes: INPUT_RESPONSES_BYTES },
        mrtr: { state_secret_ref: `env:${SECRET_ENV}` },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    delete process.env[SECRET_ENV];
  });

  /** One modern tools/call as raw JSON-RPC, with its mirrored headers. */
  async function call(
    params: Record<string, unknown>,
    options: { clientId?: string; capabilities?: Record<string, unknown> } = {},
  ): Promise<{ status: number; body: RpcBody }> {
    const response = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': String(params.name),
        'x-mcp-client-id': options.clientId ?? 'raw-mrtr',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {
              elicitation: {},
            },
          },
        },
      }),
    });
    return { status: response.status, body: (await response.json()) as RpcBody };
  }

  /** Round 1 of fx_elicit: the key it asks under and the state to echo. */
  async function firstRound(message: string, clientId?: string) {
    const { body } = await call({ name: 'fx_elicit', arguments: { message } }, { clientId });
    expect(body.result).toMatchObject({ resultType: 'input_required' });
    const inputRequests = body.result!.inputRequests as Record<string, { method: string }>;
    const [key] = Object.keys(inputRequests);
    expect(inputRequests[key].method).toBe('elicitation/create');
    return { key, requestState: body.result!.requestState as string };
  }

  const accepted = { action: 'accept', content: { name: 'Ada' } };

  it('lets the SDK v2 client answer an elicitation through an input-required round trip', async () => {
    const client = new ClientV2(
      { name: 'mrtr-v2', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { name: 'Grace' } };
    });
    await client.connect(
      new HttpV2(new URL(`${gateway.baseUrl}/mcp`), {
        requestInit: { headers: { 'X-MCP-Client-ID': 'mrtr-v2' } },
      }),
    );
    try {
      const result = await client.callTool({
        name: 'fx_elicit',
        arguments: { message: 'Who are you?' },
      });
      expect(JSON.stringify(result.structuredContent ?? result.content)).toContain('Grace');
      expect(asked).toEqual(['Who are you?']);
    } finally {
      await client.close();
    }
    // Two requests, two rows: the interim round has its own outcome and is not charged.
    const rows = readLedgerRows<LedgerRow>(gateway.config.ledger.sqlite_path, 'mrtr-v2').filter(
      (row) => row.target === 'fx_elicit',
    );
    expect(rows.map((row) => row.outcome)).toEqual(['input_required', 'success']);
    expect(rows[0].cost).toBe(0);
  });

  it('completes a raw retry that echoes the state and answers the key it was asked', async () => {
    const { key, requestState } = await firstRound('Name?');
    const { body } = await call({
      name: 'fx_elicit',
      arguments: { message: 'Name?' },
      inputResponses: { [key]: accepted },
      requestState,
    });
    expect(body.result).toMatchObject({ resultType: 'complete' });
    expect(JSON.stringify(body.result)).toContain('Ada');
  });

  it('refuses a tampered requestState with -32602', async () => {
    const { key, requestState } = await firstRound('Name?');
    const [payload, mac] = requestState.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...claims, round: 0 })).toString('base64url');
    const { body } = await call({
      name: 'fx_elicit',
      arguments: { message: 'Name?' },
      inputResponses: { [key]: accepted },
      requestState: `${forged}.${mac}`,
    });
    expect(body.error).toMatchObject({ code: -32602, data: { reason: 'tampered' } });
  });

  it('refuses a requestState replayed by another client, or on another request', async () => {
    const { key, requestState } = await firstRound('Name?', 'owner-client');
    const replayed = await call(
      {
        name: 'fx_elicit',
        arguments: { message: 'Name?' },
        inputResponses: { [key]: accepted },
        requestState,
      },
      { clientId: 'thief-client' },
    );
    expect(replayed.body.error).toMatchObject({ code: -32602, data: { reason: 'other_client' } });
    const moved = await call(
      {
        name: 'fx_elicit',
        arguments: { message: 'Something else?' },
        inputResponses: { [key]: accepted },
        requestState,
      },
      { clientId: 'owner-client' },
    );
    expect(moved.body.error).toMatchObject({ code: -32602, data: { reason: 'other_request' } });
  });

  it('accepts a state another replica signed with the shared secret, and refuses it once expired', async () => {
    const { key, requestState } = await firstRound('Name?');
    const replica = new RequestStateCodec(Buffer.from(SECRET, 'utf8'));
    const claims = JSON.parse(
      Buffer.from(requestState.split('.')[0], 'base64url').toString('utf8'),
    ) as Parameters<RequestStateCodec['encode']>[0];
    const retry = (state: string) =>
      call({
        name: 'fx_elicit',
        arguments: { message: 'Name?' },
        inputResponses: { [key]: accepted },
        requestState: state,
      });
    const fresh = await retry(replica.encode({ ...claims, expiresAt: Date.now() + 60_000 }));
    expect(fresh.body.result).toMatchObject({ resultType: 'complete' });
    const expired = await retry(replica.encode({ ...claims, expiresAt: Date.now() - 1 }));
    expect(expired.body.error).toMatchObject({ code: -32602, data: { reason: 'expired' } });
  });

  it('refuses inputResponses over limits.input_responses_bytes, naming the limit', async () => {
    const { key } = await firstRound('Name?');
    const { body } = await call({
      name: 'fx_elicit',
      arguments: { message: 'Name?' },
      inputResponses: {
        [key]: { action: 'accept', content: { name: 'x'.repeat(INPUT_RESPONSES_BYTES) } },
      },
    });
    expect(body.error).toMatchObject({
      code: -32602,
      data: { limit: 'limits.input_responses_bytes', max: INPUT_RESPONSES_BYTES },
    });
  });

  it('refuses an answer that is not a result of the question, and inputResponses that is not an object', async () => {
    const { key } = await firstRound('Name?');
    const wrongShape = await call({
      name: 'fx_elicit',
      arguments: { message: 'Name?' },
      inputResponses: { [key]: 12345 },
    });
    expect(wrongShape.body.error).toMatchObject({ code: -32602 });
    const notObject = await call({
      name: 'fx_elicit',
      arguments: { message: 'Name?' },
      inputResponses: null,
    });
    expect(notObject.body.error).toMatchObject({ code: -32602 });
  });

  it('answers an ask the client did not declare with -32021 and HTTP 400', async () => {
    const { status, body } = await call(
      { name: 'fx_elicit', arguments: { message: 'Name?' } },
      { capabilities: {} },
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});
