import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import fc from 'fast-check';
import { compileSchemaExactCheck } from '../schema-exact-dto.check';
import { instanceOfAccepted } from '../tool-arguments.validator';
import { generateDtoSchema } from './dto-schema.generator';
import { createAjv } from './testing/ajv';
import { buildDtoClass, classShape, ClassShape } from './testing/dto-shapes';
import { mutantValue, systematicMutants, validValue } from './testing/dto-values';
import { classValidatorAccepts } from './testing/parity';

/**
 * Random DTO shapes -> real decorated classes -> generated schemas. For every shape the schema
 * must be a valid 2020-12 schema that Ajv compiles, list exactly the shape's properties (required
 * = not optional), accept every valid value, and give the same verdict as class-validator on
 * valid values with one random change (dropped, replaced or extra property, at any depth).
 */
describe('generateDtoSchema on random DTO shapes', () => {
  const ajv = createAjv();

  it('publishes valid schemas that agree with class-validator', async () => {
    const runs = fc.asyncProperty(
      classShape().chain((shape: ClassShape) =>
        fc.record({
          shape: fc.constant(shape),
          valid: fc.array(validValue(shape), { minLength: 1, maxLength: 3 }),
          mutants: fc.array(mutantValue(shape), { minLength: 1, maxLength: 4 }),
        }),
      ),
      async ({ shape, valid, mutants }) => {
        const dto = buildDtoClass(shape);
        const schema = generateDtoSchema(dto);

        // (a) valid against the 2020-12 meta-schema, (b) compilable (strict: no stray keywords).
        expect(ajv.validateSchema(schema)).toBe(true);
        const validate = ajv.compile(schema);
        // The fast check tools/call uses for DTOs like this one, when it has one (flat shapes of
        // typed, bounded or optional properties: a few per run; schema-exact-dto.check.spec.ts
        // covers one deterministically).
        const accepts = compileSchemaExactCheck(dto, schema);

        // (c) top-level properties and required match the shape.
        const names = shape.properties.map((p) => p.name);
        const required = shape.properties.filter((p) => !p.optional).map((p) => p.name);
        expect(schema.type).toBe('object');
        expect(schema.additionalProperties).toBe(false);
        expect(Object.keys(schema.properties as object).sort()).toEqual([...names].sort());
        expect([...((schema.required as string[] | undefined) ?? [])].sort()).toEqual(
          [...required].sort(),
        );

        // (d) valid values pass both; mutants get the same verdict from both.
        for (const input of valid) {
          const verdict = {
            schema: validate(input),
            classValidator: await classValidatorAccepts(dto, input),
          };
          expect({ input, verdict }).toEqual({
            input,
            verdict: { schema: true, classValidator: true },
          });
          if (accepts) {
            const args = input as Record<string, unknown>;
            expect(accepts(args)).toBe(true);
            // What the handler gets on the fast path is what plainToInstance would have made.
            const fast = instanceOfAccepted(dto, args);
            expect(Object.getPrototypeOf(fast)).toBe(dto.prototype);
            expect({ ...fast }).toEqual({ ...(plainToInstance(dto, args) as object) });
          }
        }
        for (const input of [...mutants, ...valid.flatMap((v) => systematicMutants(v, shape))]) {
          const schemaVerdict = validate(input);
          const classValidatorVerdict = await classValidatorAccepts(dto, input);
          const fastVerdict = accepts?.(input) ?? classValidatorVerdict;
          if (schemaVerdict !== classValidatorVerdict || fastVerdict !== classValidatorVerdict) {
            throw new Error(
              `verdicts differ (schema: ${schemaVerdict}, fast check: ${fastVerdict}, class-validator: ${classValidatorVerdict})\n` +
                `input: ${JSON.stringify(input)}\nschema: ${JSON.stringify(schema)}`,
            );
          }
        }
      },
    );
    await fc.assert(runs, { numRuns: 150 });
    // Every run regenerates the library's schema map over a storage that keeps growing (metadata
    // cannot be unregistered), so this takes ~20 s here: give slower machines room.
  }, 180_000);
});
