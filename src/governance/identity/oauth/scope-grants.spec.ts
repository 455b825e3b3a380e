import { DEFAULT_CONFIG } from '../../../config/config.defaults';
import { GatewayConfig, OAuthConfig } from '../../../config/gateway-config';
import { ScopeGrants } from './scope-grants';

function grantsOf(scopes: OAuthConfig['scopes']): ScopeGrants {
  const config: GatewayConfig = {
    ...DEFAULT_CONFIG,
    auth: { ...DEFAULT_CONFIG.auth, oauth: { ...DEFAULT_CONFIG.auth.oauth, scopes } },
  };
  return new ScopeGrants(config);
}

describe('ScopeGrants', () => {
  const grants = grantsOf({
    'orders.read': { tools: ['orders_*'], resources: ['orders://*'], prompts: [] },
    'orders.admin': { tools: ['orders_*', 'refund'], resources: [], prompts: ['refund_help'] },
  });

  it('lists every scope that unlocks a target, per kind', () => {
    expect(grants.scopesFor('tool', 'orders_list')).toEqual(['orders.read', 'orders.admin']);
    expect(grants.scopesFor('tool', 'refund')).toEqual(['orders.admin']);
    expect(grants.scopesFor('resource', 'orders://42')).toEqual(['orders.read']);
    expect(grants.scopesFor('prompt', 'refund_help')).toEqual(['orders.admin']);
    // The kinds do not mix: a prompt named like a guarded tool is not guarded.
    expect(grants.scopesFor('prompt', 'orders_list')).toEqual([]);
    expect(grants.scopesFor('tool', 'weather')).toEqual([]);
  });

  it('lets a token reach a guarded target with any one of its scopes', () => {
    expect(grants.allows('tool', 'orders_list', new Set(['orders.read']))).toBe(true);
    expect(grants.allows('tool', 'orders_list', new Set(['orders.admin']))).toBe(true);
    expect(grants.allows('tool', 'refund', new Set(['orders.read']))).toBe(false);
    expect(grants.allows('resource', 'orders://42', new Set(['mcp']))).toBe(false);
    expect(grants.allows('resource', 'orders://42', new Set())).toBe(false);
  });

  it('lets every token reach what no scope names', () => {
    expect(grants.allows('tool', 'weather', new Set())).toBe(true);
    expect(grants.allows('resource', 'docs://readme', new Set(['mcp']))).toBe(true);
  });

  it('does not judge callers without a token (API keys, stdio)', () => {
    expect(grants.allows('tool', 'refund', undefined)).toBe(true);
  });

  it('is empty, and allows everything, when no scopes are configured', () => {
    const none = grantsOf({});
    expect(none.empty).toBe(true);
    expect(grants.empty).toBe(false);
    expect(none.allows('tool', 'refund', new Set())).toBe(true);
    expect(none.scopesFor('tool', 'refund')).toEqual([]);
  });
});
