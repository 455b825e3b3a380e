import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidationArguments,
} from 'class-validator';
import { Default } from './config-schema.decorators';

/** The OTLP/HTTP traces URL of a collector on the same host, as the OpenTelemetry SDKs default it. */
export const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';

/** The OTLP/HTTP encodings the gateway exports; protobuf is the OpenTelemetry default. */
export const TRACING_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type TracingProtocol = (typeof TRACING_PROTOCOLS)[number];

/** Names the refused value, since `grpc` is a legal OTLP protocol that a shared environment may set. */
function protocolMessage({ value }: ValidationArguments): string {
  const got = typeof value === 'string' ? JSON.stringify(value.slice(0, 64)) : `a ${typeof value}`;
  return `must be http/protobuf or http/json, got ${got}: the gateway exports over OTLP/HTTP only (protobuf or JSON)`;
}

/**
 * OpenTelemetry tracing (docs/observability.md): one span per MCP request and
 * its steps, exported over OTLP/HTTP. The standard OTEL_* variables override
 * the file (config-otel-env.reader.ts).
 */
export class TracingSchema {
  /** Off by default; setting OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT alone switches it on. */
  @Default(false)
  @IsBoolean()
  enabled!: boolean;

  /** The collector's OTLP/HTTP traces URL. */
  @Default(DEFAULT_TRACES_ENDPOINT)
  @Matches(/^https?:\/\/[^\s]+$/i, { message: 'must be an http:// or https:// URL' })
  @MaxLength(2048)
  @IsString()
  endpoint!: string;

  /** How the spans are encoded on the wire: protobuf (the OTLP default, half the CPU) or JSON. */
  @Default('http/protobuf')
  @IsIn(TRACING_PROTOCOLS, { message: protocolMessage })
  protocol!: TracingProtocol;

  /** Share of new traces recorded; a request whose caller's trace is sampled is always recorded. */
  @Default(1)
  @Min(0)
  @Max(1)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a finite number' })
  sample_ratio!: number;

  /** The `service.name` resource attribute of every span. */
  @Default('owlclaw-mcp-gateway')
  @MaxLength(256)
  @IsNotEmpty()
  @IsString()
  service_name!: string;

  /** Longest wait for one export; shutdown waits at most this long for the last spans. */
  @Default(10_000)
  @Min(100)
  @Max(60_000)
  @IsInt()
  export_timeout_ms!: number;

  /** Milliseconds between two exports of the finished spans. */
  @Default(5000)
  @Min(10)
  @Max(60_000)
  @IsInt()
  schedule_delay_ms!: number;

  /** Finished spans held for export; past this, new spans are dropped (a slow collector costs no memory). */
  @Default(2048)
  @Min(1)
  @Max(65_536)
  @IsInt()
  max_queue_size!: number;

  /** Spans in one export request; at most `max_queue_size`. */
  @Default(512)
  @Min(1)
  @Max(65_536)
  @IsInt()
  max_export_batch_size!: number;
}
