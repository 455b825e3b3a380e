import { Agent } from 'node:http';
import { openSession } from './mcp-fetch';
import { httpRequest, RawAnswer } from '../robustness/support/limits-client';

/**
 * POSTs raw JSON-RPC bodies on one Streamable HTTP session over kept-alive
 * connections, so a suite sends its large frames the way a client would.
 */
export class SessionPoster {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });

  private constructor(
    private readonly baseUrl: string,
    private readonly sessionId: string,
    private readonly protocolVersion: string,
  ) {}

  /** Opens a session (initialize + notifications/initialized) negotiating `protocolVersion`. */
  static async open(baseUrl: string, protocolVersion: string): Promise<SessionPoster> {
    return new SessionPoster(baseUrl, await openSession(baseUrl, protocolVersion), protocolVersion);
  }

  post(body: string): Promise<RawAnswer> {
    return httpRequest(`${this.baseUrl}/mcp`, {
      method: 'POST',
      agent: this.agent,
      body,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': this.sessionId,
        'mcp-protocol-version': this.protocolVersion,
      },
    });
  }

  /** Frees the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
