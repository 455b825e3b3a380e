import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../../config/gateway-config';
import { GATEWAY_PACKAGE_NAME, GATEWAY_VERSION } from '../../lifecycle/server-info';
import { LoggedSpanExporter } from './logged-span.exporter';

/** Longest attribute value exported: a client-chosen URI or name cannot make spans large. */
export const MAX_ATTRIBUTE_CHARS = 1024;

/** Where the spans of this process go, and how to stop sending them. */
export interface TraceExport {
  readonly tracer: Tracer;
  /** Exports what is queued and stops; resolves within `export_timeout_ms` whatever the collector does. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK as the gateway uses it: a parent-based ratio
 * sampler, a batch of finished spans sent to the OTLP/HTTP endpoint in
 * protobuf or JSON (`tracing.protocol`), and a resource naming the service
 * (OTEL_RESOURCE_ATTRIBUTES adds to it). Nothing is registered globally, so
 * two gateways in one process (tests) keep apart.
 */
export function startTraceExport(config: TracingConfig): TraceExport {
  const exporter = new LoggedSpanExporter(otlpExporter(config), displayedEndpoint(config.endpoint));
  const provider = new BasicTracerProvider({
    resource: defaultResource()
      .merge(detectResources({ detectors: [envDetector] }))
      .merge(
        resourceFromAttributes({
          [ATTR_SERVICE_NAME]: config.service_name,
          [ATTR_SERVICE_VERSION]: GATEWAY_VERSION,
        }),
      ),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sample_ratio) }),
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_CHARS },
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        maxQueueSize: config.max_queue_size,
        maxExportBatchSize: config.max_export_batch_size,
        scheduledDelayMillis: config.schedule_delay_ms,
        exportTimeoutMillis: config.export_timeout_ms,
      }),
    ],
  });
  return {
    tracer: provider.getTracer(GATEWAY_PACKAGE_NAME, GATEWAY_VERSION),
    shutdown: () => bounded(provider.shutdown(), config.export_timeout_ms),
  };
}

/** The OTLP/HTTP exporter of the configured encoding; both packages take the same options. */
function otlpExporter(config: TracingConfig): SpanExporter {
  const options = { url: config.endpoint, timeoutMillis: config.export_timeout_ms };
  return config.protocol === 'http/json'
    ? new OtlpJsonTraceExporter(options)
    : new OtlpProtobufTraceExporter(options);
}

/** The endpoint for log lines: no user, password or query, which may hold credentials. */
export function displayedEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Waits for `work` at most `ms`; a failure is the exporter's to report, never the caller's. */
function bounded(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([work.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
