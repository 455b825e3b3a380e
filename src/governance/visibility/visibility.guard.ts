import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { unknownPrompt } from '../../prompts/unknown-prompt.error';
import { formatSkillUri, parseSkillUri } from '../../resources/skill-uri';
import { GovernanceDecisions } from '../governance-decisions';
import { GovernedCall, governedCallOf } from '../governed-call';
import { GovernedPrompts } from '../governed-prompts';
import { GovernedTools } from '../governed-tools';
import { GovernanceRules } from '../rules/governance-rules';
import { VisibilityPolicy } from './visibility.policy';

/**
 * The call's one visibility check, before it can spend budget or rate limit:
 * a tool, skill resource or prompt the client may not see (or that does not
 * exist) is answered exactly as an unknown one (-32001 / -32002 / -32602).
 * The method trusts `call.visible` instead of checking again.
 */
@Injectable()
export class VisibilityGuard implements CanActivate {
  constructor(
    private readonly rules: GovernanceRules,
    private readonly policy: VisibilityPolicy,
    private readonly tools: GovernedTools,
    private readonly prompts: GovernedPrompts,
    private readonly decisions: GovernanceDecisions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const call = governedCallOf(context);
    if (!call) return true;
    call.context.call.target = call.target;
    if (call.kind === 'tool') this.checkTool(call);
    else if (call.kind === 'prompt') this.checkPrompt(call);
    else this.checkResource(call);
    return true;
  }

  private checkTool(call: GovernedCall): void {
    const tool = this.tools.get(call.target);
    if (tool && this.policy.isToolVisible(tool.name, call.clientId, tool.options.visibility)) {
      call.context.call.visible = true;
      if (tool.upstream) call.context.call.upstream = tool.upstream;
      return;
    }
    if (tool) this.hidden(call);
    throw new GatewayError(ErrorCode.ToolNotFound, `Tool not found: ${call.target}`, {
      data: { tool: call.target },
    });
  }

  private checkPrompt(call: GovernedCall): void {
    const prompt = this.prompts.get(call.target);
    if (prompt && this.policy.isPromptVisible(prompt.name, call.clientId, prompt.options.reads)) {
      call.context.call.visible = true;
      return;
    }
    if (prompt) this.hidden(call);
    throw unknownPrompt(call.target);
  }

  private checkResource(call: GovernedCall): void {
    const uri = canonicalSkillUri(call.target);
    // Another scheme's URI (its provider knows what it reveals) or a malformed one is the method's to judge.
    if (uri === undefined) return;
    if (this.policy.isResourceVisible(uri, call.clientId)) {
      call.context.call.visible = true;
      return;
    }
    this.hidden(call);
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${call.target}`, {
      data: { uri: call.target },
    });
  }

  /** A decision is logged only while governance is on (with it off only `visibility: 'hidden'` hides). */
  private hidden(call: GovernedCall): void {
    if (this.rules.enabled) this.decisions.hidden(call);
  }
}

/** Canonical spelling, so that percent-encoding cannot slip past a deny rule on a file. */
function canonicalSkillUri(uri: string): string | undefined {
  try {
    return formatSkillUri(parseSkillUri(uri));
  } catch {
    return undefined;
  }
}
