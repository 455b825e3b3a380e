import { GatewayConfig } from './gateway-config';

/**
 * A compact view of the effective configuration for the single start-up log
 * line. It lists only what an operator needs to confirm the right config was
 * picked up, and deliberately leaves out file paths of key material, header
 * lists and the instructions text: the log must stay short and secret-free.
 */
export function summarizeConfig(
  cfg: GatewayConfig,
  source: string | undefined,
): Record<string, unknown> {
  const quota = cfg.governance.default_quota;
  return {
    transport: cfg.transport,
    // The HTTP listener exists only for the http transport; printing it for stdio would mislead.
    listen: cfg.transport === 'http' ? formatListen(cfg.http.host, cfg.http.port) : undefined,
    tls: cfg.http.tls.enabled ? 'on' : 'off',
    cors: cfg.http.cors.enabled ? 'on' : 'off',
    cors_origins: cfg.http.cors.allowed_origins.length,
    skills_dir: cfg.resources.skills_dir,
    default_timeout_seconds: cfg.tools.default_timeout_seconds,
    governance: cfg.governance.enabled ? 'on' : 'off',
    quota: cfg.governance.enabled
      ? {
          monthly_budget: quota.monthly_budget,
          max_calls_per_minute: quota.max_calls_per_minute,
          max_calls_per_day: quota.max_calls_per_day,
          max_cost_per_call: quota.max_cost_per_call,
        }
      : undefined,
    // The endpoint may carry a collector's credentials in its URL, so only on or off.
    tracing: cfg.tracing.enabled ? 'on' : 'off',
    // Worth a line of its own: it exposes stack traces to clients.
    dev_mode: cfg.dev_mode,
    log_level: cfg.logging.level,
    config_source: source ?? 'built-in defaults (no config file)',
  };
}

// IPv6 literals need brackets, or "::1:8080" reads as a longer address.
function formatListen(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
