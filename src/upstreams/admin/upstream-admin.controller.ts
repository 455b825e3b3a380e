import { Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Request } from 'express';
import { AdminController } from '../../admin/admin-controller.decorator';
import { readRegistryBody } from './registry-body.reader';
import { RegistryImportDto } from './registry-import.dto';
import { UpstreamAdminService } from './upstream-admin.service';
import {
  ProbeResultDto,
  ServerDetailDto,
  ServerListDto,
  ServerWriteDto,
} from './upstream-admin.dto';

const BAD_BODY =
  'Invalid record: `field` names the first key at fault, `problems` every one; nothing changed';
const REGISTRY_BODY = {
  description: 'A registry file (docs/federation.md), as JSON, or as YAML / TOML by Content-Type',
  schema: { type: 'object' as const, additionalProperties: true },
};

/** Upstream MCP servers: their state, and changes to the registry without a restart. */
@AdminController('mcp/servers', 'upstreams')
export class UpstreamAdminController {
  constructor(private readonly admin: UpstreamAdminService) {}

  @Get()
  @ApiOperation({
    summary: 'Every loaded server with its state, the rejected files, the registry revision',
  })
  @ApiOkResponse({ type: ServerListDto })
  list(): ServerListDto {
    return this.admin.list();
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create or replace a server from a registry file body (yaml, json or toml)',
    description:
      'The format comes from Content-Type (application/json, application/yaml, application/toml) ' +
      'or, in a JSON body `{ "format": ..., "content": ... }`, from `format`.',
  })
  @ApiConsumes('application/json', 'application/yaml', 'application/toml')
  @ApiBody({ type: RegistryImportDto })
  @ApiOkResponse({ type: ServerWriteDto })
  @ApiBadRequestResponse({ description: BAD_BODY })
  @ApiConflictResponse({ description: 'The file that defines the server cannot be written' })
  @ApiPayloadTooLargeResponse({ description: 'The body is over the limit' })
  async import(@Req() req: Request): Promise<ServerWriteDto> {
    return this.admin.write(await readRegistryBody(req, true), 'upsert');
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One server: its record (secrets masked) and its tools as clients see them',
  })
  @ApiOkResponse({ type: ServerDetailDto })
  detail(@Param('id') id: string): ServerDetailDto {
    return this.admin.detail(id);
  }

  @Post()
  @ApiOperation({ summary: 'Add a server (409 when its server_id exists)' })
  @ApiBody(REGISTRY_BODY)
  @ApiCreatedResponse({ type: ServerWriteDto })
  @ApiBadRequestResponse({ description: BAD_BODY })
  @ApiConflictResponse({ description: 'The server exists, or its file cannot be written' })
  async create(@Req() req: Request): Promise<ServerWriteDto> {
    return this.admin.write(await readRegistryBody(req, false), 'create');
  }

  @Put(':id')
  @ApiOperation({ summary: "Replace a server's record (404 when there is none)" })
  @ApiBody(REGISTRY_BODY)
  @ApiOkResponse({ type: ServerWriteDto })
  @ApiBadRequestResponse({ description: BAD_BODY })
  @ApiConflictResponse({ description: 'The file that defines the server cannot be written' })
  async replace(@Param('id') id: string, @Req() req: Request): Promise<ServerWriteDto> {
    return this.admin.write(await readRegistryBody(req, false), 'replace', id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a server: the file (or record) that defines it is deleted' })
  @ApiOkResponse({ type: ServerWriteDto })
  @ApiConflictResponse({ description: 'The file that defines the server cannot be removed' })
  remove(@Param('id') id: string): Promise<ServerWriteDto> {
    return this.admin.remove(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Connect to the server on a throwaway connection and list its tools; nothing is kept',
  })
  @ApiOkResponse({ type: ProbeResultDto })
  @ApiTooManyRequestsResponse({ description: 'Four tests are running already' })
  test(@Param('id') id: string): Promise<ProbeResultDto> {
    return this.admin.test(id);
  }
}
