import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The SDK's stdio transport, remembering the pid it spawned: the SDK forgets
 * it as soon as the child's pipes close, which is exactly when the gateway
 * still has to kill the rest of the child's process group.
 */
export class OwnedStdioClientTransport extends StdioClientTransport {
  private spawned?: number;

  constructor(
    params: StdioServerParameters,
    /** The pid leads its own process group (see child-launch.wrapper.ts). */
    readonly ownsProcessGroup: boolean,
  ) {
    super(params);
  }

  /** The pid of the child this transport started, kept after it exited. */
  get spawnedPid(): number | undefined {
    return this.spawned;
  }

  override async start(): Promise<void> {
    await super.start();
    this.spawned = this.pid ?? undefined;
  }
}
