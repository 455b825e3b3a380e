import { keyLabel, Problem } from './config-problem';
import { TracingConfig } from './gateway-config';

/** An export batch larger than the queue could never fill; the SDK would shrink it silently. */
export function tracingConfigProblems(
  tracing: TracingConfig,
  originOf: (keyPath: readonly string[]) => string | undefined,
): Problem[] {
  if (tracing.max_export_batch_size <= tracing.max_queue_size) return [];
  const keyPath = ['tracing', 'max_export_batch_size'];
  return [
    {
      subject: keyLabel(keyPath),
      message: `must be at most ${keyLabel(['tracing', 'max_queue_size'])} (${tracing.max_queue_size})`,
      origin: originOf(keyPath),
    },
  ];
}
