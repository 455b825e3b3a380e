import { Inject, Injectable, Logger } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { ClientRulesConfig, GatewayConfig, GovernanceConfig } from '../../config/gateway-config';

/** Where a rules change came from, for logs. */
export type RulesSource = 'boot' | 'file' | 'sighup' | 'admin' | 'replica';

export type RulesListener = (rules: GovernanceConfig, source: RulesSource) => void;

/**
 * The governance rules in force: the `governance` config section, replaced
 * whole when the file changes, on SIGHUP, through the admin API or from
 * another replica. Every decision reads them here, so a change applies from
 * the next call on.
 */
@Injectable()
export class GovernanceRules {
  private readonly logger = new Logger('Governance');
  private rules: GovernanceConfig;
  private serialized: string;
  private readonly listeners = new Set<RulesListener>();

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.rules = freeze(config.governance);
    this.serialized = JSON.stringify(this.rules);
  }

  get current(): GovernanceConfig {
    return this.rules;
  }

  get enabled(): boolean {
    return this.rules.enabled;
  }

  /** A client's own overrides; own keys only, so a client named "constructor" is not Object's. */
  clientRules(clientId: string): ClientRulesConfig | undefined {
    return Object.hasOwn(this.rules.clients, clientId) ? this.rules.clients[clientId] : undefined;
  }

  /** Installs already validated rules; false (and nothing said) when they equal the current ones. */
  replace(next: GovernanceConfig, source: RulesSource): boolean {
    const serialized = JSON.stringify(next);
    if (serialized === this.serialized) return false;
    this.rules = freeze(next);
    this.serialized = serialized;
    this.logger.log({
      msg: 'governance rules changed',
      source,
      clients: Object.keys(next.clients),
    });
    for (const listener of this.listeners) listener(this.rules, source);
    return true;
  }

  /** Returns the unsubscribe function. */
  onChange(listener: RulesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** A private frozen copy: nobody can change the rules in force except through replace(). */
function freeze(rules: GovernanceConfig): GovernanceConfig {
  const copy = structuredClone(rules);
  const deep = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const child of Object.values(value)) deep(child);
    Object.freeze(value);
  };
  deep(copy);
  return copy;
}
