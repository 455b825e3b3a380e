import { Injectable } from '@nestjs/common';
import { CallerIdentity } from '../caller-identity';
import { ClientIdentityResolver } from '../client-identity.resolver';
import { IdentityRefused } from '../identity-refused.error';
import { ScopeGrants } from './scope-grants';
import { GovernedKind } from '../../governed-call';
import { InboundEntry, InboundFrame } from '../../../json-rpc/json-rpc.types';

/** The methods that reach one tool, resource or prompt, and the param that names it. */
const TARGETED: Record<string, { kind: GovernedKind; param: string; what: string }> = {
  'tools/call': { kind: 'tool', param: 'name', what: 'tool' },
  'resources/read': { kind: 'resource', param: 'uri', what: 'resource' },
  'prompts/get': { kind: 'prompt', param: 'name', what: 'prompt' },
};

/**
 * Step-up before dispatch: a request for a tool, resource or prompt that an
 * `auth.oauth.scopes` entry guards, sent with a token holding none of its
 * scopes, is answered 403 insufficient_scope naming a scope to ask for, as
 * the MCP authorization chapter says, rather than as an unknown tool. Lists
 * hide the same things (ScopeGrants); callers without a token are not judged.
 */
@Injectable()
export class CallScopeCheck {
  constructor(
    private readonly grants: ScopeGrants,
    private readonly identity: ClientIdentityResolver,
  ) {}

  /** The refusal for the first request of the frame the token does not cover, or undefined. */
  refusal(frame: InboundFrame, caller: CallerIdentity | undefined): IdentityRefused | undefined {
    const granted = caller?.token?.scopes;
    if (granted === undefined || this.grants.empty) return undefined;
    const entries =
      frame.kind === 'single' ? [frame.entry] : frame.kind === 'batch' ? frame.entries : [];
    for (const entry of entries) {
      const refusal = this.judge(entry, granted);
      if (refusal) return refusal;
    }
    return undefined;
  }

  private judge(entry: InboundEntry, granted: ReadonlySet<string>): IdentityRefused | undefined {
    if (entry.kind !== 'request') return undefined;
    const targeted = TARGETED[entry.message.method];
    const target = entry.message.params?.[targeted?.param ?? ''];
    if (!targeted || typeof target !== 'string') return undefined;
    const needed = this.grants.scopesFor(targeted.kind, target);
    if (needed.length === 0 || needed.some((scope) => granted.has(scope))) return undefined;
    const alternatives = needed.length > 1 ? ` (or one of: ${needed.slice(1).join(', ')})` : '';
    return this.identity.insufficientScope(
      needed[0],
      `the ${targeted.what} ${target.slice(0, 200)} needs the scope ${needed[0]}${alternatives}`,
    );
  }
}
