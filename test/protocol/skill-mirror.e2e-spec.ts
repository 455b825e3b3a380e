import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

/**
 * The plain HTTP mirror of SKILL.md files (GET /resources/skill/:category/:name),
 * with supertest against the real HTTP gateway: cache validators, conditional
 * and range requests, errors, and the metrics every mirror read leaves behind.
 */

const GUIDE = skillMarkdown(
  { name: 'guide', description: 'Mirrored over plain HTTP', tags: ['docs'] },
  '# Guide 🦉\n\n日本語のテキスト and CRLF:\r\nend\n',
);

/** Collects the body as raw bytes (superagent would decode text/* into a string). */
function rawBody(res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (err: Error) => done(err, Buffer.alloc(0)));
}

/** Sum of mcp_requests_total samples for resources/read, by outcome. */
function readCounters(metrics: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of metrics.split('\n')) {
    const match = /^mcp_requests_total\{([^}]*)\} (\d+(?:\.\d+)?)$/.exec(line);
    if (!match || !match[1].includes('method="resources/read"')) continue;
    const outcome = /outcome="([^"]*)"/.exec(match[1])?.[1] ?? '';
    counts[outcome] = (counts[outcome] ?? 0) + Number(match[2]);
  }
  return counts;
}

describe('HTTP skill mirror', () => {
  let skillsDir: string;
  let gateway: HttpGatewayHandle;
  let disk: Buffer;
  let path: string;

  const get = (url: string) =>
    request(gateway.baseUrl)
      .get(url)
      .buffer(true)
      .parse(rawBody as never);

  beforeAll(async () => {
    skillsDir = makeTempDir('skill-mirror');
    writeSkill(skillsDir, 'docs', 'guide', { 'SKILL.md': GUIDE });
    path = join(skillsDir, 'docs', 'guide', 'SKILL.md');
    disk = readFileSync(path);
    gateway = await startHttpGateway({ config: { resources: { skills_dir: skillsDir } } });
  });

  afterAll(async () => {
    await gateway?.close();
    removeDir(skillsDir);
  });

  test('200 with ETag, Last-Modified and the exact bytes of SKILL.md', async () => {
    const res = await get('/resources/skill/docs/guide');
    expect(res.status).toBe(200);
    const body = res.body as Buffer;
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(body.equals(disk)).toBe(true);
    const hex = createHash('sha256').update(disk).digest('hex');
    expect(res.headers.etag).toBe(`"${hex.slice(0, 32)}"`);
    expect(res.headers['last-modified']).toBe(new Date(statSync(path).mtimeMs).toUTCString());
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(disk.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
  });

  test('If-None-Match with the ETag is 304 with an empty body; another ETag is 200', async () => {
    const first = await get('/resources/skill/docs/guide');
    const etag = first.headers.etag;

    const again = await get('/resources/skill/docs/guide').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect((again.body as Buffer).length).toBe(0);
    expect(again.headers.etag).toBe(etag);

    const other = await get('/resources/skill/docs/guide').set(
      'If-None-Match',
      '"00000000000000000000000000000000"',
    );
    expect(other.status).toBe(200);
    expect((other.body as Buffer).equals(disk)).toBe(true);
  });

  test('Range: bytes=0-9 is 206 with Content-Range and exactly those 10 bytes', async () => {
    const res = await get('/resources/skill/docs/guide').set('Range', 'bytes=0-9');
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-9/${disk.length}`);
    const body = res.body as Buffer;
    expect(body.length).toBe(10);
    expect(body.equals(disk.subarray(0, 10))).toBe(true);
  });

  test('a range that cuts a multi-byte character still returns the exact bytes', async () => {
    const owl = disk.indexOf(Buffer.from('🦉', 'utf8'));
    const res = await get('/resources/skill/docs/guide').set(
      'Range',
      `bytes=${owl + 1}-${owl + 2}`,
    );
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${owl + 1}-${owl + 2}/${disk.length}`);
    expect((res.body as Buffer).equals(disk.subarray(owl + 1, owl + 3))).toBe(true);
    const suffix = await get('/resources/skill/docs/guide').set('Range', 'bytes=-5');
    expect(suffix.status).toBe(206);
    expect((suffix.body as Buffer).equals(disk.subarray(disk.length - 5))).toBe(true);
  });

  test('an unsatisfiable range is 416 with Content-Range bytes */size', async () => {
    const res = await get('/resources/skill/docs/guide').set('Range', `bytes=${disk.length}-`);
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${disk.length}`);
    expect((res.body as Buffer).length).toBe(0);
  });

  test('an unknown skill is 404 with a JSON-RPC error body; a malformed name is 400', async () => {
    const res = await request(gateway.baseUrl).get('/resources/skill/docs/no-such-skill');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32002, data: { http_status: 404 } },
    });
    expect((res.body as { error: { message: string } }).error.message).toContain(
      'skill://docs/no-such-skill',
    );
    const unknownCategory = await request(gateway.baseUrl).get('/resources/skill/nope/guide');
    expect(unknownCategory.status).toBe(404);
    const malformed = await request(gateway.baseUrl).get('/resources/skill/docs/..');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: { code: -32602 } });
  });

  test('each mirror read shows up in /metrics as mcp_requests_total{method="resources/read"}', async () => {
    const before = readCounters((await request(gateway.baseUrl).get('/metrics')).text);

    expect((await get('/resources/skill/docs/guide')).status).toBe(200);
    expect((await get('/resources/skill/docs/guide').set('Range', 'bytes=0-9')).status).toBe(206);
    expect((await get('/resources/skill/docs/no-such-skill')).status).toBe(404);

    const metrics = await request(gateway.baseUrl).get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^mcp_requests_total\{[^}]*method="resources\/read"[^}]*\} \d+/m);
    const after = readCounters(metrics.text);
    expect((after.success ?? 0) - (before.success ?? 0)).toBe(2);
    expect((after.not_found ?? 0) - (before.not_found ?? 0)).toBe(1);
  });
});
