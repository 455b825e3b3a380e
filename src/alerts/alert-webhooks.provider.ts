import { Provider } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { keyLabel } from '../config/config-problem';
import { GatewayConfig } from '../config/gateway-config';
import { resolveWebhook, WebhookTarget } from './alert-webhook.resolver';
import { ALERT_WEBHOOKS } from './alerts.constants';

/**
 * The webhooks of `alerts.webhooks` with their `${ENV:...}` references
 * resolved from the process environment; none while alerts are off. The
 * config loader has already refused a reference that does not resolve, so a
 * problem here means the environment changed under the process.
 */
export const alertWebhooksProvider: Provider = {
  provide: ALERT_WEBHOOKS,
  inject: [GATEWAY_CONFIG],
  useFactory: (config: GatewayConfig): WebhookTarget[] => {
    if (!config.alerts.enabled) return [];
    return config.alerts.webhooks.map((webhook, index) => {
      const resolution = resolveWebhook(webhook, index, process.env);
      if (resolution.ok) return resolution.target;
      const [first] = resolution.problems;
      const key = keyLabel(['alerts', 'webhooks', String(index), ...first.path]);
      throw new Error(`${key}: ${first.message}`);
    });
  },
};
