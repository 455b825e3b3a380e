import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Sends `spans` through a real OTLP exporter, waits for its verdict, and shuts it down. */
export async function exportWith(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  const result = await new Promise<{ code: ExportResultCode; error?: Error }>((resolve) =>
    exporter.export(spans, resolve),
  );
  await exporter.shutdown();
  if (result.code !== ExportResultCode.SUCCESS) throw result.error ?? new Error('export failed');
}
