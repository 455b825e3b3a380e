import * as path from 'node:path';
import { REFERENCE_FORMS, resolveEnvReferences } from './env-reference';
import { headerValueProblem } from './header-value.check';
import { readUpstreamSecretFile, SecretFilePolicy, secretFilePolicy } from './secret-file.reader';
import { HttpBlockSchema, HttpOAuthSchema, StdioBlockSchema } from './upstream-blocks.schema';
import { UpstreamFileSchema } from './upstream-file.schema';
import { HttpEndpoint, StdioLaunch, UpstreamOAuthClient, UpstreamRecord } from './upstream-record';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

export interface ResolveContext {
  /** The registry directory: relative `cwd` and `file:` secrets resolve against it. */
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Where `file:` secrets may be read; derived from `dir` when absent. */
  secretFiles?: SecretFilePolicy;
}

export type RecordResolution =
  { ok: true; record: UpstreamRecord } | { ok: false; problems: string[] };

/**
 * Turns a validated registry file into the record the gateway uses: defaults
 * filled in, `${ENV:...}` references, `env_from`, `auth_ref` and
 * `oauth.client_secret_ref` resolved. A
 * reference that cannot be resolved means the server is not loaded; the
 * problems name the key and the variable, never a value.
 */
export function resolveUpstreamRecord(
  file: UpstreamFileSchema,
  fileName: string,
  ctx: ResolveContext,
): RecordResolution {
  const problems: string[] = [];
  const stdio = file.stdio ? resolveStdio(file.stdio, ctx, problems) : undefined;
  const http = file.http ? resolveHttp(file.http, ctx, problems) : undefined;
  if (problems.length > 0) return { ok: false, problems };
  const record: UpstreamRecord = {
    version: 1,
    server_id: file.server_id,
    display_name: file.display_name ?? file.server_id,
    transport: file.transport,
    ...(stdio ? { stdio } : {}),
    ...(http ? { http } : {}),
    tool_namespace: file.tool_namespace ?? file.server_id,
    allowed_tools: [...file.allowed_tools],
    denied_tools: [...file.denied_tools],
    approval_policy: {
      default: file.approval_policy.default,
      tools: { ...file.approval_policy.tools },
    },
    budgets: { ...file.budgets },
    cost: { default: file.cost.default, tools: { ...file.cost.tools } },
    relay: { resources: file.relay.resources, prompts: file.relay.prompts },
    required: file.required,
    warm: file.warm,
    idle_timeout_seconds: file.idle_timeout_seconds,
    file: fileName,
  };
  return { ok: true, record };
}

function resolveStdio(
  stdio: StdioBlockSchema,
  ctx: ResolveContext,
  problems: string[],
): StdioLaunch {
  if (stdio.command.includes('\0'))
    problems.push('stdio.command: must not contain a NUL character');
  if (stdio.args.some((arg) => arg.includes('\0'))) {
    problems.push('stdio.args: must not contain a NUL character');
  }
  const env: Record<string, string> = {};
  for (const [name, written] of Object.entries(stdio.env)) {
    const value = resolveValue(`stdio.env.${name}`, written, ctx.env, problems);
    if (value !== undefined) env[name] = value;
  }
  for (const name of stdio.env_from) {
    const value = ctx.env[name];
    if (Object.hasOwn(stdio.env, name)) {
      problems.push(`stdio.env_from: ${name} is also set in stdio.env; name it in one place`);
    } else if (value === undefined) {
      problems.push(`stdio.env_from: environment variable ${name} is not set`);
    } else {
      env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (value.includes('\0')) problems.push(`stdio.env.${name}: must not contain a NUL character`);
  }
  return {
    command: stdio.command,
    args: [...stdio.args],
    env,
    env_from: [...stdio.env_from],
    ...(stdio.cwd == null ? {} : { cwd: path.resolve(ctx.dir, stdio.cwd) }),
  };
}

function resolveHttp(http: HttpBlockSchema, ctx: ResolveContext, problems: string[]): HttpEndpoint {
  const url = resolveValue('http.url', http.url, ctx.env, problems);
  if (url !== undefined && !isHttpUrl(url)) {
    problems.push('http.url: must be an http:// or https:// URL once references are resolved');
  }
  const headers: Record<string, string> = {};
  for (const [name, written] of Object.entries(http.headers)) {
    const value = resolveValue(`http.headers.${name}`, written, ctx.env, problems);
    if (value === undefined) continue;
    // A line break in a header value would let a variable inject headers of its own.
    const problem = headerValueProblem(value);
    if (problem !== undefined) problems.push(`http.headers.${name}: ${problem}`);
    headers[name] = value;
  }
  const endpoint: HttpEndpoint = { url: url ?? '', headers };
  const setsAuthorization = Object.keys(headers).some(
    (name) => name.toLowerCase() === 'authorization',
  );
  if (http.auth_ref != null) {
    if (setsAuthorization) {
      problems.push('http.auth_ref: http.headers already sets Authorization; use one of them');
    }
    const secret = resolveSecretRef('http.auth_ref', http.auth_ref, ctx, problems);
    endpoint.auth_ref = http.auth_ref;
    const problem = secret === undefined ? undefined : headerValueProblem(secret);
    if (problem !== undefined) problems.push(`http.auth_ref: the secret ${problem}`);
    else if (secret !== undefined) endpoint.auth_secret = secret;
  }
  if (http.oauth != null) {
    // Each of these would send a second Authorization header beside the OAuth access token.
    if (http.auth_ref != null) {
      problems.push('http.oauth: http.auth_ref is also set; use one of them');
    }
    if (setsAuthorization) {
      problems.push('http.oauth: http.headers already sets Authorization; use one of them');
    }
    endpoint.oauth = resolveOAuth(http.oauth, ctx, problems);
  }
  return endpoint;
}

function resolveOAuth(
  oauth: HttpOAuthSchema,
  ctx: ResolveContext,
  problems: string[],
): UpstreamOAuthClient {
  if (oauth.issuer !== undefined && !isHttpUrl(oauth.issuer)) {
    problems.push('http.oauth.issuer: must be an http:// or https:// URL');
  }
  const key = 'http.oauth.client_secret_ref';
  const secret = resolveSecretRef(key, oauth.client_secret_ref, ctx, problems);
  return {
    client_id: oauth.client_id,
    client_secret_ref: oauth.client_secret_ref,
    client_secret: secret ?? '',
    ...(oauth.scope === undefined ? {} : { scope: oauth.scope }),
    ...(oauth.issuer === undefined ? {} : { issuer: oauth.issuer }),
  };
}

/** The value with its references replaced, or undefined after recording why it cannot be. */
function resolveValue(
  key: string,
  written: string,
  env: NodeJS.ProcessEnv,
  problems: string[],
): string | undefined {
  const resolved = resolveEnvReferences(written, env);
  if (!resolved.ok) {
    if ('missing' in resolved) {
      const names = resolved.missing.map((name) => `\${ENV:${name}}`).join(', ');
      const verb = resolved.missing.length === 1 ? 'is' : 'are';
      problems.push(`${key}: ${names} ${verb} not set (no default given)`);
    } else {
      problems.push(`${key}: holds a malformed reference; write ${REFERENCE_FORMS}`);
    }
    return undefined;
  }
  if (resolved.value.length > REGISTRY_LIMITS.maxValueLength) {
    problems.push(
      `${key}: is longer than ${REGISTRY_LIMITS.maxValueLength} characters once references are resolved`,
    );
    return undefined;
  }
  return resolved.value;
}

/** The secret an `env:NAME` or `file:path` reference names; `key` is the one problems name. */
function resolveSecretRef(
  key: string,
  ref: string,
  ctx: ResolveContext,
  problems: string[],
): string | undefined {
  if (ref.startsWith('env:')) {
    const name = ref.slice('env:'.length);
    const value = ctx.env[name];
    if (value === undefined || value === '') {
      problems.push(`${key}: environment variable ${name} is not set or empty`);
      return undefined;
    }
    return value;
  }
  const file = path.resolve(ctx.dir, ref.slice('file:'.length));
  const read = readUpstreamSecretFile(file, ctx.secretFiles ?? secretFilePolicy(ctx.dir));
  if (!read.ok) {
    problems.push(`${key}: ${read.problem}`);
    return undefined;
  }
  return read.secret;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
