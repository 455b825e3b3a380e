import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const SERVER_STATES = ['Connected', 'Degraded', 'Down', 'Idle'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

export class ServerStatusDto {
  @ApiProperty() server_id!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() transport!: string;
  @ApiProperty({
    enum: SERVER_STATES,
    description:
      'Connected; Degraded (a crashed stdio child is being restarted, or connected but the last request failed); Down (given up on after repeated failures, or an HTTP upstream whose last connect failed); Idle (not running: not used yet, or reclaimed while idle)',
  })
  status!: ServerState;
  @ApiPropertyOptional({ nullable: true, type: String }) last_error!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) last_error_at!: string | null;
  @ApiProperty({ description: 'When the connection state last changed' }) status_since!: string;
  @ApiProperty({ description: 'Tools of this server in tools/list' }) tool_count!: number;
  @ApiProperty({ description: "A hash of the server's record (secrets included, not shown)" })
  revision!: string;
  @ApiProperty({ description: 'When this replica loaded the record as it is' }) updated_at!: string;
  @ApiProperty({ description: 'The registry file (or `postgres:` record) that defines it' })
  file!: string;
}

export class RejectedFileDto {
  @ApiProperty() file!: string;
  @ApiPropertyOptional() server_id?: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ type: [String] }) problems!: string[];
}

export class RegistryStateDto {
  @ApiProperty() revision!: string;
  @ApiProperty() loaded_at!: string;
  @ApiProperty({ enum: ['directory', 'postgres'] }) store!: string;
  @ApiProperty() degraded!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) degraded_reason!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) degraded_since!: string | null;
}

export class ServerListDto {
  @ApiProperty({ type: RegistryStateDto }) registry!: RegistryStateDto;
  @ApiProperty({ type: [ServerStatusDto] }) servers!: ServerStatusDto[];
  @ApiProperty({ type: [RejectedFileDto] }) rejected!: RejectedFileDto[];
  @ApiProperty({ type: [String] }) warnings!: string[];
}

export class ExposedToolDto {
  @ApiProperty({ description: 'The name clients see and call' }) name!: string;
  @ApiProperty({ description: "The upstream's own name" }) upstream_tool!: string;
  @ApiProperty({ description: 'The name was over 64 characters and was shortened' })
  shortened!: boolean;
}

export class ServerDetailDto extends ServerStatusDto {
  @ApiProperty({ description: 'The record as loaded, secrets masked as ***', type: Object })
  record!: Record<string, unknown>;
  @ApiProperty({ type: [ExposedToolDto] }) tools!: ExposedToolDto[];
}

export class ServerWriteDto {
  @ApiProperty() server_id!: string;
  @ApiProperty({ description: 'false when the record equals the one in force' }) changed!: boolean;
  @ApiProperty({ description: 'The registry revision after the change' }) revision!: string;
  @ApiProperty({ description: 'Announced to the other replicas (scale-out mode)' })
  propagated!: boolean;
  @ApiPropertyOptional({ description: 'The record as loaded, secrets masked', type: Object })
  record?: Record<string, unknown>;
}

export class ProbeToolDto {
  @ApiProperty() name!: string;
  @ApiProperty() exposed!: boolean;
}

export class ProbeResultDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty() server_id!: string;
  @ApiProperty() duration_ms!: number;
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional() tools?: number;
  @ApiPropertyOptional() allowed?: number;
  @ApiPropertyOptional({ type: [ProbeToolDto] }) tool_names?: ProbeToolDto[];
}
