import { Logger } from '@nestjs/common';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** While exports keep failing, one warning per this many milliseconds at most. */
export const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Wraps the OTLP exporter so that a collector that is down or refuses spans
 * is told to the operator (once when failures start, then at most once a
 * minute, then once when exports succeed again) without touching any call:
 * the spans of a failed export are dropped.
 */
export class LoggedSpanExporter implements SpanExporter {
  private readonly logger = new Logger('Tracing');
  private failedExports = 0;
  private droppedSpans = 0;
  private lastWarnAt = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly endpoint: string,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      this.inner.export(spans, (result) => {
        this.noted(result, spans.length);
        done(result);
      });
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.noted({ code: ExportResultCode.FAILED, error }, spans.length);
      done({ code: ExportResultCode.FAILED, error });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private noted(result: ExportResult, spans: number): void {
    if (result.code === ExportResultCode.SUCCESS) {
      if (this.failedExports > 0) {
        this.logger.log({
          msg: 'trace export recovered',
          endpoint: this.endpoint,
          failedExports: this.failedExports,
          droppedSpans: this.droppedSpans,
        });
      }
      this.failedExports = 0;
      this.droppedSpans = 0;
      return;
    }
    this.failedExports++;
    this.droppedSpans += spans;
    const now = Date.now();
    if (this.failedExports > 1 && now - this.lastWarnAt < EXPORT_FAILURE_LOG_INTERVAL_MS) return;
    this.lastWarnAt = now;
    this.logger.warn({
      msg: 'trace export failed; spans dropped, calls unaffected',
      endpoint: this.endpoint,
      error: result.error?.message ?? 'unknown error',
      failedExports: this.failedExports,
      droppedSpans: this.droppedSpans,
    });
  }
}
