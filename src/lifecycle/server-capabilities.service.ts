import { Injectable } from '@nestjs/common';

/**
 * The capabilities announced at initialize. Feature modules declare what they
 * actually implement at boot, so nothing is announced that is not served.
 */
@Injectable()
export class ServerCapabilities {
  private readonly capabilities: Record<string, unknown> = { logging: {} };
  /** Extensions only 2026-07-28 requests can use (tasks): left out of initialize's answer. */
  private readonly statelessOnly = new Set<string>();

  declare(name: string, value: Record<string, unknown>): void {
    this.capabilities[name] = value;
  }

  /** Extensions live together under `capabilities.extensions`, keyed by their identifier. */
  declareExtension(
    identifier: string,
    settings: Record<string, unknown>,
    options: { statelessOnly?: boolean } = {},
  ): void {
    if (options.statelessOnly) this.statelessOnly.add(identifier);
    const extensions = (this.capabilities.extensions ?? {}) as Record<string, unknown>;
    extensions[identifier] = settings;
    this.capabilities.extensions = extensions;
  }

  /** For server/discover; `forSession`: for initialize, without the stateless-only extensions. */
  snapshot(forSession = false): Record<string, unknown> {
    const copy = structuredClone(this.capabilities);
    const extensions = copy.extensions as Record<string, unknown> | undefined;
    if (forSession && extensions !== undefined) {
      for (const identifier of this.statelessOnly) delete extensions[identifier];
    }
    return copy;
  }
}
