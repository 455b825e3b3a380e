import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { RegisteredPrompt } from '../../prompts/registered-prompt';
import { ToolRegistry } from '../../tools/tool.registry';
import { validateNoArguments } from '../../tools/tool-arguments.validator';
import {
  fixtureTools,
  GovernanceStack,
  governanceStack,
  GovernanceStackOptions,
  GovernedMethods,
  governedInvocation,
  refusalOf,
} from '../testing/governance.fixture';

function prompt(name: string, reads?: string[]): RegisteredPrompt {
  return {
    name,
    options: { name, description: `The ${name} prompt of the visibility spec`, reads },
    origin: `VisibilitySpec.${name}`,
    render: () => Promise.resolve({ messages: [] }),
  };
}

describe('VisibilityGuard', () => {
  let tools: ToolRegistry;
  let stack: GovernanceStack;

  beforeAll(async () => {
    tools = await fixtureTools();
    // A relayed tool: the ledger names its server and its own name there.
    tools.register({
      name: 'relay__echo',
      options: { name: 'relay__echo', description: 'An upstream tool.', maxCost: 0 },
      origin: 'upstream relay',
      upstream: { server: 'relay', tool: 'echo' },
      inputSchema: { type: 'object' },
      validate: (args) => validateNoArguments('relay__echo', args),
      execute: () => 'echo',
    });
  });

  afterEach(() => stack?.close());

  const withConfig = (config?: GovernanceStackOptions['config']) => {
    stack = governanceStack(tools, { config });
    stack.prompts.register(prompt('plan'));
    stack.prompts.register(prompt('plan_with_costly', ['gov_costly']));
    stack.prompts.register(prompt('plan_with_orders', ['skill://orders/place-order']));
    return stack;
  };

  describe('tools', () => {
    it('marks a visible tool on the call record, so the method need not check again', () => {
      const { visibility } = withConfig();
      const { context, rpc } = governedInvocation('tool', 'gov_free', 'alpha');
      expect(visibility.canActivate(context)).toBe(true);
      expect(rpc.call).toEqual({ target: 'gov_free', visible: true });
    });

    it("records an upstream tool's server and own name for the ledger", () => {
      const { visibility } = withConfig();
      const { context, rpc } = governedInvocation('tool', 'relay__echo', 'alpha');
      visibility.canActivate(context);
      expect(rpc.call.upstream).toEqual({ server: 'relay', tool: 'echo' });
    });

    it('answers a hidden handler exactly like an unknown tool (-32001), and counts only the hidden one', async () => {
      const { visibility, decisions } = withConfig();
      const hidden = governedInvocation('tool', 'gov_secret', 'alpha');
      const unknown = governedInvocation('tool', 'gov_nonexistent', 'alpha');
      const hiddenError = await refusalOf(() => visibility.canActivate(hidden.context));
      const unknownError = await refusalOf(() => visibility.canActivate(unknown.context));

      expect(hiddenError.code).toBe(ErrorCode.ToolNotFound);
      expect([hiddenError.message, hiddenError.data]).toEqual([
        'Tool not found: gov_secret',
        { tool: 'gov_secret' },
      ]);
      expect([unknownError.message, unknownError.data]).toEqual([
        'Tool not found: gov_nonexistent',
        { tool: 'gov_nonexistent' },
      ]);
      expect(hiddenError.retryable).toBe(unknownError.retryable);
      expect(hidden.rpc.call).toEqual({ target: 'gov_secret' });
      // Not a denial: no reason for the ledger, only the not_visible decision.
      expect(hidden.rpc.call.denialReason).toBeUndefined();
      expect(await decisions('deny', 'not_visible')).toBe(1);
    });

    it('hides a tool a deny rule names, and one a client-level allow leaves out, from that client only', async () => {
      const { visibility, decisions } = withConfig({
        governance: {
          visibility: { allow: ['*'], deny: ['gov_pricey'] },
          clients: { narrow: { allow: ['gov_free'] }, denier: { deny: ['gov_free'] } },
        },
      });
      const seen = (target: string, client: string) => {
        try {
          return visibility.canActivate(governedInvocation('tool', target, client).context);
        } catch (err) {
          if (err instanceof GatewayError && err.code === ErrorCode.ToolNotFound) return false;
          throw err;
        }
      };
      expect([seen('gov_pricey', 'alpha'), seen('gov_costly', 'alpha')]).toEqual([false, true]);
      // A client's allow replaces the default one; its deny adds to the default deny.
      expect([seen('gov_free', 'narrow'), seen('gov_costly', 'narrow')]).toEqual([true, false]);
      expect([seen('gov_free', 'denier'), seen('gov_pricey', 'denier')]).toEqual([false, false]);
      expect(await decisions('deny', 'not_visible')).toBe(4);
    });

    it('applies only handler visibility while governance is disabled, logging no decision', async () => {
      const { visibility, decisions } = withConfig({
        governance: { enabled: false, visibility: { allow: ['*'], deny: ['gov_free'] } },
      });
      expect(visibility.canActivate(governedInvocation('tool', 'gov_free', 'a').context)).toBe(
        true,
      );
      const error = await refusalOf(() =>
        visibility.canActivate(governedInvocation('tool', 'gov_secret', 'a').context),
      );
      expect(error.code).toBe(ErrorCode.ToolNotFound);
      expect(await decisions('deny', 'not_visible')).toBe(0);
    });

    it('applies a rules change from the next call on', async () => {
      const { visibility, rules } = withConfig();
      expect(visibility.canActivate(governedInvocation('tool', 'gov_free', 'a').context)).toBe(
        true,
      );
      rules.replace({ ...rules.current, visibility: { allow: ['*'], deny: ['gov_*'] } }, 'admin');
      const error = await refusalOf(() =>
        visibility.canActivate(governedInvocation('tool', 'gov_free', 'a').context),
      );
      expect(error.code).toBe(ErrorCode.ToolNotFound);
    });
  });

  describe('prompts', () => {
    it('marks a visible prompt on the call record', () => {
      const { visibility } = withConfig();
      const { context, rpc } = governedInvocation('prompt', 'plan', 'alpha');
      expect(visibility.canActivate(context)).toBe(true);
      expect(rpc.call).toEqual({ target: 'plan', visible: true });
    });

    it('answers a prompt that reveals a tool or skill the client may not see like an unknown prompt (-32602)', async () => {
      const { visibility, decisions } = withConfig({
        governance: { visibility: { allow: ['*'], deny: ['gov_costly', 'skill://orders/*'] } },
      });
      const errors = await Promise.all(
        ['plan_with_costly', 'plan_with_orders', 'nope'].map((name) =>
          refusalOf(() => visibility.canActivate(governedInvocation('prompt', name, 'a').context)),
        ),
      );
      expect(errors.map((e) => [e.code, e.message, e.data])).toEqual([
        [
          ErrorCode.InvalidParams,
          'Unknown prompt: plan_with_costly',
          { prompt: 'plan_with_costly' },
        ],
        [
          ErrorCode.InvalidParams,
          'Unknown prompt: plan_with_orders',
          { prompt: 'plan_with_orders' },
        ],
        [ErrorCode.InvalidParams, 'Unknown prompt: nope', { prompt: 'nope' }],
      ]);
      // The two existing prompts were hidden; the unknown one is not a decision.
      expect(await decisions('deny', 'not_visible')).toBe(2);
    });

    it('judges a prompt under prompt:<name>, apart from a tool of the same name', async () => {
      const { visibility } = withConfig({
        governance: { visibility: { allow: ['*'], deny: ['prompt:plan'] } },
      });
      const error = await refusalOf(() =>
        visibility.canActivate(governedInvocation('prompt', 'plan', 'a').context),
      );
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(
        visibility.canActivate(governedInvocation('prompt', 'plan_with_costly', 'a').context),
      ).toBe(true);
    });
  });

  describe('resources', () => {
    const denyOrders = { governance: { visibility: { allow: ['*'], deny: ['skill://orders/*'] } } };

    it('marks a visible skill URI on the call record', () => {
      const { visibility } = withConfig(denyOrders);
      const { context, rpc } = governedInvocation('resource', 'skill://trading/entry-monitor', 'a');
      expect(visibility.canActivate(context)).toBe(true);
      expect(rpc.call).toEqual({ target: 'skill://trading/entry-monitor', visible: true });
    });

    it('answers a denied skill or file as not found (-32002), whatever its spelling', async () => {
      const { visibility, decisions } = withConfig(denyOrders);
      for (const uri of [
        'skill://orders/place-order',
        'skill://orders/place-order/references/a.md',
        // Percent-encoding is undone before the rules are applied.
        'skill://%6Frders/place%2Dorder',
      ]) {
        const { context, rpc } = governedInvocation('resource', uri, 'a');
        const error = await refusalOf(() => visibility.canActivate(context));
        expect([error.code, error.message, error.data]).toEqual([
          ErrorCode.ResourceNotFound,
          `Resource not found: ${uri}`,
          { uri },
        ]);
        expect(rpc.call.visible).toBeUndefined();
      }
      expect(await decisions('deny', 'not_visible')).toBe(3);
    });

    it("leaves another scheme's URI, and a malformed skill URI, to the method without marking it visible", () => {
      const { visibility } = withConfig({
        governance: { visibility: { allow: ['skill://*'], deny: [] } },
      });
      for (const uri of ['fixture://docs/readme', 'skill://only-a-category']) {
        const { context, rpc } = governedInvocation('resource', uri, 'a');
        expect(visibility.canActivate(context)).toBe(true);
        expect(rpc.call).toEqual({ target: uri });
      }
    });
  });

  it('leaves ungoverned methods and calls that name no target alone', () => {
    const { visibility } = withConfig();
    const ungoverned = governedInvocation('tool', 'gov_secret', 'a', {
      handler: GovernedMethods.prototype.list,
    });
    const nameless = governedInvocation('tool', '', 'a', { params: { name: 42 } });
    expect(visibility.canActivate(ungoverned.context)).toBe(true);
    expect(visibility.canActivate(nameless.context)).toBe(true);
    expect([ungoverned.rpc.call, nameless.rpc.call]).toEqual([{}, {}]);
  });
});
