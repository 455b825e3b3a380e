import { BadRequestException, Get, Inject, Param, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { Request } from 'express';
import { AdminController } from '../../admin/admin-controller.decorator';
import { readLedger } from '../../admin/admin-ledger-read';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig, GovernanceConfig } from '../../config/gateway-config';
import { GovernanceRules } from '../rules/governance-rules';
import { GovernanceRulesUpdater } from '../rules/governance-rules.updater';
import {
  ClientRulesDto,
  GovernanceRulesDto,
  RulesUpdateDto,
  ToolLimitDto,
} from './governance-rules.dto';
import { ClientGovernanceDto, GovernanceStatsDto } from './governance-stats.dto';
import { GovernanceStatsService } from './governance-stats.service';
import { readJsonBody } from './read-json-body';

/** Governance admin API: usage per client and the rules in force (bearer MCP_SERVER_ADMIN_TOKEN). */
@AdminController('governance', 'governance')
@ApiExtraModels(ClientRulesDto, ToolLimitDto)
export class GovernanceAdminController {
  constructor(
    private readonly stats: GovernanceStatsService,
    private readonly rules: GovernanceRules,
    private readonly updater: GovernanceRulesUpdater,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('stats')
  @ApiOperation({
    summary: 'Usage of every client this month: calls, spend, budget, denials, top tools',
  })
  @ApiOkResponse({ type: GovernanceStatsDto })
  @ApiServiceUnavailableResponse({ description: 'The ledger cannot be read' })
  getStats(): Promise<GovernanceStatsDto> {
    return readLedger('usage', () => this.stats.stats());
  }

  @Get('clients/:id')
  @ApiOperation({ summary: "One client's usage and the quota and visibility that apply to it" })
  @ApiOkResponse({ type: ClientGovernanceDto })
  @ApiServiceUnavailableResponse({ description: 'The ledger cannot be read' })
  getClient(@Param('id') id: string): Promise<ClientGovernanceDto> {
    return readLedger('usage', () => this.stats.client(id));
  }

  @Get('rules')
  @ApiOperation({ summary: 'The governance rules in force (the `governance` config section)' })
  @ApiOkResponse({ type: GovernanceRulesDto })
  getRules(): GovernanceConfig {
    return this.rules.current;
  }

  @Put('rules')
  @ApiOperation({
    summary: 'Replace the governance rules on every replica, without a restart',
    description:
      'The body is a whole `governance` section, validated like the config file. ' +
      'The change lasts until the next reload of the file; edit the file to keep it.',
  })
  @ApiBody({ type: GovernanceRulesDto })
  @ApiOkResponse({ type: RulesUpdateDto })
  @ApiBadRequestResponse({ description: 'Invalid rules; `problems` names each offending key' })
  async putRules(@Req() req: Request): Promise<RulesUpdateDto> {
    const body = await readJsonBody(req, this.config.http.body_limit_bytes);
    const result = await this.updater.update(body, 'admin');
    if (!result.ok) {
      throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: `invalid governance rules: ${result.problems.join('; ')}`,
        problems: result.problems,
      });
    }
    return { changed: result.changed, propagated: result.propagated, rules: result.rules };
  }
}
