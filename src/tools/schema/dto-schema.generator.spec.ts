import 'reflect-metadata';
import type { Type as ClassType } from '@nestjs/common';
import { Expose, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { generateDtoSchema } from './dto-schema.generator';
import { Description, Nullable, OneOf } from './schema.decorators';
import { createAjv } from './testing/ajv';
import { expectParity } from './testing/expect-parity';
import { classValidatorAccepts } from './testing/parity';

// ---------------------------------------------------------------------------------------------
// DTOs (class names are unique in this file: schemas are keyed by class name).

enum Priority {
  Low = 1,
  High = 2,
}

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

class PrimitivesDto {
  @IsString() name!: string;
  @IsNumber() ratio!: number;
  @IsInt() count!: number;
  @IsBoolean() enabled!: boolean;
}

class BoundsDto {
  // TypeScript applies decorators bottom-up: class-validator registers Max, Min, then IsInt.
  @IsInt() @Min(1) @Max(10) pages!: number;
  // ...and here IsInt first: the library alone would publish Min's `type: 'number'`.
  @Min(0) @Max(1) @IsInt() bit!: number;
  @IsNumber() @Min(-1.5) offset!: number;
  @Min(0) weight!: number;
}

class EnumsDto {
  @IsEnum(Colour) colour!: Colour;
  @IsEnum(Priority) priority!: Priority;
  @IsIn(['asc', 'desc']) order!: string;
  @IsIn([1, 'one', true]) mixed!: number | string | boolean;
}

class TagDto {
  @IsString() @MinLength(1) label!: string;
}

class ArraysDto {
  @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags!: string[];
  @IsArray() @IsInt({ each: true }) @Min(0, { each: true }) scores!: number[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => TagDto) items!: TagDto[];
}

@Description('A postal address')
class AddressDto {
  @IsString() street!: string;
  @IsOptional() @IsString() @Length(4, 10) zip?: string;
}

@Description('A customer')
class CustomerDto {
  @Description('Where the customer lives')
  @ValidateNested()
  @Type(() => AddressDto)
  @IsObject()
  home!: AddressDto;

  @IsOptional() @ValidateNested() @Type(() => AddressDto) @IsObject() work?: AddressDto;
}

class TreeNodeDto {
  @IsString() label!: string;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TreeNodeDto)
  children?: TreeNodeDto[];
}

class DepartmentDto {
  @IsString() name!: string;
  // A union type, so the decorator metadata does not read EmployeeDto before it is defined.
  @IsOptional() @ValidateNested() @Type(() => EmployeeDto) @IsObject() head?: EmployeeDto | null;
}

class EmployeeDto {
  @IsString() name!: string;
  @IsOptional() @ValidateNested() @Type(() => DepartmentDto) @IsObject() department?: DepartmentDto;
}

class OrgChartDto {
  @ValidateNested() @Type(() => DepartmentDto) @IsObject() root!: DepartmentDto;
}

class NullabilityDto {
  @IsOptional() @IsString() nickname?: string;
  @Nullable() @IsString() @MaxLength(5) middleName!: string | null;
  @Nullable() @IsEnum(Colour) colour!: Colour | null;
  @IsOptional() @Nullable() @IsInt() age?: number | null;
  @Nullable() @ValidateNested() @Type(() => AddressDto) @IsObject() address!: AddressDto | null;
}

class CircleDto {
  @IsIn(['circle']) kind!: 'circle';
  @IsNumber() @Min(0) radius!: number;
}

class SquareDto {
  @IsIn(['square']) kind!: 'square';
  @IsNumber() @Min(0) side!: number;
}

class UnionsDto {
  @Description('An id or a name') @OneOf(String, Number) key!: string | number;
  @OneOf(Boolean, CircleDto) flagOrCircle!: boolean | CircleDto;
  @OneOf(CircleDto, SquareDto) shape!: CircleDto | SquareDto;
  @Nullable() @OneOf(String, Number) maybe!: string | number | null;
}

class StringsDto {
  @IsString() @MinLength(2) @MaxLength(5) code!: string;
  @IsString() @Length(3, 3) iso!: string;
  @IsString() @Matches(/^[A-Z]{2}-\d+$/) ref!: string;
}

class FormatsDto {
  @IsEmail() email!: string;
  @IsUrl() homepage!: string;
  @IsUUID() id!: string;
  @IsDateString() createdAt!: string;
}

@Description('Search request')
class DescribedDto {
  @Description('Free text') @IsString() query!: string;
  // A plain @JSONSchema written below ours is kept (ours are applied after it).
  @Description('Page size') @JSONSchema({ examples: [10] }) @IsInt() limit!: number;
  @Description('Text or number') @OneOf(String, Number) either!: string | number;
  @OneOf(String, Number) @Description('Number or text') other!: string | number;
}

class RenamedDto {
  @Expose({ name: 'page_size' }) @IsOptional() @IsInt() pageSize?: number;
}

class ContradictionDto {
  @IsString() @IsInt() impossible!: unknown;
}

class BaseQueryDto {
  @IsString() query!: string;
}

class PagedQueryDto extends BaseQueryDto {
  @IsOptional() @IsInt() @Min(1) page?: number;
}

class AliasQueryDto extends BaseQueryDto {}

@Description('No arguments')
class NoArgumentsDto {}

const ALL_DTOS: ClassType[] = [
  PrimitivesDto,
  BoundsDto,
  EnumsDto,
  ArraysDto,
  CustomerDto,
  TreeNodeDto,
  OrgChartDto,
  NullabilityDto,
  UnionsDto,
  StringsDto,
  FormatsDto,
  DescribedDto,
  RenamedDto,
  ContradictionDto,
  PagedQueryDto,
  AliasQueryDto,
  NoArgumentsDto,
];

// Reusable expected fragments.
const ADDRESS_PROPERTIES = {
  street: { type: 'string' },
  zip: { type: ['string', 'null'], minLength: 4, maxLength: 10 },
};
const ADDRESS_SCHEMA = {
  type: 'object',
  description: 'A postal address',
  properties: ADDRESS_PROPERTIES,
  required: ['street'],
  additionalProperties: false,
};
const CIRCLE_SCHEMA = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['circle'] },
    radius: { type: 'number', minimum: 0 },
  },
  required: ['kind', 'radius'],
  additionalProperties: false,
};
const SQUARE_SCHEMA = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['square'] },
    side: { type: 'number', minimum: 0 },
  },
  required: ['kind', 'side'],
  additionalProperties: false,
};

// ---------------------------------------------------------------------------------------------

describe('generateDtoSchema', () => {
  const ajv = createAjv();

  describe.each(ALL_DTOS.map((dto) => [dto.name, dto] as const))('%s', (_name, dto) => {
    it('is a valid JSON Schema 2020-12 object schema that Ajv compiles', () => {
      const schema = generateDtoSchema(dto);
      expect(ajv.validateSchema(schema)).toBe(true);
      expect(() => ajv.compile(schema)).not.toThrow();
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    });
  });

  describe('primitives', () => {
    it('maps string, number, integer and boolean, all required', () => {
      expect(generateDtoSchema(PrimitivesDto)).toEqual({
        type: 'object',
        properties: {
          name: { type: 'string' },
          ratio: { type: 'number' },
          count: { type: 'integer' },
          enabled: { type: 'boolean' },
        },
        required: ['name', 'ratio', 'count', 'enabled'],
        additionalProperties: false,
      });
    });

    it('agrees with class-validator', async () => {
      const valid = { name: 'a', ratio: 0.5, count: 2, enabled: false };
      await expectParity(ajv, PrimitivesDto, [
        [valid, true],
        [{ ...valid, count: 2.5 }, false],
        [{ ...valid, ratio: '0.5' }, false],
        [{ ...valid, enabled: 'false' }, false],
        [{ ...valid, name: null }, false],
        [{ ...valid, extra: 1 }, false],
        [{ name: 'a', ratio: 1, count: 1 }, false],
      ]);
    });
  });

  describe('bounds', () => {
    it('keeps "integer" whatever the decorator order (types intersect, they do not overwrite)', () => {
      expect(generateDtoSchema(BoundsDto).properties).toEqual({
        pages: { type: 'integer', minimum: 1, maximum: 10 },
        bit: { type: 'integer', minimum: 0, maximum: 1 },
        offset: { type: 'number', minimum: -1.5 },
        weight: { type: 'number', minimum: 0 },
      });
    });

    it('agrees with class-validator', async () => {
      const valid = { pages: 1, bit: 0, offset: -1.5, weight: 0 };
      await expectParity(ajv, BoundsDto, [
        [valid, true],
        [{ ...valid, pages: 10 }, true],
        [{ ...valid, pages: 11 }, false],
        [{ ...valid, bit: 0.5 }, false],
        [{ ...valid, offset: -1.6 }, false],
        [{ ...valid, weight: '1' }, false],
      ]);
    });

    it('publishes an unsatisfiable schema for contradictory validators, as validation rejects all', async () => {
      expect(generateDtoSchema(ContradictionDto).properties).toEqual({ impossible: { not: {} } });
      await expectParity(ajv, ContradictionDto, [
        [{ impossible: 'a' }, false],
        [{ impossible: 1 }, false],
      ]);
    });
  });

  describe('enums', () => {
    it('maps string and numeric TypeScript enums and @IsIn lists to enum (typed when uniform)', () => {
      expect(generateDtoSchema(EnumsDto).properties).toEqual({
        colour: { type: 'string', enum: ['red', 'blue'] },
        priority: { type: 'number', enum: [1, 2] },
        order: { type: 'string', enum: ['asc', 'desc'] },
        mixed: { enum: [1, 'one', true] },
      });
    });

    it('agrees with class-validator', async () => {
      const valid = { colour: 'red', priority: 2, order: 'asc', mixed: true };
      await expectParity(ajv, EnumsDto, [
        [valid, true],
        [{ ...valid, mixed: 'one' }, true],
        [{ ...valid, colour: 'green' }, false],
        [{ ...valid, priority: 3 }, false],
        [{ ...valid, priority: '2' }, false],
        [{ ...valid, order: 'ASC' }, false],
        [{ ...valid, mixed: false }, false],
      ]);
    });
  });

  describe('arrays', () => {
    it('types the items (primitives and DTOs) and keeps the size limits', () => {
      expect(generateDtoSchema(ArraysDto).properties).toEqual({
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        scores: { type: 'array', items: { type: 'integer', minimum: 0 } },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { label: { type: 'string', minLength: 1 } },
            required: ['label'],
            additionalProperties: false,
          },
        },
      });
    });

    it('agrees with class-validator', async () => {
      const valid = { tags: ['a'], scores: [0, 3], items: [{ label: 'x' }] };
      await expectParity(ajv, ArraysDto, [
        [valid, true],
        [{ ...valid, scores: [], items: [] }, true],
        [{ ...valid, tags: [] }, false],
        [{ ...valid, tags: ['a', 'b', 'c', 'd'] }, false],
        [{ ...valid, tags: ['a', 1] }, false],
        [{ ...valid, scores: [-1] }, false],
        [{ ...valid, scores: [1.5] }, false],
        [{ ...valid, items: [{ label: '' }] }, false],
        [{ ...valid, items: [{ label: 'x', extra: true }] }, false],
        [{ ...valid, items: [null] }, false],
        [{ ...valid, items: { label: 'x' } }, false],
      ]);
    });
  });

  describe('nested DTOs', () => {
    it('inlines them, the property description winning over the class one', () => {
      expect(generateDtoSchema(CustomerDto)).toEqual({
        type: 'object',
        description: 'A customer',
        properties: {
          home: { ...ADDRESS_SCHEMA, description: 'Where the customer lives' },
          work: { anyOf: [ADDRESS_SCHEMA, { type: 'null' }] },
        },
        required: ['home'],
        additionalProperties: false,
      });
    });

    it('agrees with class-validator', async () => {
      const home = { street: 'Main St' };
      await expectParity(ajv, CustomerDto, [
        [{ home }, true],
        [{ home: { ...home, zip: '12345' }, work: null }, true],
        [{ home: { ...home, zip: '123' } }, false],
        [{ home: { ...home, extra: 1 } }, false],
        [{ home: {} }, false],
        [{ home: [home] }, false],
        [{ home: 'Main St' }, false],
        [{ home: null }, false],
        [{}, false],
      ]);
    });

    it('keeps recursive DTOs as $refs into $defs', () => {
      const node = {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: ['array', 'null'], items: { $ref: '#/$defs/TreeNodeDto' } },
        },
        required: ['label'],
        additionalProperties: false,
      };
      expect(generateDtoSchema(TreeNodeDto)).toEqual({ ...node, $defs: { TreeNodeDto: node } });
    });

    it('defines only the classes on a cycle, inlining the rest', () => {
      const department = {
        type: 'object',
        properties: {
          name: { type: 'string' },
          head: { anyOf: [{ $ref: '#/$defs/EmployeeDto', type: 'object' }, { type: 'null' }] },
        },
        required: ['name'],
        additionalProperties: false,
      };
      const employee = {
        type: 'object',
        properties: {
          name: { type: 'string' },
          department: {
            anyOf: [{ $ref: '#/$defs/DepartmentDto', type: 'object' }, { type: 'null' }],
          },
        },
        required: ['name'],
        additionalProperties: false,
      };
      expect(generateDtoSchema(OrgChartDto)).toEqual({
        type: 'object',
        properties: { root: { $ref: '#/$defs/DepartmentDto', type: 'object' } },
        required: ['root'],
        additionalProperties: false,
        $defs: { DepartmentDto: department, EmployeeDto: employee },
      });
    });

    it('agrees with class-validator on recursive data', async () => {
      await expectParity(ajv, TreeNodeDto, [
        [{ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] }, true],
        [{ label: 'a', children: null }, true],
        [{ label: 'a', children: [{ label: 'b', children: [{}] }] }, false],
        [{ label: 'a', children: [{ label: 'b', extra: 1 }] }, false],
      ]);
      await expectParity(ajv, OrgChartDto, [
        [{ root: { name: 'R&D', head: { name: 'Ada', department: { name: 'Ops' } } } }, true],
        [{ root: { name: 'R&D', head: { name: 'Ada', department: { name: 1 } } } }, false],
      ]);
    });
  });

  describe('optional and nullable', () => {
    it('leaves @IsOptional out of required and admits null where validation skips it', () => {
      expect(generateDtoSchema(NullabilityDto)).toEqual({
        type: 'object',
        properties: {
          nickname: { type: ['string', 'null'] },
          middleName: { type: ['string', 'null'], maxLength: 5 },
          colour: { anyOf: [{ type: 'string', enum: ['red', 'blue'] }, { type: 'null' }] },
          age: { type: ['integer', 'null'] },
          address: { anyOf: [ADDRESS_SCHEMA, { type: 'null' }] },
        },
        required: ['middleName', 'colour', 'address'],
        additionalProperties: false,
      });
    });

    it('agrees with class-validator', async () => {
      const nulls = { middleName: null, colour: null, address: null };
      await expectParity(ajv, NullabilityDto, [
        [nulls, true],
        [{ ...nulls, nickname: null, age: null }, true],
        [{ ...nulls, nickname: 'Bob', age: 3, colour: 'blue', middleName: 'Jo' }, true],
        [{ ...nulls, address: { street: 'x' } }, true],
        [{ colour: null, address: null }, false],
        [{ ...nulls, middleName: 'Johnny' }, false],
        [{ ...nulls, colour: 'green' }, false],
        [{ ...nulls, age: 1.5 }, false],
        [{ ...nulls, nickname: 1 }, false],
        [{ ...nulls, address: {} }, false],
      ]);
    });
  });

  describe('unions', () => {
    it('uses oneOf for disjoint alternatives and anyOf for two DTOs', () => {
      expect(generateDtoSchema(UnionsDto).properties).toEqual({
        key: { description: 'An id or a name', oneOf: [{ type: 'string' }, { type: 'number' }] },
        flagOrCircle: { oneOf: [{ type: 'boolean' }, CIRCLE_SCHEMA] },
        shape: { anyOf: [CIRCLE_SCHEMA, SQUARE_SCHEMA] },
        maybe: { anyOf: [{ oneOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }] },
      });
    });

    it('agrees with class-validator', async () => {
      const circle = { kind: 'circle', radius: 1 };
      const valid = { key: 'k', flagOrCircle: true, shape: circle, maybe: null };
      await expectParity(ajv, UnionsDto, [
        [valid, true],
        [{ ...valid, key: 7, flagOrCircle: circle, shape: { kind: 'square', side: 2 } }, true],
        [{ ...valid, maybe: 'x' }, true],
        [{ ...valid, key: true }, false],
        [{ ...valid, key: null }, false],
        [{ ...valid, flagOrCircle: 'true' }, false],
        [{ ...valid, flagOrCircle: { ...circle, radius: -1 } }, false],
        [{ ...valid, flagOrCircle: { ...circle, extra: 1 } }, false],
        [{ ...valid, flagOrCircle: [circle] }, false],
        [{ ...valid, shape: { kind: 'square', radius: 1 } }, false],
        [{ ...valid, maybe: false }, false],
      ]);
    });
  });

  describe('strings and formats', () => {
    it('maps lengths and patterns', () => {
      expect(generateDtoSchema(StringsDto).properties).toEqual({
        code: { type: 'string', minLength: 2, maxLength: 5 },
        iso: { type: 'string', minLength: 3, maxLength: 3 },
        ref: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' },
      });
    });

    it('maps @IsEmail, @IsUrl, @IsUUID and @IsDateString to standard formats', () => {
      expect(generateDtoSchema(FormatsDto).properties).toEqual({
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
        createdAt: { type: 'string', format: 'date-time' },
      });
    });

    it('agrees with class-validator', async () => {
      await expectParity(ajv, StringsDto, [
        [{ code: 'ab', iso: 'FRA', ref: 'AB-12' }, true],
        [{ code: 'a', iso: 'FRA', ref: 'AB-12' }, false],
        [{ code: 'abcdef', iso: 'FRA', ref: 'AB-12' }, false],
        [{ code: 'ab', iso: 'FR', ref: 'AB-12' }, false],
        [{ code: 'ab', iso: 'FRA', ref: 'ab-12' }, false],
      ]);
      const valid = {
        email: 'ada@example.com',
        homepage: 'https://example.com/a?b=c',
        id: '3b241101-e2bb-4255-8caf-4136c566a962',
        createdAt: '2024-05-01T10:00:00Z',
      };
      await expectParity(ajv, FormatsDto, [
        [valid, true],
        [{ ...valid, createdAt: '2024-05-01T10:00:00.123+02:00' }, true],
        [{ ...valid, email: 'ada' }, false],
        [{ ...valid, homepage: 'not a url' }, false],
        [{ ...valid, id: '3b241101' }, false],
        [{ ...valid, createdAt: 'yesterday' }, false],
      ]);
    });
  });

  describe('descriptions', () => {
    it('sets class and property descriptions, composing with @OneOf and a plain @JSONSchema', () => {
      expect(generateDtoSchema(DescribedDto)).toEqual({
        type: 'object',
        description: 'Search request',
        properties: {
          query: { type: 'string', description: 'Free text' },
          limit: { type: 'integer', examples: [10], description: 'Page size' },
          either: {
            oneOf: [{ type: 'string' }, { type: 'number' }],
            description: 'Text or number',
          },
          other: { oneOf: [{ type: 'string' }, { type: 'number' }], description: 'Number or text' },
        },
        required: ['query', 'limit', 'either', 'other'],
        additionalProperties: false,
      });
    });
  });

  describe('other class shapes', () => {
    it('uses the @Expose name of a renamed property', async () => {
      expect(generateDtoSchema(RenamedDto)).toEqual({
        type: 'object',
        properties: { page_size: { type: ['integer', 'null'] } },
        additionalProperties: false,
      });
      await expectParity(ajv, RenamedDto, [
        [{ page_size: 5 }, true],
        [{}, true],
        [{ page_size: 'x' }, false],
      ]);
    });

    it('includes inherited properties', () => {
      expect(generateDtoSchema(PagedQueryDto)).toEqual({
        type: 'object',
        properties: {
          page: { type: ['integer', 'null'], minimum: 1 },
          query: { type: 'string' },
        },
        required: ['query'],
        additionalProperties: false,
      });
      expect(generateDtoSchema(AliasQueryDto)).toEqual(generateDtoSchema(BaseQueryDto));
    });

    it('gives a DTO without validation metadata an empty object schema', () => {
      expect(generateDtoSchema(NoArgumentsDto)).toEqual({
        type: 'object',
        description: 'No arguments',
        properties: {},
        additionalProperties: false,
      });
    });
  });

  describe('caching and late classes', () => {
    it('returns equal copies that callers may mutate', () => {
      const first = generateDtoSchema(PrimitivesDto);
      first.properties = {};
      const second = generateDtoSchema(PrimitivesDto);
      expect(second.properties).toHaveProperty('name');
      expect(second).not.toBe(generateDtoSchema(PrimitivesDto));
    });

    it('sees classes registered after an earlier generation', () => {
      generateDtoSchema(PrimitivesDto);
      class LateCapabilityInput {
        @IsString() late!: string;
      }
      class LateWrapperInput {
        @ValidateNested() @Type(() => LateCapabilityInput) @IsObject() inner!: LateCapabilityInput;
      }
      class LatePagedQueryDto extends BaseQueryDto {
        @IsInt() late!: number;
      }
      expect(generateDtoSchema(LatePagedQueryDto).properties).toEqual({
        late: { type: 'integer' },
        query: { type: 'string' },
      });
      expect(generateDtoSchema(LateWrapperInput).properties).toEqual({
        inner: {
          type: 'object',
          properties: { late: { type: 'string' } },
          required: ['late'],
          additionalProperties: false,
        },
      });
    });
  });

  describe('errors', () => {
    it('refuses a class name shared by two DTO classes (the library keys schemas by name)', () => {
      const makeTwin = (): ClassType => {
        class Twin {
          @IsString() value!: string;
        }
        Object.defineProperty(Twin, 'name', { value: 'SharedNameDto' });
        return Twin;
      };
      expect(generateDtoSchema(makeTwin()).properties).toEqual({ value: { type: 'string' } });
      // Registered later (another capability module): converted in a later batch, still caught.
      expect(() => generateDtoSchema(makeTwin())).toThrow(/"SharedNameDto".*Rename one/s);
    });

    it('names the property whose @ValidateNested has no @Type', () => {
      class UntypedNestedDto {
        @ValidateNested() thing!: object;
      }
      expect(() => generateDtoSchema(UntypedNestedDto)).toThrow(
        /UntypedNestedDto\.thing: @ValidateNested\(\) needs @Type/,
      );
    });
  });

  describe('known deviations: the schema is stricter where class-validator is loose', () => {
    it('@ValidateNested() alone also accepts a missing value or an array (add @IsObject())', async () => {
      class LooseNestedDto {
        @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
      }
      const validate = ajv.compile(generateDtoSchema(LooseNestedDto));
      for (const input of [{}, { address: [] }, { address: [{ street: 'x' }] }]) {
        expect(validate(input)).toBe(false);
        expect(await classValidatorAccepts(LooseNestedDto, input)).toBe(true);
      }
    });

    it('{ each: true } without @IsArray() also validates a single value', async () => {
      class LooseEachDto {
        @IsString({ each: true }) tags!: string[];
      }
      expect(generateDtoSchema(LooseEachDto).properties).toEqual({
        tags: { type: 'array', items: { type: 'string' } },
      });
      expect(ajv.compile(generateDtoSchema(LooseEachDto))({ tags: 'x' })).toBe(false);
      expect(await classValidatorAccepts(LooseEachDto, { tags: 'x' })).toBe(true);
    });

    it('@IsEnum(NumericEnum) also accepts member names, which the schema does not advertise', async () => {
      const validate = ajv.compile(generateDtoSchema(EnumsDto));
      const input = { colour: 'red', priority: 'Low', order: 'asc', mixed: 1 };
      expect(validate(input)).toBe(false);
      expect(await classValidatorAccepts(EnumsDto, input)).toBe(true);
    });
  });
});
