import { Injectable } from '@nestjs/common';

/**
 * The capabilities announced at initialize. Feature modules declare what they
 * actually implement at boot, so nothing is announced that is not served.
 */
@Injectable()
export class ServerCapabilities {
  private readonly capabilities: Record<string, unknown> = { logging: {} };

  declare(name: string, value: Record<string, unknown>): void {
    this.capabilities[name] = value;
  }

  /** Extensions live together under `capabilities.extensions`, keyed by their identifier. */
  declareExtension(identifier: string, settings: Record<string, unknown>): void {
    const extensions = (this.capabilities.extensions ?? {}) as Record<string, unknown>;
    extensions[identifier] = settings;
    this.capabilities.extensions = extensions;
  }

  snapshot(): Record<string, unknown> {
    return structuredClone(this.capabilities);
  }
}
