import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { REGISTRY_LIMITS } from '../upstream-registry.limits';
import { REGISTRY_FORMATS, RegistryFormat } from '../upstream-record.store';

/** POST /admin/mcp/servers/import as JSON: a registry file's text and its format. */
export class RegistryImportDto {
  @ApiProperty({ enum: REGISTRY_FORMATS, description: 'How to read `content`' })
  @IsIn(REGISTRY_FORMATS, { message: `must be one of ${REGISTRY_FORMATS.join(', ')}` })
  format!: RegistryFormat;

  @ApiProperty({ description: 'The registry file, as it would be on disk' })
  @IsString({ message: 'must be a string' })
  @MaxLength(REGISTRY_LIMITS.maxFileBytes, {
    message: `must be at most ${REGISTRY_LIMITS.maxFileBytes} characters`,
  })
  content!: string;
}
