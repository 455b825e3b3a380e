import { Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsString,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

export class ClientInfoDto {
  @IsString()
  @MinLength(1)
  name!: string;

  @IsString()
  version!: string;
}

/** `initialize` params; unknown keys are kept (clients add their own). */
export class InitializeParamsDto {
  @IsString()
  @MinLength(1)
  protocolVersion!: string;

  // Absent is tolerated (older clients omit it); null or a non-object is refused.
  @ValidateIf((params: InitializeParamsDto) => params.capabilities !== undefined)
  @IsObject()
  capabilities: Record<string, unknown> = {};

  // IsObject: @ValidateNested alone would also accept an array (of anything, even empty).
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ClientInfoDto)
  clientInfo!: ClientInfoDto;
}
