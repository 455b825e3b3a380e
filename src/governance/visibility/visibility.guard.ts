import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { formatSkillUri, parseSkillUri } from '../../resources/skill-uri';
import { GovernanceDecisions } from '../governance-decisions';
import { GovernedCall, governedCallOf } from '../governed-call';
import { GovernedTools } from '../governed-tools';
import { GovernanceRules } from '../rules/governance-rules';
import { VisibilityPolicy } from './visibility.policy';

/**
 * First of the quota guards: a tool or resource the client may not see (or
 * that does not exist) is answered exactly as the handler answers an unknown
 * one (-32001 / -32002), before it can spend budget or rate limit.
 */
@Injectable()
export class VisibilityGuard implements CanActivate {
  constructor(
    private readonly rules: GovernanceRules,
    private readonly policy: VisibilityPolicy,
    private readonly tools: GovernedTools,
    private readonly decisions: GovernanceDecisions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const call = governedCallOf(context);
    if (!call) return true;
    call.context.call.target = call.target;
    if (!this.rules.enabled) return true;
    if (call.kind === 'tool') this.checkTool(call);
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

  private checkResource(call: GovernedCall): void {
    const skillUri = skillUriOf(call.target);
    // A malformed URI is the handler's to answer (-32602).
    if (skillUri === undefined || this.policy.isResourceVisible(skillUri, call.clientId)) return;
    this.decisions.hidden(call);
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${call.target}`, {
      data: { uri: call.target },
    });
  }
}

/** The skill a URI belongs to (its files share its visibility). */
function skillUriOf(uri: string): string | undefined {
  try {
    const { category, name } = parseSkillUri(uri);
    return formatSkillUri({ category, name, path: [] });
  } catch {
    return undefined;
  }
}
