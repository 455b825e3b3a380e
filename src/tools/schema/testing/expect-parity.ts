import type { Type } from '@nestjs/common';
import type Ajv2020 from 'ajv/dist/2020';
import { generateDtoSchema } from '../dto-schema.generator';
import { classValidatorAccepts } from './parity';

/** An input object and whether the gateway should accept it. */
export type ParityCase = readonly [input: object, accepted: boolean];

/**
 * Asserts that the generated schema (Ajv) and class-validator BOTH give the expected verdict on
 * every input; a failure lists each input with the two verdicts.
 */
export async function expectParity(
  ajv: Ajv2020,
  dto: Type,
  cases: readonly ParityCase[],
): Promise<void> {
  const validate = ajv.compile(generateDtoSchema(dto));
  const actual = await Promise.all(
    cases.map(async ([input]) => ({
      input,
      schema: validate(input),
      classValidator: await classValidatorAccepts(dto, input),
    })),
  );
  expect(actual).toEqual(
    cases.map(([input, accepted]) => ({ input, schema: accepted, classValidator: accepted })),
  );
}
