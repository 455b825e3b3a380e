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
 * First of the quota guards: a tool, resource or prompt the client may not
 * see (or that does not exist) is answered exactly as the handler answers an
 * unknown one (-32001 / -32002 / -32602), before it can spend budget or rate limit.
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
    if (!this.rules.enabled) return true;
    if (call.kind === 'tool') this.checkTool(call);
    else if (call.kind === 'prompt') this.checkPrompt(call);
    else this.checkResource(call);
    return true;
  }

  private checkTool(call: GovernedCall): void {
    const tool = this.tools.get(call.target);
    if (tool && this.policy.isToolVisible(tool.name, call.clientId, tool.options.visibility))
      return;
    if (tool) this.decisions.hidden(call);
    throw new GatewayError(ErrorCode.ToolNotFound, `Tool not found: ${call.target}`, {
      data: { tool: call.target },
    });
  }

  private checkPrompt(call: GovernedCall): void {
    const prompt = this.prompts.get(call.target);
    if (prompt && this.policy.isPromptVisible(prompt.name, call.clientId, prompt.options.reads))
      return;
    if (prompt) this.decisions.hidden(call);
    throw unknownPrompt(call.target);
  }

  private checkResource(call: GovernedCall): void {
    const uri = canonicalSkillUri(call.target);
    // A malformed URI is the handler's to answer (-32602).
    if (uri === undefined || this.policy.isResourceVisible(uri, call.clientId)) return;
    this.decisions.hidden(call);
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${call.target}`, {
      data: { uri: call.target },
    });
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
