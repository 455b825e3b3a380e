import { AlertWebhookConfig } from '../config/gateway-config';
import { REFERENCE_FORMS, resolveEnvReferences } from '../upstreams/env-reference';

/** A webhook ready to post to: references resolved, never logged beyond its `label`. */
export interface WebhookTarget {
  /** `#<index> <host>`: what logs say, since the URL itself may carry a secret. */
  label: string;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
}

/** `path` is below the entry (`url`, `headers`, `<name>`). */
export interface WebhookProblem {
  path: string[];
  message: string;
}

export type WebhookResolution =
  { ok: true; target: WebhookTarget } | { ok: false; problems: WebhookProblem[] };

/**
 * Resolves the `${ENV:NAME}` references of one `alerts.webhooks` entry, as the
 * upstream registry does; problems name the key and the variable, never a value.
 */
export function resolveWebhook(
  webhook: AlertWebhookConfig,
  index: number,
  env: NodeJS.ProcessEnv,
): WebhookResolution {
  const problems: WebhookProblem[] = [];
  const resolve = (path: string[], written: string): string | undefined => {
    const resolved = resolveEnvReferences(written, env);
    if (resolved.ok) return resolved.value;
    problems.push({
      path,
      message:
        'missing' in resolved
          ? `${resolved.missing.map((name) => `\${ENV:${name}}`).join(', ')} not set (no default given)`
          : `holds a malformed reference; write ${REFERENCE_FORMS}`,
    });
    return undefined;
  };

  const url = resolve(['url'], webhook.url);
  const host = url === undefined ? undefined : httpHost(url);
  if (url !== undefined && host === undefined) {
    problems.push({
      path: ['url'],
      message: 'must be an http:// or https:// URL once references are resolved',
    });
  }
  const headers: Record<string, string> = {};
  for (const [name, written] of Object.entries(webhook.headers)) {
    const value = resolve(['headers', name], written);
    if (value === undefined) continue;
    // A line break in a header value would let a variable inject headers of its own.
    if (/[\r\n\0]/.test(value)) {
      problems.push({
        path: ['headers', name],
        message: 'must not contain line breaks or NUL characters',
      });
    }
    headers[name] = value;
  }
  if (problems.length > 0 || url === undefined || host === undefined)
    return { ok: false, problems };
  return {
    ok: true,
    target: {
      label: `#${index} ${host}`,
      url,
      headers,
      timeoutMs: webhook.timeout_ms,
      maxRetries: webhook.max_retries,
    },
  };
}

/** The host (and port) of an http(s) URL, or undefined for anything else. */
function httpHost(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}
