import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayError } from '../errors/gateway.error';
import { McpMetrics } from '../observability/mcp.metrics';
import { McpRequestContext } from './mcp-request-context';
import { findResourceUriBreach, ResourceUriLimits, segmentCount } from './resource-uri-limits';
import { REFUSED_URI_KEPT_CHARS, ResourceUriLimitsService } from './resource-uri-limits.service';

const LIMITS: ResourceUriLimits = {
  resource_uri_max_chars: 2048,
  resource_uri_max_segments: 32,
  subscription_uri_max_chars: 256,
};

/** `skill://` + `a/` x n + `x`: the URI of n + 1 segments an attacker sends. */
const deep = (n: number) => `skill://${'a/'.repeat(n)}x`;

describe('findResourceUriBreach', () => {
  it('counts the /-separated parts after scheme://', () => {
    expect(segmentCount('skill://c/n')).toBe(2);
    expect(segmentCount('skill://c/n/refs/a.md')).toBe(4);
    expect(segmentCount('https://example.com/a/b')).toBe(3);
    // An upstream's URI is one encoded segment of the gateway's.
    expect(segmentCount('mcp+upstream://relay/file%3A%2F%2F%2Fetc%2Fx')).toBe(2);
    expect(segmentCount('urn:isbn:123')).toBe(1);
    expect(segmentCount(deep(31))).toBe(32);
  });

  it('accepts a URI at both limits', () => {
    expect(findResourceUriBreach(deep(31), LIMITS, false)).toBeUndefined();
    const longest = `skill://c/n/${'x'.repeat(2048 - 'skill://c/n/'.length)}`;
    expect(findResourceUriBreach(longest, LIMITS, false)).toBeUndefined();
  });

  it('refuses one character or one segment more, naming the limit', () => {
    expect(findResourceUriBreach(`skill://c/n/${'x'.repeat(2037)}`, LIMITS, false)).toEqual({
      limit: 'resource_uri_max_chars',
      max: 2048,
      what: 'A resource URI of 2049 characters',
    });
    expect(findResourceUriBreach(deep(32), LIMITS, false)).toEqual({
      limit: 'resource_uri_max_segments',
      max: 32,
      what: 'A resource URI of 33 segments',
    });
  });

  it('measures the length first, so a huge URI is never walked for its segments', () => {
    expect(findResourceUriBreach(deep(1_000_000), LIMITS, false)?.limit).toBe(
      'resource_uri_max_chars',
    );
  });

  it('holds a URI the session keeps to the subscription limit first', () => {
    const uri = `skill://c/n/${'x'.repeat(300)}`;
    expect(findResourceUriBreach(uri, LIMITS, true)?.limit).toBe('subscription_uri_max_chars');
    expect(findResourceUriBreach(uri, LIMITS, false)).toBeUndefined();
  });
});

describe('ResourceUriLimitsService', () => {
  const registry = new Registry();
  const refusals = new Counter({
    name: 'refusals',
    help: 'refusals',
    labelNames: ['limit'],
    registers: [registry],
  });
  const metrics = new McpMetrics(
    new Counter({ name: 'requests', help: 'h', labelNames: ['method', 'outcome'], registers: [] }),
    new Histogram({ name: 'duration', help: 'h', labelNames: ['method'], registers: [] }),
    new Gauge({ name: 'sessions', help: 'h', labelNames: ['transport'], registers: [] }),
    refusals,
  );
  const service = new ResourceUriLimitsService(structuredClone(DEFAULT_CONFIG), metrics);
  const contextOf = () => ({ call: {} }) as unknown as McpRequestContext;
  const refused = (run: () => void): GatewayError => {
    try {
      run();
    } catch (err) {
      return err as GatewayError;
    }
    throw new Error('not refused');
  };

  it('refuses an over-long URI with -32602 naming the limit, keeping only a clipped target', () => {
    const context = contextOf();
    const uri = deep(25_600);
    const error = refused(() => service.enforce({ uri }, { paths: ['uri'] }, context));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      `A resource URI of ${uri.length} characters exceeds limits.resource_uri_max_chars (2048)`,
    );
    expect(error.data).toEqual({ limit: 'limits.resource_uri_max_chars', max: 2048 });
    expect(context.call.target).toBe(`${uri.slice(0, REFUSED_URI_KEPT_CHARS)}…`);
    expect(context.call.argumentsOverLimit).toBe('limits.resource_uri_max_chars');
  });

  it('checks nested paths and every URI of an array, and counts each refusal', async () => {
    const before = (await refusals.get()).values.find(
      (v) => v.labels.limit === 'resource_uri_max_segments',
    )?.value;
    const nested = refused(() =>
      service.enforce({ ref: { uri: deep(40) } }, { paths: ['ref.uri'] }, contextOf()),
    );
    expect(nested.data).toEqual({ limit: 'limits.resource_uri_max_segments', max: 32 });
    const listed = refused(() =>
      service.enforce(
        { notifications: { resourceSubscriptions: ['skill://c/n', deep(40)] } },
        { paths: ['notifications.resourceSubscriptions'], kept: true },
        contextOf(),
      ),
    );
    expect(listed.data).toEqual({ limit: 'limits.resource_uri_max_segments', max: 32 });
    const after = (await refusals.get()).values.find(
      (v) => v.labels.limit === 'resource_uri_max_segments',
    )?.value;
    expect(after).toBe((before ?? 0) + 2);
  });

  it('lets URIs within the limits, and params that hold no string there, through', () => {
    const context = contextOf();
    service.enforce({ uri: deep(31) }, { paths: ['uri'] }, context);
    service.enforce({ uri: 42 }, { paths: ['uri'] }, context);
    service.enforce({ ref: 'x' }, { paths: ['ref.uri'] }, context);
    expect(context.call).toEqual({});
  });
});
