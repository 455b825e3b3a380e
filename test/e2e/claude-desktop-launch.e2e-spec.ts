import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/stdio-process';

/**
 * The gateway as Claude Desktop starts it: the README's `mcpServers` entry,
 * an unrelated working directory and a user whose data directory is elsewhere.
 * It must serve the bundled demo skills and write nothing where it was started.
 */

interface McpServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The README's Claude Desktop snippet with its placeholder pointed at this checkout. */
function readmeServerEntry(): McpServerEntry {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Claude Desktop'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('README.md has no Claude Desktop JSON snippet');
  const text = block[1].replaceAll('/absolute/path/to/owlclaw-mcp-gateway', REPO_ROOT);
  const config = JSON.parse(text) as { mcpServers: Record<string, McpServerEntry> };
  return config.mcpServers.owlclaw;
}

describe('stdio gateway launched as Claude Desktop launches it', () => {
  let cwd: string;
  let home: string;

  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'owlclaw-launch-cwd-'));
    home = mkdtempSync(join(tmpdir(), 'owlclaw-launch-home-'));
  });

  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('serves the demo skills from an unrelated directory and writes nothing there', async () => {
    const entry = readmeServerEntry();
    expect(entry.command).toBe('node');
    const dataHome = join(home, '.local', 'share');
    const transport = new StdioClientTransport({
      // The README says "node"; the test runs the same binary as itself.
      command: process.execPath,
      args: entry.args,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: dataHome, ...entry.env },
      cwd,
      stderr: 'pipe',
    });
    // Drained so a chatty log cannot fill the pipe and stall the child.
    (transport.stderr as NodeJS.ReadableStream | null)?.resume();
    const client = new Client({ name: 'claude-desktop-launch', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { resources } = await client.listResources();
      const uris = resources.map((resource) => resource.uri);
      for (const skill of ['orders/place-order', 'orders/returns', 'inventory/stock-check']) {
        expect(
          uris.filter((uri) => uri === `skill://${skill}` || uri.startsWith(`skill://${skill}/`)),
        ).not.toEqual([]);
      }
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['inventory_check_stock']),
      );
    } finally {
      await client.close();
    }

    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(dataHome, 'owlclaw', 'ledger.db'))).toBe(true);
  });
});
