import fc from 'fast-check';
import { generateDtoSchema } from './dto-schema.generator';
import { buildDtoClass, classShape } from './testing/dto-shapes';
import { systematicMutants, validValue } from './testing/dto-values';
import { createAjv } from './testing/ajv';
import { classValidatorAccepts } from './testing/parity';
it('timing', async () => {
  const shapes = fc.sample(classShape(), { numRuns: 150, seed: 1 });
  let gen = 0, ajvT = 0, cv = 0, build = 0, n = 0;
  const ajv = createAjv();
  for (const shape of shapes) {
    let t = performance.now();
    const dto = buildDtoClass(shape);
    build += performance.now() - t; t = performance.now();
    const schema = generateDtoSchema(dto);
    gen += performance.now() - t; t = performance.now();
    const v = ajv.compile(schema);
    ajvT += performance.now() - t; t = performance.now();
    const [val] = fc.sample(validValue(shape), { numRuns: 1, seed: 2 });
    const muts = systematicMutants(val!, shape);
    n += muts.length;
    for (const m of muts) { v(m); await classValidatorAccepts(dto, m); }
    cv += performance.now() - t;
  }
  console.log({ build, gen, ajvT, cv, n });
}, 300000);
