import { createHash } from 'node:crypto';
import { ErrorCode } from '../../errors/error-code';
import { ToolRegistry } from '../../tools/tool.registry';
import { GovernanceDeniedError } from '../governance-denied.error';
import {
  fixtureTools,
  GovernanceStack,
  governanceStack,
  GovernanceStackOptions,
  GovernedMethods,
  governedInvocation,
  refusalOf,
} from '../testing/governance.fixture';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const OAUTH = {
  resource: 'https://mcp.example.com/mcp',
  issuers: ['https://idp.example.com/realms/acme'],
};
const API_KEYS = { mode: 'api_key' as const, api_keys: [`keyed:${sha256('key-k')}`] };

describe('ClientPermissionGuard', () => {
  let tools: ToolRegistry;
  let stack: GovernanceStack;

  beforeAll(async () => {
    tools = await fixtureTools();
  });

  afterEach(() => stack?.close());

  const withConfig = (config: GovernanceStackOptions['config']) => {
    stack = governanceStack(tools, { config });
    return stack;
  };

  describe('with auth.mode api_key', () => {
    it('lets a client that holds a key through, recording nothing', async () => {
      const { permission, decisions } = withConfig({ auth: API_KEYS });
      const { context, rpc } = governedInvocation('tool', 'gov_free', 'keyed');
      expect(permission.canActivate(context)).toBe(true);
      expect(rpc.call).toEqual({});
      expect(await decisions('deny', 'forbidden')).toBe(0);
    });

    it.each(['tool', 'resource', 'prompt'] as const)(
      'refuses a %s call of a client without a key as forbidden (-32003), not retryable',
      async (kind) => {
        const { permission, decisions } = withConfig({ auth: API_KEYS });
        const { context, rpc } = governedInvocation(kind, 'gov_free', 'intruder');
        const error = await refusalOf(() => permission.canActivate(context));
        expect(error).toBeInstanceOf(GovernanceDeniedError);
        expect(error.code).toBe(ErrorCode.GovernanceDenied);
        expect(error.message).toBe(
          'Forbidden: client intruder holds no API key (auth.mode is api_key)',
        );
        expect(error.retryable).toBe(false);
        expect(error.retryAfter).toBeUndefined();
        expect(error.data).toEqual({ reason: 'forbidden', remaining: {} });
        // The ledger reads the reason off the call's record.
        expect(rpc.call.denialReason).toBe('forbidden');
        expect(await decisions('deny', 'forbidden')).toBe(1);
      },
    );

    it('lets every client through while governance is disabled', () => {
      const { permission } = withConfig({ auth: API_KEYS, governance: { enabled: false } });
      const { context } = governedInvocation('tool', 'gov_free', 'intruder');
      expect(permission.canActivate(context)).toBe(true);
    });

    it('leaves ungoverned methods and calls that name no target to the method', () => {
      const { permission } = withConfig({ auth: API_KEYS });
      const ungoverned = governedInvocation('tool', 'gov_free', 'intruder', {
        handler: GovernedMethods.prototype.list,
      });
      const nameless = governedInvocation('tool', '', 'intruder', { params: {} });
      expect(permission.canActivate(ungoverned.context)).toBe(true);
      expect(permission.canActivate(nameless.context)).toBe(true);
      expect(nameless.rpc.call.denialReason).toBeUndefined();
    });
  });

  it.each(['none', 'oauth_or_api_key'] as const)(
    'checks nothing with auth.mode %s (the transport identified the caller)',
    async (mode) => {
      const { permission, decisions } = withConfig({
        auth: { mode, api_keys: API_KEYS.api_keys, oauth: OAUTH },
      });
      // An OAuth caller holds a token, not a key: only api_key mode requires one here.
      const { context } = governedInvocation('tool', 'gov_free', 'token-holder');
      expect(permission.canActivate(context)).toBe(true);
      expect(await decisions('deny', 'forbidden')).toBe(0);
    },
  );
});
