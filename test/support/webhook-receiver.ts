import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export type Json = Record<string, unknown>;

/** How the receiver answers its n-th request (1-based): a status, or `hang` (never answers). */
export type WebhookAnswer = (n: number) => number | 'hang';

export interface WebhookRequest {
  body: Json;
  headers: IncomingMessage['headers'];
  /** The status it was answered with; undefined while it hangs. */
  status?: number;
}

/**
 * A real HTTP server standing in for an alert receiver (a chat relay, a pager
 * bridge): it keeps every request it got, answered or not, so tests count
 * attempts, retries and de-duplication.
 */
export class WebhookReceiver {
  readonly requests: WebhookRequest[] = [];
  private readonly held: ServerResponse[] = [];

  private constructor(private readonly server: Server) {}

  static async start(answer: WebhookAnswer = () => 200): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        const request: WebhookRequest = { body: JSON.parse(text) as Json, headers: req.headers };
        receiver.requests.push(request);
        const reply = answer(receiver.requests.length);
        if (reply === 'hang') {
          receiver.held.push(res);
          res.on('close', () => receiver.held.splice(receiver.held.indexOf(res), 1));
          return;
        }
        request.status = reply;
        res.writeHead(reply, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/alerts`;
  }

  /** Requests it holds without answering right now. */
  get hanging(): number {
    return this.held.length;
  }

  /** Notifications it accepted (a 2xx answer), oldest first. */
  delivered(filter: Partial<Record<'alert' | 'status', string>> = {}): Json[] {
    return this.requests
      .filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300)
      .map((r) => r.body)
      .filter((body) => Object.entries(filter).every(([key, value]) => body[key] === value));
  }

  /** Every request that carried the notification `id` (its first attempt and retries). */
  attempts(id: unknown): number {
    return this.requests.filter((r) => r.body.id === id).length;
  }

  async close(): Promise<void> {
    for (const res of [...this.held]) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
