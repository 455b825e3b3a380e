import { GovernanceConfig } from '../../config/gateway-config';
import { GovernanceRules } from './governance-rules';

/**
 * Most (client, target) pairs remembered; one more starts the memory over
 * (a few MiB at most, whatever the number of clients and targets).
 */
const MAX_ENTRIES = 65_536;

/**
 * What a client's rules make of one target (its merged quota, a tool's
 * limits, whether it may see it), worked out once per rules in force
 * instead of by every guard of every call (docs/performance.md). The rules
 * object is replaced whole on every change (file, SIGHUP,
 * admin API, another replica), so a new object means everything is worked
 * out again from the next call on.
 */
export class RulesMemo<V> {
  private rulesSeen?: GovernanceConfig;
  private readonly byClient = new Map<string, Map<string, V>>();
  private entries = 0;

  constructor(private readonly rules: GovernanceRules) {}

  /**
   * The value for (client, target) under the rules in force, computed on
   * first use, and again when `isCurrent` says a remembered one no longer
   * holds (it depends on something besides the rules, a tool's own limits).
   */
  get(
    clientId: string,
    target: string,
    compute: () => V,
    isCurrent: (value: V) => boolean = always,
  ): V {
    const rules = this.rules.current;
    if (rules !== this.rulesSeen) {
      this.forget();
      this.rulesSeen = rules;
    }
    let targets = this.byClient.get(clientId);
    const remembered = targets?.get(target);
    if (remembered !== undefined && isCurrent(remembered)) return remembered;
    const value = compute();
    if (remembered === undefined) {
      if (this.entries >= MAX_ENTRIES) {
        this.forget();
        targets = undefined;
      }
      this.entries++;
    }
    if (targets === undefined) {
      targets = new Map();
      this.byClient.set(clientId, targets);
    }
    targets.set(target, value);
    return value;
  }

  private forget(): void {
    this.byClient.clear();
    this.entries = 0;
  }
}

const always = (): boolean => true;
