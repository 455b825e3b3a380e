import { Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MinLength,
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

  @IsObject()
  @IsOptional()
  capabilities: Record<string, unknown> = {};

  // IsObject: @ValidateNested alone would also accept an array (of anything, even empty).
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ClientInfoDto)
  clientInfo!: ClientInfoDto;
}
