import { Injectable } from '@nestjs/common';
import { QuotaConfig } from '../../config/gateway-config';
import { HandlerRateLimits } from '../../tools/handler-options';
import { GovernanceRules } from '../rules/governance-rules';
import { RulesMemo } from '../rules/rules-memo';
import { globMatches } from '../visibility/glob-match';

/** Per-tool call limits for one client; undefined means the tool has no limit of its own. */
export interface ToolLimits {
  minute?: number;
  day?: number;
}

/**
 * A client's effective limits: its own `quota` keys over `default_quota`,
 * and per-tool limits from its `tool_limits` (name or glob) and from the
 * handler's own `rateLimits`, the strictest of them winning.
 */
@Injectable()
export class QuotaPolicy {
  private readonly quotas: RulesMemo<Readonly<QuotaConfig>>;
  private readonly limits: RulesMemo<{ handler?: HandlerRateLimits; limits: Readonly<ToolLimits> }>;
  private readonly listed: RulesMemo<{
    handler?: HandlerRateLimits;
    limits?: Readonly<HandlerRateLimits>;
  }>;

  constructor(private readonly rules: GovernanceRules) {
    this.quotas = new RulesMemo(rules);
    this.limits = new RulesMemo(rules);
    this.listed = new RulesMemo(rules);
  }

  /** Shared between calls (see RulesMemo), hence read-only. */
  quotaFor(clientId: string): Readonly<QuotaConfig> {
    return this.quotas.get(clientId, '', () =>
      Object.freeze({
        ...this.rules.current.default_quota,
        ...this.rules.clientRules(clientId)?.quota,
      }),
    );
  }

  /** Shared between calls while the rules and the handler's own limits stay the same. */
  toolLimits(clientId: string, tool: string, handler?: HandlerRateLimits): Readonly<ToolLimits> {
    return this.limits.get(
      clientId,
      tool,
      () => ({ handler, limits: Object.freeze(this.matchLimits(clientId, tool, handler)) }),
      (remembered) => remembered.handler === handler,
    ).limits;
  }

  /**
   * The limits tools/list tells this client about one tool under the rules
   * in force: per window the strictest of the tool's own and the client's
   * quota; with governance off, only what the handler declares.
   */
  listedLimits(
    clientId: string,
    tool: string,
    handler?: HandlerRateLimits,
  ): Readonly<HandlerRateLimits> | undefined {
    return this.listed.get(
      clientId,
      tool,
      () => ({ handler, limits: this.limitsToList(clientId, tool, handler) }),
      (remembered) => remembered.handler === handler,
    ).limits;
  }

  private limitsToList(
    clientId: string,
    tool: string,
    handler?: HandlerRateLimits,
  ): Readonly<HandlerRateLimits> | undefined {
    if (!this.rules.enabled) return handler && Object.freeze({ ...handler });
    const own = this.toolLimits(clientId, tool, handler);
    const quota = this.quotaFor(clientId);
    return Object.freeze({
      maxCallsPerMinute: stricter(own.minute, quota.max_calls_per_minute),
      maxCallsPerDay: stricter(own.day, quota.max_calls_per_day),
    });
  }

  private matchLimits(clientId: string, tool: string, handler?: HandlerRateLimits): ToolLimits {
    const limits: ToolLimits = {
      minute: handler?.maxCallsPerMinute,
      day: handler?.maxCallsPerDay,
    };
    const configured = this.rules.clientRules(clientId)?.tool_limits ?? {};
    for (const [pattern, limit] of Object.entries(configured)) {
      if (!globMatches(pattern, tool)) continue;
      limits.minute = stricter(limits.minute, limit.max_calls_per_minute);
      limits.day = stricter(limits.day, limit.max_calls_per_day);
    }
    return limits;
  }
}

function stricter(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
