import { BenchOptions } from './args';
import { CompiledBench } from './compile';

/** What every section gets: the options and the compiled child-process code. */
export interface BenchContext {
  options: BenchOptions;
  compiled: CompiledBench;
}

/** The compiled echo capability module (the trivial tool), for `capabilities.modules`. */
export function echoModule(ctx: BenchContext): string {
  return ctx.compiled.js('fixtures/echo.capability.ts');
}
