import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { validateGatewayConfigShape } from '../../config/config.schema';
import { GatewayConfig, GovernanceConfig } from '../../config/gateway-config';

export type RulesValidation =
  | { ok: true; rules: GovernanceConfig }
  /** One line per problem, each naming the key: `mcp_server.governance.<path>: <message>`. */
  | { ok: false; problems: string[] };

/**
 * Checks a candidate `governance` section with the schema the loader uses at
 * boot, by validating the running config with that section swapped in.
 */
@Injectable()
export class GovernanceRulesValidator {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  validate(candidate: unknown): RulesValidation {
    const result = validateGatewayConfigShape({ ...this.config, governance: candidate });
    if (result.ok) return { ok: true, rules: result.config.governance };
    return {
      ok: false,
      problems: result.problems.map((p) => `${['mcp_server', ...p.path].join('.')}: ${p.message}`),
    };
  }
}
