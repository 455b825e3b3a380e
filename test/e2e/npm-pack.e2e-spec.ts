/**
 * The package as a user gets it: `npm pack`, installed into an empty folder, a capability
 * module of that folder's own compiled against the installed types, and the gateway started
 * with `npx owlclaw mcp-server start --transport stdio` serving the demo pack and that module
 * to the official SDK client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installOffline, packGateway } from '../support/offline-install';
import { REPO_ROOT } from '../support/stdio-process';

const INSTALL_TIMEOUT_MS = 300_000;

const CAPABILITY_SOURCE = `
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Capability, Description, Handler, HandlerContext, text, toolResult } from 'owlclaw-mcp-gateway';

class ShoutDto {
  @Description('What to shout')
  @IsString()
  words!: string;
}

@Injectable()
@Capability()
export class ShoutCapability {
  @Handler({ name: 'shout_echo', description: 'Echoes the words in capitals.' })
  shout(input: ShoutDto, ctx: HandlerContext) {
    return toolResult([text(\`\${input.words.toUpperCase()} (for \${ctx.clientId})\`)]);
  }
}

@Module({ providers: [ShoutCapability] })
export class ShoutModule {}
`;

/** The README's "Writing a capability module" example, which must compile as printed. */
function readmeCapabilityExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Writing a capability module'));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!example)
    throw new Error('README.md has no TypeScript example under "Writing a capability module"');
  return example;
}

const CAPABILITY_TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    skipLibCheck: true,
    // A Node project brings its own @types/node; this folder borrows the repository's.
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
    types: ['node'],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src/**/*.ts'],
};

/** tsc from the repository, as the capability package's own would run; its errors go to stdout. */
function compile(dir: string): void {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  } catch (err) {
    throw new Error(`tsc failed:\n${String((err as { stdout?: string }).stdout)}`);
  }
}

describe('npm pack: the installed package', () => {
  let work: string;
  let app: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'owlclaw-pack-'));
    app = join(work, 'app');
    installOffline(packGateway(work), app);

    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'src', 'shout.module.ts'), CAPABILITY_SOURCE);
    writeFileSync(join(app, 'src', 'invoices.module.ts'), readmeCapabilityExample());
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(CAPABILITY_TSCONFIG, null, 2));
    compile(app);
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs the entry point, its types and the demo content; capability modules compile', () => {
    const installed = join(app, 'node_modules', 'owlclaw-mcp-gateway');
    expect(existsSync(join(installed, 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'cli', 'main.js'))).toBe(true);
    expect(readdirSync(join(installed, 'capabilities')).sort()).toEqual(['inventory', 'orders']);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
    expect(existsSync(join(app, 'dist', 'shout.module.js'))).toBe(true);
    expect(existsSync(join(app, 'dist', 'invoices.module.js'))).toBe(true);
  });

  it('npx owlclaw mcp-server start --transport stdio serves the demo pack and the module', async () => {
    const home = join(work, 'home');
    // With no config file the stdio ledger goes to the user's data directory.
    const ledger = join(home, '.local', 'share', 'owlclaw', 'ledger.db');
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no', 'owlclaw', 'mcp-server', 'start', '--transport', 'stdio'],
      cwd: app,
      stderr: 'pipe',
      env: {
        HOME: home,
        XDG_DATA_HOME: join(home, '.local', 'share'),
        MCP_CLIENT_ID: 'packed-test',
        // No skills directory named: the demo skills come from the installed package.
        MCP_SERVER_CAPABILITIES_MODULES: join(app, 'dist', 'shout.module.js'),
      },
    });
    const appEntriesBefore = readdirSync(app).sort();
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'npm-pack-e2e', version: '1.0.0' });
    try {
      await client.connect(transport);

      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(
        expect.arrayContaining(['orders_place', 'orders_get', 'inventory_search', 'shout_echo']),
      );
      const resources = (await client.listResources()).resources.map((r) => r.uri);
      expect(resources).toEqual(
        expect.arrayContaining(['skill://orders/place-order', 'skill://inventory/stock-check']),
      );

      const search = await client.callTool({
        name: 'inventory_search',
        arguments: { query: 'tent' },
      });
      expect(search.isError).toBeFalsy();
      expect(JSON.stringify(search.content)).toMatch(/tent/i);

      const shout = await client.callTool({ name: 'shout_echo', arguments: { words: 'hello' } });
      expect(shout.content).toEqual([{ type: 'text', text: 'HELLO (for packed-test)' }]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\ngateway stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
    expect(existsSync(ledger)).toBe(true);
    expect(readdirSync(app).sort()).toEqual(appEntriesBefore);
  });
});
