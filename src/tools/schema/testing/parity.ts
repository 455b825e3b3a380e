import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';

/**
 * The gateway's verdict on `input` for `dto`: class-transformer, then class-validator with
 * unknown properties forbidden — what the generated schema must agree with.
 */
export async function classValidatorAccepts(dto: Type, input: object): Promise<boolean> {
  const instance = plainToInstance(dto, input) as object;
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  return errors.length === 0;
}
