import 'reflect-metadata';
import { plainToInstance, Transform, Type as TransformTo } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { Type } from '@nestjs/common';
import { Nullable } from './schema/schema.decorators';
import { generateDtoSchema } from './schema/dto-schema.generator';
import { classValidatorAccepts } from './schema/testing/parity';
import { compileSchemaExactCheck } from './schema-exact-dto.check';
import { instanceOfAccepted } from './tool-arguments.validator';

class WithDefault {
  @IsString() name!: string;
  @IsOptional() @IsInt() limit?: number = 10;

  describe(): string {
    return `${this.name}:${this.limit}`;
  }
}

class Flat {
  @IsString() @MinLength(2) @MaxLength(5) name!: string;
  @IsOptional() @IsInt() @Min(1) @Max(9) count?: number;
  @IsBoolean() flag!: boolean;
  @IsIn(['a', 'b']) mode!: string;
  @IsOptional() @IsNumber() ratio?: number;
}

class LoneBound {
  @Min(1) n!: number;
}
class Conditional {
  @ValidateIf((o: Conditional) => o.n !== 0) @IsInt() n!: number;
}
class Patterned {
  @IsString() @Matches(/^x/) s!: string;
}
class Each {
  @IsString({ each: true }) tags!: string[];
}
class Inner {
  @IsInt() n!: number;
}
class Nested {
  @ValidateNested() @TransformTo(() => Inner) inner!: Inner;
}
class Transformed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  s!: string;
}
class Decimals {
  @IsNumber({ maxDecimalPlaces: 1 }) n!: number;
}
class Grouped {
  @IsString({ groups: ['admin'] }) s!: string;
}
class NullableField {
  @Nullable() @IsString() s!: string | null;
}

const check = (dto: Type) => compileSchemaExactCheck(dto, generateDtoSchema(dto));

describe('compileSchemaExactCheck', () => {
  it('compiles a check for a DTO of typed, bounded and optional properties', () => {
    expect(check(Flat)).toBeDefined();
  });

  it('agrees with class-validator on valid and invalid arguments', async () => {
    const accepts = check(Flat)!;
    const valid = { name: 'abc', flag: true, mode: 'a' };
    const inputs: Array<Record<string, unknown>> = [
      valid,
      { ...valid, count: 9, ratio: 0.5 },
      { ...valid, count: null },
      { ...valid, name: 'a' },
      { ...valid, name: 'abcdef' },
      { ...valid, name: 3 },
      { ...valid, count: 10 },
      { ...valid, count: 1.5 },
      { ...valid, count: '3' },
      { ...valid, flag: 'true' },
      { ...valid, mode: 'c' },
      { ...valid, extra: 1 },
      { name: 'abc', flag: true },
      {},
    ];
    for (const input of inputs) {
      expect({ input, verdict: accepts(input) }).toEqual({
        input,
        verdict: await classValidatorAccepts(Flat, input),
      });
    }
  });

  it.each([
    ['a bound without its type', LoneBound],
    ['a conditional validator', Conditional],
    ['a pattern', Patterned],
    ['each', Each],
    ['a nested DTO', Nested],
    ['a class-transformer @Transform', Transformed],
    ['IsNumber options', Decimals],
    ['validation groups', Grouped],
    ['@Nullable', NullableField],
  ])('leaves a DTO with %s to class-validator alone', (_what, dto: Type) => {
    expect(check(dto)).toBeUndefined();
  });

  it('hands the handler what plainToInstance makes of accepted arguments: the class, its defaults', () => {
    expect(check(WithDefault)).toBeDefined();
    for (const args of [{ name: 'a' }, { name: 'b', limit: 3 }]) {
      const fast = instanceOfAccepted(WithDefault, args);
      expect(fast).toBeInstanceOf(WithDefault);
      expect(fast).toEqual(plainToInstance(WithDefault, args));
    }
    expect((instanceOfAccepted(WithDefault, { name: 'a' }) as WithDefault).describe()).toBe('a:10');
  });
});
