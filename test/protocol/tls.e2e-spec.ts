/**
 * Optional TLS (seed Requirement 3.10): with http.tls.enabled and a
 * certificate and key on disk, the gateway speaks HTTPS only.
 */
import { NestExpressApplication } from '@nestjs/platform-express';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, request } from 'node:https';
import { request as plainRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { loadGatewayConfig } from '../../src/config/config.loader';
import { REPO_ROOT } from '../support/stdio-process';
import { GENEROUS_QUOTA, tempLedgerPath } from '../support/test-defaults';

function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

function postJson(
  port: number,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        rejectUnauthorized: false,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('TLS', () => {
  let dir: string;
  let app: NestExpressApplication;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-tls-'));
    const { cert, key } = selfSignedCertificate(dir);
    const config = loadGatewayConfig({
      cwd: REPO_ROOT,
      env: {},
      overrides: {
        transport: 'http',
        http: {
          host: '127.0.0.1',
          port: 0,
          tls: { enabled: true, cert_file: cert, key_file: key },
        },
        ledger: { sqlite_path: tempLedgerPath() },
        governance: { default_quota: GENEROUS_QUOTA },
      },
    });
    app = await createHttpGateway({ config, logger: false });
    port = (await listenHttpGateway(app, config)).port;
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves MCP over HTTPS with the configured certificate', async () => {
    const answer = await postJson(port, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'tls', version: '1' },
      },
    });
    expect(answer.status).toBe(200);
    expect((answer.body.result as Record<string, unknown>).protocolVersion).toBe('2025-11-25');
  });

  it('presents the certificate from cert_file', async () => {
    const subject = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/health', rejectUnauthorized: false }, (res) => {
        const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        res.resume();
        resolve(String(peer.subject.CN));
      }).on('error', reject);
    });
    expect(subject).toBe('127.0.0.1');
  });

  it('does not answer plain HTTP on the TLS port', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = plainRequest(
        { host: '127.0.0.1', port, path: '/health', timeout: 3000 },
        (res) => {
          res.resume();
          resolve(`status ${res.statusCode}`);
        },
      );
      req.on('error', () => resolve('refused'));
      req.on('timeout', () => {
        req.destroy();
        resolve('refused');
      });
      req.end();
    });
    // Node's TLS server answers a plain request with a 400 or drops it; never with the health body.
    expect(outcome === 'refused' || outcome === 'status 400').toBe(true);
  });
});
