import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GovernanceConfig } from '../../config/gateway-config';
import { GovernanceRules } from '../rules/governance-rules';
import { VisibilityPolicy } from './visibility.policy';

function policyWith(governance: Partial<GovernanceConfig>): VisibilityPolicy {
  const config = {
    ...DEFAULT_CONFIG,
    governance: { ...DEFAULT_CONFIG.governance, ...governance },
  };
  return new VisibilityPolicy(new GovernanceRules(config));
}

describe('VisibilityPolicy', () => {
  it('applies a rules change from the next check on (answers are remembered per rules)', () => {
    const rules = new GovernanceRules({ ...DEFAULT_CONFIG });
    const policy = new VisibilityPolicy(rules);
    expect(policy.isToolVisible('orders_place', 'c')).toBe(true);
    rules.replace({ ...rules.current, visibility: { allow: ['*'], deny: ['orders_*'] } }, 'admin');
    expect(policy.isToolVisible('orders_place', 'c')).toBe(false);
    expect(policy.isToolVisible('inventory_search', 'c')).toBe(true);
  });

  it('shows every tool and skill with the default rules', () => {
    const policy = policyWith({});
    expect(policy.isToolVisible('orders_place', 'anyone')).toBe(true);
    expect(policy.isResourceVisible('skill://trading/entry-monitor', 'anyone')).toBe(true);
  });

  it('hides a handler marked hidden whatever the rules allow', () => {
    expect(policyWith({}).isToolVisible('admin_tool', 'anyone', 'hidden')).toBe(false);
  });

  it('matches globs over tool names and skill URIs, * crossing slashes', () => {
    const policy = policyWith({
      visibility: { allow: ['inventory_*', 'skill://inventory/*'], deny: [] },
    });
    expect(policy.isToolVisible('inventory_search', 'c')).toBe(true);
    expect(policy.isToolVisible('orders_place', 'c')).toBe(false);
    expect(policy.isResourceVisible('skill://inventory/stock-check', 'c')).toBe(true);
    expect(policy.isResourceVisible('skill://inventory-old/stock-check', 'c')).toBe(false);
    expect(policy.isResourceVisible('skill://orders/place-order', 'c')).toBe(false);
    // A tool glob never matches a URI that merely contains the word.
    expect(
      policyWith({ visibility: { allow: ['inventory_*'], deny: [] } }).isResourceVisible(
        'skill://inventory_x/y',
        'c',
      ),
    ).toBe(false);
  });

  it('applies the default deny after the allow list', () => {
    const policy = policyWith({
      visibility: { allow: ['*'], deny: ['orders_*', 'skill://orders/*'] },
    });
    expect(policy.isToolVisible('orders_place', 'c')).toBe(false);
    expect(policy.isToolVisible('inventory_search', 'c')).toBe(true);
    expect(policy.isResourceVisible('skill://orders/place-order', 'c')).toBe(false);
  });

  it("replaces the default allow with a client's own and adds its deny to the default", () => {
    const policy = policyWith({
      visibility: { allow: ['*'], deny: ['danger_*'] },
      clients: {
        'acme-bot': { allow: ['inventory_*', 'danger_zone'], deny: ['inventory_reorder_report'] },
      },
    });
    expect(policy.isToolVisible('inventory_search', 'acme-bot')).toBe(true);
    expect(policy.isToolVisible('inventory_reorder_report', 'acme-bot')).toBe(false);
    expect(policy.isToolVisible('orders_place', 'acme-bot')).toBe(false);
    // Allowed by its own list, still denied by the default deny.
    expect(policy.isToolVisible('danger_zone', 'acme-bot')).toBe(false);
    // Other clients keep the defaults.
    expect(policy.isToolVisible('orders_place', 'someone-else')).toBe(true);
    expect(policy.isToolVisible('inventory_reorder_report', 'someone-else')).toBe(true);
  });

  it('never mistakes Object.prototype members for client rules', () => {
    const policy = policyWith({ clients: { 'acme-bot': { allow: [] } } });
    expect(policy.isToolVisible('orders_place', 'constructor')).toBe(true);
    expect(policy.isToolVisible('orders_place', '__proto__')).toBe(true);
    expect(policy.isToolVisible('orders_place', 'acme-bot')).toBe(false);
  });

  it('shows everything but hidden handlers when governance is disabled', () => {
    const policy = policyWith({ enabled: false, visibility: { allow: [], deny: ['*'] } });
    expect(policy.isToolVisible('orders_place', 'c')).toBe(true);
    expect(policy.isToolVisible('orders_place', 'c', 'hidden')).toBe(false);
  });

  it('follows rules replaced at run time', () => {
    const config = { ...DEFAULT_CONFIG };
    const rules = new GovernanceRules(config);
    const policy = new VisibilityPolicy(rules);
    expect(policy.isToolVisible('orders_place', 'c')).toBe(true);
    rules.replace(
      { ...config.governance, visibility: { allow: ['*'], deny: ['orders_*'] } },
      'admin',
    );
    expect(policy.isToolVisible('orders_place', 'c')).toBe(false);
  });

  it('hides a file of a skill named by a deny rule, directly or through a folder above it', () => {
    const policy = policyWith({
      visibility: { allow: ['*'], deny: ['skill://inventory/stock-check/refs/*'] },
      clients: {
        'acme-bot': { allow: ['skill://inventory/stock-check'], deny: ['skill://a/b/x'] },
      },
    });
    expect(policy.isResourceVisible('skill://inventory/stock-check', 'c')).toBe(true);
    expect(policy.isResourceVisible('skill://inventory/stock-check/SKILL.md', 'c')).toBe(true);
    expect(policy.isResourceVisible('skill://inventory/stock-check/refs/a.md', 'c')).toBe(false);
    expect(policy.isResourceVisible('skill://inventory/stock-check/refs/deep/b.md', 'c')).toBe(
      false,
    );
    // The skill's allow covers its files; the default deny on refs/ still holds for this client.
    expect(policy.isResourceVisible('skill://inventory/stock-check/notes.md', 'acme-bot')).toBe(
      true,
    );
    expect(policy.isResourceVisible('skill://inventory/stock-check/refs/a.md', 'acme-bot')).toBe(
      false,
    );
    // A deny on a folder hides every file below it.
    expect(policy.isResourceVisible('skill://a/b/x/y/z.md', 'acme-bot')).toBe(false);
  });

  it('judges a URI of thousands of folders against wildcard deny rules, a folder deny still reaching it', () => {
    const deep = `skill://a/${'a/'.repeat(4000)}x`;
    const policy = policyWith({
      visibility: { allow: ['*'], deny: ['skill://*/*/*private*', `skill://${'*a'.repeat(15)}b`] },
      clients: { 'no-a': { deny: [`skill://a/a/${'a/'.repeat(99)}a`] } },
    });
    expect(policy.isResourceVisible(deep, 'c')).toBe(true);
    expect(policy.isResourceVisible(`${deep}/private.md`, 'c')).toBe(false);
    // Denied through a folder a hundred levels below the skill.
    expect(policy.isResourceVisible(deep, 'no-a')).toBe(false);
  });

  it('treats the seed URI as the SKILL.md it reads', () => {
    const policy = policyWith({ visibility: { allow: ['*'], deny: ['skill://a/b/SKILL.md'] } });
    expect(policy.isResourceVisible('skill://a/b', 'c')).toBe(false);
    expect(policy.isResourceVisible('skill://a/b/SKILL.md', 'c')).toBe(false);
    expect(policy.isResourceVisible('skill://a/b/other.md', 'c')).toBe(true);
  });

  it('judges a prompt as prompt:<name> and by every tool and resource it reads', () => {
    const policy = policyWith({
      visibility: { allow: ['*'], deny: ['prompt:secret_*'] },
      clients: { 'no-orders': { deny: ['orders_*'] }, 'no-skill': { deny: ['skill://x/*'] } },
    });
    expect(policy.isPromptVisible('draft', 'c', ['orders_get'])).toBe(true);
    expect(policy.isPromptVisible('draft', 'no-orders', ['orders_get'])).toBe(false);
    expect(policy.isPromptVisible('draft', 'no-orders')).toBe(true);
    expect(policy.isPromptVisible('plan', 'no-skill', ['skill://x/y'])).toBe(false);
    expect(policy.isPromptVisible('secret_plan', 'c')).toBe(false);
    // A tool glob does not reach a prompt of the same name.
    expect(
      policyWith({ visibility: { allow: ['*'], deny: ['orders_*'] } }).isPromptVisible(
        'orders_summary',
        'c',
      ),
    ).toBe(true);
  });
});
