import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MinLength, validateSync } from 'class-validator';
import { generateDtoSchema } from './dto-schema.generator';
import { allowNull } from './null-schema';
import { Description, Nullable, OneOf } from './schema.decorators';

/** The properties class-validator reports as invalid (whitelist + forbidNonWhitelisted). */
function invalidProperties(dto: new () => object, input: object): string[] {
  return validateSync(plainToInstance(dto, input), {
    whitelist: true,
    forbidNonWhitelisted: true,
  }).map((error) => error.property);
}

class PointDto {
  @IsIn(['point']) kind!: 'point';
  @IsInt() x!: number;
}

class DecoratedDto {
  @Nullable() @IsString() @MinLength(2) nullableName!: string | null;
  @OneOf(String, Number, String) idOrName!: string | number;
  @OneOf(PointDto, Boolean) pointOrFlag!: PointDto | boolean;
  @IsOptional() @Description('Only documented') note?: string;
}

describe('schema decorators', () => {
  const valid = { nullableName: 'Al', idOrName: 1, pointOrFlag: true };

  describe('@Nullable', () => {
    it('lets null skip the other validators, but not undefined', () => {
      expect(invalidProperties(DecoratedDto, { ...valid, nullableName: null })).toEqual([]);
      expect(invalidProperties(DecoratedDto, { ...valid, nullableName: 'A' })).toEqual([
        'nullableName',
      ]);
      const missing: Partial<typeof valid> = { ...valid };
      delete missing.nullableName;
      expect(invalidProperties(DecoratedDto, missing)).toEqual(['nullableName']);
    });

    it('rejects symbol-keyed properties', () => {
      expect(() => Nullable()({}, Symbol('s'))).toThrow(TypeError);
    });
  });

  describe('@OneOf', () => {
    it('accepts a value matching any alternative', () => {
      expect(invalidProperties(DecoratedDto, { ...valid, idOrName: 'x' })).toEqual([]);
      expect(
        invalidProperties(DecoratedDto, { ...valid, pointOrFlag: { kind: 'point', x: 1 } }),
      ).toEqual([]);
    });

    it('rejects other types, invalid DTO values, unknown DTO properties and arrays', () => {
      for (const pointOrFlag of [
        'true',
        { kind: 'point', x: 1.5 },
        { kind: 'point', x: 1, y: 2 },
        [{ kind: 'point', x: 1 }],
        null,
      ]) {
        expect(invalidProperties(DecoratedDto, { ...valid, pointOrFlag })).toEqual(['pointOrFlag']);
      }
      expect(invalidProperties(DecoratedDto, { ...valid, idOrName: false })).toEqual(['idOrName']);
    });

    it('names the alternatives in its message', () => {
      const [error] = validateSync(plainToInstance(DecoratedDto, { ...valid, pointOrFlag: 1 }));
      expect(error?.constraints).toEqual({
        owlclawOneOf: 'pointOrFlag must be one of the following: PointDto, boolean',
      });
    });

    it('drops duplicate alternatives (oneOf would reject a value matching both copies)', () => {
      expect(generateDtoSchema(DecoratedDto).properties).toMatchObject({
        idOrName: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      });
    });
  });

  describe('@Description', () => {
    it('documents without validating', () => {
      expect(invalidProperties(DecoratedDto, { ...valid, note: 42 })).toEqual([]);
      expect(generateDtoSchema(DecoratedDto).properties).toMatchObject({
        note: { description: 'Only documented' },
      });
    });
  });
});

describe('allowNull', () => {
  it.each([
    [
      { type: 'string', minLength: 1 },
      { type: ['string', 'null'], minLength: 1 },
    ],
    [{ type: ['string', 'number'] }, { type: ['string', 'number', 'null'] }],
    [
      { description: 'd', enum: ['a'] },
      { description: 'd', anyOf: [{ enum: ['a'] }, { type: 'null' }] },
    ],
    [{ $ref: '#/$defs/A' }, { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] }],
    [{ type: ['string', 'null'] }, { type: ['string', 'null'] }],
    [{ description: 'anything' }, { description: 'anything' }],
    [{ enum: ['a', null] }, { enum: ['a', null] }],
    [
      { anyOf: [{ type: 'string' }, { type: 'null' }] },
      { anyOf: [{ type: 'string' }, { type: 'null' }] },
    ],
  ])('%j -> %j', (schema, expected) => {
    expect(allowNull(schema)).toEqual(expected);
  });
});
