/**
 * Baseline (e): plain node:http, the floor under any framework. POST /mcp
 * reads the body, JSON.parse, answers exactly as the bare Nest controller (c)
 * does (same bytes: shared/canned-answer), JSON.stringify. Nothing else.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { cannedAnswer, readCannedResults, RpcRequest } from '../shared/canned-answer';
import { announceListening, exitOnSignals } from '../shared/listening';

const canned = readCannedResults();

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST' || req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let request: RpcRequest;
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest;
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error' },
        }),
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(cannedAnswer(request, canned)));
  });
}

const server = createServer(handle);
server.listen(0, '127.0.0.1', () => announceListening((server.address() as AddressInfo).port));
exitOnSignals();
