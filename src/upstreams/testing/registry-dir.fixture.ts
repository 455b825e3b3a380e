import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A scratch registry directory with real files, removed by `remove()`. */
export class RegistryDirFixture {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'owlclaw-registry-'));
  readonly dir = path.join(this.root, 'mcp.d');

  constructor() {
    fs.mkdirSync(this.dir);
  }

  /** Writes `name` in the registry directory (or below it, for a nested name). */
  write(name: string, text: string): string {
    const file = path.join(this.dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  }

  /** Writes a file beside the registry directory, outside it. */
  writeOutside(name: string, text: string): string {
    const file = path.join(this.root, name);
    fs.writeFileSync(file, text);
    return file;
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** A minimal valid stdio record in YAML, with extra lines appended. */
export function stdioYaml(serverId: string, ...extra: string[]): string {
  return [
    'version: 1',
    `server_id: ${serverId}`,
    'transport: stdio',
    'stdio:',
    '  command: node',
    '  args: [server.js]',
    ...extra,
    '',
  ].join('\n');
}

/** A minimal valid Streamable HTTP record in YAML, with extra lines appended. */
export function httpYaml(serverId: string, ...extra: string[]): string {
  return [
    'version: 1',
    `server_id: ${serverId}`,
    'transport: streamable_http',
    'http:',
    '  url: https://mcp.example.com/mcp',
    ...extra,
    '',
  ].join('\n');
}
