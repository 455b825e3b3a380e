import { resolveWebhook } from '../alerts/alert-webhook.resolver';
import { keyLabel, Problem } from './config-problem';
import { AlertsConfig } from './gateway-config';

/**
 * The `alerts` keys checked once the schema passed: with alerts on, every
 * webhook's references resolve to an http(s) URL and clean header values;
 * the error-rate window spans at least one evaluation interval.
 */
export function alertsConfigProblems(
  alerts: AlertsConfig,
  env: NodeJS.ProcessEnv,
  originOf: (keyPath: readonly string[]) => string | undefined,
): Problem[] {
  const problems: Problem[] = [];
  const problem = (keyPath: string[], message: string) =>
    problems.push({ subject: keyLabel(keyPath), message, origin: originOf(keyPath) });

  const window = ['alerts', 'rules', 'error_rate', 'window_seconds'];
  if (alerts.rules.error_rate.window_seconds < alerts.evaluation_interval_seconds) {
    problem(
      window,
      `must be at least ${keyLabel(['alerts', 'evaluation_interval_seconds'])} (${alerts.evaluation_interval_seconds})`,
    );
  }
  if (!alerts.enabled) return problems;
  alerts.webhooks.forEach((webhook, index) => {
    const resolution = resolveWebhook(webhook, index, env);
    if (resolution.ok) return;
    for (const { path, message } of resolution.problems) {
      problem(['alerts', 'webhooks', String(index), ...path], message);
    }
  });
  return problems;
}
