import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadGatewayConfig, LoadGatewayConfigOptions } from './config.loader';
import { ConfigValidationError } from './config-validation.error';
import { DEFAULT_TRACES_ENDPOINT } from './config-tracing.schema';
import { TracingConfig } from './gateway-config';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracing-config-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Loads with an isolated cwd and env, from a file holding `tracing` when one is given. */
function tracing(
  env: NodeJS.ProcessEnv,
  fileTracing?: string,
  more: LoadGatewayConfigOptions = {},
) {
  let configPath: string | undefined;
  if (fileTracing !== undefined) {
    configPath = path.join(dir, 'gateway.yaml');
    fs.writeFileSync(configPath, `mcp_server:\n  tracing:\n${fileTracing}`);
  }
  return loadGatewayConfig({ cwd: dir, env, configPath, ...more }).tracing;
}

function problems(env: NodeJS.ProcessEnv, fileTracing?: string): readonly string[] {
  try {
    tracing(env, fileTracing);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('tracing config and the OTEL_* variables', () => {
  it('is off by default, with the SDKs’ default endpoint', () => {
    expect(tracing({})).toEqual<TracingConfig>({
      enabled: false,
      endpoint: DEFAULT_TRACES_ENDPOINT,
      protocol: 'http/protobuf',
      sample_ratio: 1,
      service_name: 'owlclaw-mcp-gateway',
      export_timeout_ms: 10_000,
      schedule_delay_ms: 5000,
      max_queue_size: 2048,
      max_export_batch_size: 512,
    });
  });

  it('switches on with OTEL_EXPORTER_OTLP_ENDPOINT alone, appending /v1/traces', () => {
    const cfg = tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    expect(cfg.enabled).toBe(true);
    expect(cfg.endpoint).toBe('http://collector:4318/v1/traces');
  });

  it('takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, over the base endpoint', () => {
    const cfg = tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
    });
    expect(cfg.enabled).toBe(true);
    expect(cfg.endpoint).toBe('https://traces.example/otlp');
  });

  it('lets the environment win over the file, even a file that turns tracing off', () => {
    const cfg = tracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_SERVICE_NAME: 'gw-east' },
      '    enabled: false\n    endpoint: http://file:4318/v1/traces\n    service_name: from-file\n',
    );
    expect(cfg).toMatchObject({
      enabled: true,
      endpoint: 'http://env:4318/v1/traces',
      service_name: 'gw-east',
    });
  });

  it('lets the gateway’s own MCP_SERVER_TRACING_* variables win over OTEL_*', () => {
    const cfg = tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
      MCP_SERVER_TRACING_ENABLED: 'false',
      MCP_SERVER_TRACING_SAMPLE_RATIO: '0.5',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    expect(cfg.enabled).toBe(false);
    expect(cfg.sample_ratio).toBe(0.5);
  });

  it('switches off with OTEL_SDK_DISABLED=true whatever the file, variables and flags say', () => {
    const cfg = tracing(
      {
        OTEL_SDK_DISABLED: 'TRUE',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
        MCP_SERVER_TRACING_ENABLED: 'true',
      },
      '    enabled: true\n',
      { overrides: { tracing: { enabled: true } } },
    );
    expect(cfg.enabled).toBe(false);
    // Only "true" disables, as the specification says; anything else leaves tracing as configured.
    expect(tracing({ OTEL_SDK_DISABLED: 'false' }, '    enabled: true\n').enabled).toBe(true);
  });

  it('takes the protocol from each layer in order: file < OTEL_EXPORTER_OTLP_PROTOCOL < OTEL_EXPORTER_OTLP_TRACES_PROTOCOL < MCP_SERVER_TRACING_PROTOCOL < flags', () => {
    const file = '    protocol: http/json\n';
    const protocol = (env: NodeJS.ProcessEnv, more: LoadGatewayConfigOptions = {}) =>
      tracing(env, file, more).protocol;
    expect(tracing({}, file).protocol).toBe('http/json');
    expect(protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(
      protocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: ' http/json ',
      }),
    ).toBe('http/json');
    expect(
      protocol({
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        MCP_SERVER_TRACING_PROTOCOL: 'http/protobuf',
      }),
    ).toBe('http/protobuf');
    expect(
      protocol(
        { MCP_SERVER_TRACING_PROTOCOL: 'http/protobuf' },
        { overrides: { tracing: { protocol: 'http/json' } } },
      ),
    ).toBe('http/json');
    // The signal's own variable wins, so a grpc meant for other signals is never read.
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }).protocol,
    ).toBe('http/json');
    // Empty counts as unset: the base variable is read.
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '',
      }).protocol,
    ).toBe('http/json');
  });

  it('refuses grpc and any other protocol, naming the variable or key that set it', () => {
    const onlyHttp = 'the gateway exports over OTLP/HTTP only (protobuf or JSON)';
    expect(problems({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got "grpc": ${onlyHttp} (from env OTEL_EXPORTER_OTLP_PROTOCOL)`,
    ]);
    expect(
      problems({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      }),
    ).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got "grpc": ${onlyHttp} (from env OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)`,
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/JSON' })).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got "HTTP/JSON": ${onlyHttp} (from env OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)`,
    ]);
    expect(problems({ MCP_SERVER_TRACING_PROTOCOL: 'grpc' })).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got "grpc": ${onlyHttp} (from env MCP_SERVER_TRACING_PROTOCOL)`,
    ]);
    expect(problems({}, '    protocol: grpc\n')).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got "grpc": ${onlyHttp} (from ${path.join(dir, 'gateway.yaml')})`,
    ]);
    expect(problems({}, '    protocol: 4318\n')).toEqual([
      `mcp_server.tracing.protocol: must be http/protobuf or http/json, got a number: ${onlyHttp} (from ${path.join(dir, 'gateway.yaml')})`,
    ]);
    // Attack: a huge value is quoted only in part, so the error stays one readable line.
    const [long] = problems({ OTEL_EXPORTER_OTLP_PROTOCOL: `http/${'x'.repeat(100_000)}` });
    expect(long).toContain(`got "http/${'x'.repeat(59)}":`);
    expect(long.length).toBeLessThan(300);
  });

  it('reads OTEL_TRACES_SAMPLER(_ARG) as the parent-based sampling ratio', () => {
    const ratio = (env: NodeJS.ProcessEnv) => tracing(env).sample_ratio;
    expect(
      ratio({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    ).toBe(0.25);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '.5' })).toBe(0.5);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe(1);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    expect(ratio({ OTEL_TRACES_SAMPLER: 'ParentBased_Always_On' })).toBe(1);
    // The argument belongs to a sampler: alone it changes nothing (the default is parent-based always on).
    expect(ratio({ OTEL_TRACES_SAMPLER_ARG: '0.1' })).toBe(1);
  });

  it('maps the standard timeout and batch variables', () => {
    const cfg = tracing({
      OTEL_EXPORTER_OTLP_TIMEOUT: '3000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2000',
      OTEL_BSP_SCHEDULE_DELAY: '250',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
    });
    expect(cfg).toMatchObject({
      export_timeout_ms: 2000,
      schedule_delay_ms: 250,
      max_queue_size: 100,
      max_export_batch_size: 50,
    });
  });

  it('refuses bad OTEL_* values, naming the variable', () => {
    expect(problems({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toEqual([
      expect.stringMatching(
        /^mcp_server\.tracing\.sample_ratio: unknown sampler "jaeger_remote".*\(from env OTEL_TRACES_SAMPLER\)$/,
      ),
    ]);
    expect(
      problems({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }),
    ).toEqual([
      'mcp_server.tracing.sample_ratio: must be a number from 0 to 1, got "1.5" (from env OTEL_TRACES_SAMPLER_ARG)',
    ]);
    expect(problems({ OTEL_BSP_MAX_QUEUE_SIZE: 'lots' })).toEqual([
      'mcp_server.tracing.max_queue_size: must be a whole number, got "lots" (from env OTEL_BSP_MAX_QUEUE_SIZE)',
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
      'mcp_server.tracing.endpoint: must be an http:// or https:// URL (from env OTEL_EXPORTER_OTLP_ENDPOINT)',
    ]);
  });

  it('bounds the export settings (attack: a queue as large as memory, an endless timeout)', () => {
    expect(problems({ OTEL_BSP_MAX_QUEUE_SIZE: '10000000' })).toEqual([
      'mcp_server.tracing.max_queue_size: must not be greater than 65536 (from env OTEL_BSP_MAX_QUEUE_SIZE)',
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_TIMEOUT: '86400000' })).toEqual([
      'mcp_server.tracing.export_timeout_ms: must not be greater than 60000 (from env OTEL_EXPORTER_OTLP_TIMEOUT)',
    ]);
    expect(
      problems({ MCP_SERVER_TRACING_ENDPOINT: `http://collector/${'x'.repeat(5000)}` }),
    ).toEqual([
      'mcp_server.tracing.endpoint: must be shorter than or equal to 2048 characters (from env MCP_SERVER_TRACING_ENDPOINT)',
    ]);
    expect(problems({}, '    max_queue_size: 10\n    max_export_batch_size: 20\n')).toEqual([
      expect.stringMatching(
        /^mcp_server\.tracing\.max_export_batch_size: must be at most mcp_server\.tracing\.max_queue_size \(10\)/,
      ),
    ]);
  });
});
