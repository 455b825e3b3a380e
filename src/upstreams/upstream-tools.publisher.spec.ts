import { Logger } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { ToolRegistry } from '../tools/tool.registry';
import { upstreamRecord } from '../../test/support/upstream-records';
import type { UpstreamRecord } from './upstream-record';
import { APPROVAL_TIMEOUT_MS } from './upstream-relay.limits';
import type { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamToolsPublisher } from './upstream-tools.publisher';
import type { UpstreamPool } from './upstream.pool';

/** Tool lists per server; a server mapped to an Error fails its tools/list. */
type Listings = Record<string, Array<Partial<Tool> & { name: string }> | Error>;

function setup(records: UpstreamRecord[], listings: Listings) {
  const registry = { current: { servers: records } } as unknown as UpstreamRegistryService;
  const calls: Array<{ serverId: string; tool: string; args: unknown }> = [];
  const pool = {
    connection: (serverId: string) => ({
      record: records.find((candidate) => candidate.server_id === serverId),
      onListChanged: () => () => undefined,
      listTools: () => {
        const listed = listings[serverId];
        if (listed instanceof Error) return Promise.reject(listed);
        return Promise.resolve(
          listed.map((tool) => ({ inputSchema: { type: 'object' }, ...tool })),
        );
      },
      callTool: (tool: string, args: unknown) => {
        calls.push({ serverId, tool, args });
        return Promise.resolve({ content: [{ type: 'text', text: `${serverId}/${tool}` }] });
      },
    }),
  } as unknown as UpstreamPool;
  const tools = new ToolRegistry();
  const config = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  const publisher = new UpstreamToolsPublisher(registry, pool, tools, config);
  publishers.push(publisher);
  return { publisher, tools, calls };
}

/** Stopped after each test: a failed listing schedules a retry that would outlive it. */
const publishers: UpstreamToolsPublisher[] = [];

const record = (serverId: string, extra: Partial<UpstreamRecord> = {}): UpstreamRecord => ({
  ...upstreamRecord(serverId, { transport: 'stdio', stdio: undefined }),
  ...extra,
});

const names = (tools: ToolRegistry): string[] =>
  tools
    .list()
    .map((tool) => tool.name)
    .sort();

beforeEach(() => {
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
});

afterEach(() => {
  for (const publisher of publishers.splice(0)) publisher.onApplicationShutdown();
  jest.restoreAllMocks();
});

describe('UpstreamToolsPublisher', () => {
  it('registers allowed tools with the record cost, and leaves out a server that fails', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { publisher, tools } = setup(
      [
        record('alpha', {
          allowed_tools: ['*'],
          denied_tools: ['secret'],
          cost: { default: 1, tools: { search: 3 } },
        }),
        record('down'),
      ],
      {
        alpha: [{ name: 'search', description: 'Finds.' }, { name: 'fetch' }, { name: 'secret' }],
        down: new Error('spawn ENOENT'),
      },
    );
    await publisher.publishAll();

    expect(names(tools)).toEqual(['alpha__fetch', 'alpha__search']);
    const search = tools.get('alpha__search')!;
    expect(search.options).toMatchObject({ description: 'Finds.', estimatedCost: 3, maxCost: 3 });
    expect(tools.get('alpha__fetch')!.options.estimatedCost).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ server_id: 'down', error: 'spawn ENOENT' }),
    );
  });

  it('forwards a call with its arguments unchanged to the upstream tool', async () => {
    const { publisher, tools, calls } = setup([record('alpha')], { alpha: [{ name: 'search' }] });
    await publisher.publishAll();
    const tool = tools.get('alpha__search')!;
    const args = await tool.validate({ q: 'x', extra: [1] });
    const context = { signal: new AbortController().signal, progress: jest.fn() };
    const result = await tool.execute(args, context as never);

    expect(calls).toEqual([{ serverId: 'alpha', tool: 'search', args: { q: 'x', extra: [1] } }]);
    expect(result).toEqual({ content: [{ type: 'text', text: 'alpha/search' }] });
  });

  it('replaces a server’s tools when it is listed again', async () => {
    const listings: Listings = {
      alpha: [{ name: 'old' }, { name: 'kept' }],
      beta: [{ name: 'b' }],
    };
    const { publisher, tools } = setup([record('alpha'), record('beta')], listings);
    await publisher.publishAll();
    const beta = tools.get('beta__b');
    listings.alpha = [{ name: 'kept', description: 'new text' }, { name: 'new' }];
    await publisher.refresh('alpha');

    expect(names(tools)).toEqual(['alpha__kept', 'alpha__new', 'beta__b']);
    expect(tools.get('alpha__kept')!.options.description).toBe('new text');
    expect(tools.get('beta__b')).toBe(beta);
  });

  it('changes nothing (and tells no client) when a relisting finds the same tools', async () => {
    const { publisher, tools } = setup([record('alpha')], { alpha: [{ name: 'a' }] });
    await publisher.publishAll();
    const changes: number[] = [];
    tools.onChange((version) => changes.push(version));
    await publisher.refresh('alpha');

    expect(changes).toEqual([]);
    expect(names(tools)).toEqual(['alpha__a']);
    publisher.onApplicationShutdown();
  });

  it('takes a server whose relisting fails out, and back when it works again', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const listings: Listings = { alpha: [{ name: 'a' }] };
    const { publisher, tools } = setup([record('alpha')], listings);
    await publisher.publishAll();
    listings.alpha = new Error('gone');
    await publisher.refresh('alpha');
    expect(names(tools)).toEqual([]);
    listings.alpha = [{ name: 'a' }];
    await publisher.refresh('alpha');
    expect(names(tools)).toEqual(['alpha__a']);
    publisher.onApplicationShutdown();
  });

  it('never takes a local tool’s name', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { publisher, tools } = setup([record('alpha')], { alpha: [{ name: 'x' }] });
    const local = { name: 'alpha__x', origin: 'Local.x' };
    tools.register({ ...local, options: { name: local.name, description: '' } } as never);
    await publisher.publishAll();

    expect(tools.get('alpha__x')!.origin).toBe('Local.x');
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ server_id: 'alpha', tool: 'x' }));
  });
});

describe('UpstreamToolsPublisher and approval', () => {
  it('publishes a tool whose record asks for approval (approval is asked when it is called)', async () => {
    const approval = { default: 'never' as const, tools: { 'create_*': 'always' as const } };
    const { publisher, tools } = setup([record('alpha', { approval_policy: approval })], {
      alpha: [{ name: 'create_issue' }, { name: 'get_issue' }],
    });
    await publisher.publishAll();

    expect(names(tools)).toEqual(['alpha__create_issue', 'alpha__get_issue']);
    // Its deadline leaves room for the user's answer on top of the call's own.
    const needsApproval = tools.get('alpha__create_issue')!.options.timeoutSeconds!;
    const plain = tools.get('alpha__get_issue')!.options.timeoutSeconds!;
    expect(needsApproval - plain).toBe(APPROVAL_TIMEOUT_MS / 1000);
  });
});
