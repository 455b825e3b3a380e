import { keyLabel, Problem } from './config-problem';

/*
 * The standard OpenTelemetry variables, read as one more layer of the
 * configuration: above the file (operators expect the environment to win),
 * below the gateway's own MCP_SERVER_TRACING_* variables, which are more
 * specific. OTEL_SDK_DISABLED=true is applied last and beats everything.
 */

export const OTEL_SDK_DISABLED = 'OTEL_SDK_DISABLED';

export interface OtelEnvLayer {
  /** `{ tracing: {...} }`, merged like the MCP_SERVER_* layer. */
  values: Record<string, unknown>;
  /** Dotted key path -> "env NAME". */
  origins: Map<string, string>;
  /** OTEL_SDK_DISABLED=true: tracing stays off whatever else says. */
  disabled: boolean;
}

/** Variables holding a whole number of a tracing key, first found wins. */
const NUMBER_VARIABLES: ReadonlyArray<{ key: string; names: readonly string[] }> = [
  {
    key: 'export_timeout_ms',
    names: ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT'],
  },
  { key: 'schedule_delay_ms', names: ['OTEL_BSP_SCHEDULE_DELAY'] },
  { key: 'max_queue_size', names: ['OTEL_BSP_MAX_QUEUE_SIZE'] },
  { key: 'max_export_batch_size', names: ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE'] },
];

/** The signal's own variable wins over the one for every signal, as the specification says. */
const PROTOCOL_VARIABLES = ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL'];

/** The samplers of the specification, as the ratio of the gateway's parent-based ratio sampler. */
const FIXED_SAMPLERS: Readonly<Record<string, number>> = {
  always_on: 1,
  parentbased_always_on: 1,
  always_off: 0,
  parentbased_always_off: 0,
};
const RATIO_SAMPLERS = new Set(['traceidratio', 'parentbased_traceidratio']);

export function readOtelEnv(env: NodeJS.ProcessEnv, problems: Problem[]): OtelEnvLayer {
  const tracing: Record<string, unknown> = {};
  const origins = new Map<string, string>();
  const set = (key: string, value: unknown, name: string): void => {
    tracing[key] = value;
    origins.set(`tracing.${key}`, `env ${name}`);
  };

  const endpoint = readEndpoint(env);
  if (endpoint) {
    set('endpoint', endpoint.url, endpoint.name);
    set('enabled', true, endpoint.name);
  }
  const protocol = firstSet(env, PROTOCOL_VARIABLES);
  // Passed on as written: the schema refuses grpc and anything else, naming this variable.
  if (protocol !== undefined) set('protocol', text(env, protocol), protocol);
  const serviceName = text(env, 'OTEL_SERVICE_NAME');
  if (serviceName !== undefined) set('service_name', serviceName, 'OTEL_SERVICE_NAME');
  const ratio = readSampler(env, problems);
  if (ratio) set('sample_ratio', ratio.value, ratio.name);
  for (const { key, names } of NUMBER_VARIABLES) {
    const name = firstSet(env, names);
    if (name === undefined) continue;
    const raw = text(env, name) ?? '';
    if (/^\d+$/.test(raw)) set(key, Number(raw), name);
    else problems.push(notANumber(key, name, raw, 'must be a whole number'));
  }

  const disabled = text(env, OTEL_SDK_DISABLED)?.toLowerCase() === 'true';
  return { values: Object.keys(tracing).length > 0 ? { tracing } : {}, origins, disabled };
}

/** The traces endpoint: the signal's own variable as is, else the base endpoint plus /v1/traces. */
function readEndpoint(env: NodeJS.ProcessEnv): { url: string; name: string } | undefined {
  const traces = text(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (traces !== undefined) return { url: traces, name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = text(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (base === undefined) return undefined;
  return { url: `${base.replace(/\/+$/, '')}/v1/traces`, name: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
}

/**
 * OTEL_TRACES_SAMPLER(_ARG) as a sampling ratio. The gateway always honours
 * a sampled caller (parent-based), so `traceidratio` reads as
 * `parentbased_traceidratio`; a sampler it does not have is refused.
 */
function readSampler(
  env: NodeJS.ProcessEnv,
  problems: Problem[],
): { value: number; name: string } | undefined {
  const sampler = text(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (sampler === undefined) return undefined;
  if (sampler in FIXED_SAMPLERS) {
    return { value: FIXED_SAMPLERS[sampler], name: 'OTEL_TRACES_SAMPLER' };
  }
  if (!RATIO_SAMPLERS.has(sampler)) {
    problems.push({
      subject: keyLabel(['tracing', 'sample_ratio']),
      message: `unknown sampler ${JSON.stringify(sampler.slice(0, 64))}: use parentbased_traceidratio (with OTEL_TRACES_SAMPLER_ARG), parentbased_always_on or parentbased_always_off`,
      origin: 'env OTEL_TRACES_SAMPLER',
    });
    return undefined;
  }
  const arg = text(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg === undefined) return { value: 1, name: 'OTEL_TRACES_SAMPLER' };
  const value = /^\d*\.?\d+$/.test(arg) ? Number(arg) : Number.NaN;
  if (value >= 0 && value <= 1) return { value, name: 'OTEL_TRACES_SAMPLER_ARG' };
  problems.push(
    notANumber('sample_ratio', 'OTEL_TRACES_SAMPLER_ARG', arg, 'must be a number from 0 to 1'),
  );
  return undefined;
}

/** A variable's trimmed value; empty counts as unset, as the specification says. */
function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The first of `names` that is set (not empty). */
function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  return names.find((name) => text(env, name) !== undefined);
}

function notANumber(key: string, name: string, raw: string, message: string): Problem {
  return {
    subject: keyLabel(['tracing', key]),
    message: `${message}, got ${JSON.stringify(raw.slice(0, 64))}`,
    origin: `env ${name}`,
  };
}
