/**
 * Seed R4.8 as a client sees it: the call limits tools/list puts on each
 * tool are the asking client's (its quota, its tool_limits, the handler's
 * own) under the rules in force, so an admin rules change shows up in the
 * next tools/list, and no client sees another's numbers.
 */
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { LIMITED_PER_MINUTE } from '../fixtures/governance-fixture.capability';
import { governanceRulesApi } from '../support/governance-rules-api';
import { HttpClient, Json } from '../support/governed-clients';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { GENEROUS_QUOTA } from '../support/test-defaults';

const ADMIN_TOKEN = 'limit-hints-token-0123456789abcdef';
const META_RATE_LIMITS = 'owlclaw/rateLimits';

describe('tools/list limit hints per client (seed R4.8)', () => {
  let gateway: HttpGatewayHandle;
  let alpha: HttpClient;
  let beta: HttpClient;

  beforeAll(async () => {
    process.env[ADMIN_TOKEN_ENV] = ADMIN_TOKEN;
    try {
      gateway = await startHttpGateway({
        fixtures: true,
        config: {
          governance: {
            clients: {
              alpha: {
                quota: { max_calls_per_minute: 4 },
                tool_limits: { 'gov_*': { max_calls_per_day: 30 } },
              },
            },
          },
        },
      });
    } finally {
      delete process.env[ADMIN_TOKEN_ENV];
    }
    [alpha, beta] = await Promise.all([
      HttpClient.open(gateway.baseUrl, { id: 'alpha' }),
      HttpClient.open(gateway.baseUrl, { id: 'beta' }),
    ]);
  });

  afterAll(() => gateway?.close());

  async function limitsOf(client: HttpClient): Promise<Record<string, unknown>> {
    const result = (await client.rpc('tools/list')).body.result as { tools: Json[] };
    return Object.fromEntries(
      result.tools.map((tool): [string, unknown] => [
        String(tool.name),
        (tool._meta as Json)[META_RATE_LIMITS],
      ]),
    );
  }

  const rulesApi = () => governanceRulesApi(gateway.baseUrl, ADMIN_TOKEN);

  it("lists each client's own limits, the stricter of tool and client winning", async () => {
    const [forAlpha, forBeta] = await Promise.all([limitsOf(alpha), limitsOf(beta)]);
    expect(forAlpha.gov_free).toEqual({ maxCallsPerMinute: 4, maxCallsPerDay: 30 });
    expect(forAlpha.gov_limited).toEqual({
      maxCallsPerMinute: LIMITED_PER_MINUTE,
      maxCallsPerDay: 30,
    });
    expect(forBeta.gov_free).toEqual({
      maxCallsPerMinute: GENEROUS_QUOTA.max_calls_per_minute,
      maxCallsPerDay: GENEROUS_QUOTA.max_calls_per_day,
    });
    expect(forBeta.gov_limited).toEqual({
      maxCallsPerMinute: LIMITED_PER_MINUTE,
      maxCallsPerDay: GENEROUS_QUOTA.max_calls_per_day,
    });
    // Asking again (served from the tools/list cache) changes nothing for either.
    expect(await limitsOf(alpha)).toEqual(forAlpha);
    expect(await limitsOf(beta)).toEqual(forBeta);
  });

  it('shows rules put through the admin API in the next tools/list', async () => {
    const current = await rulesApi().get<Json>();
    const answer = await rulesApi().put({
      ...current,
      clients: { beta: { quota: { max_calls_per_minute: 9, max_calls_per_day: 90 } } },
    });
    expect(answer.status).toBe(200);
    const [forAlpha, forBeta] = await Promise.all([limitsOf(alpha), limitsOf(beta)]);
    expect(forBeta.gov_free).toEqual({ maxCallsPerMinute: 9, maxCallsPerDay: 90 });
    expect(forAlpha.gov_free).toEqual({
      maxCallsPerMinute: GENEROUS_QUOTA.max_calls_per_minute,
      maxCallsPerDay: GENEROUS_QUOTA.max_calls_per_day,
    });

    // Governance off: only what a handler declares is left to list.
    expect((await rulesApi().put({ ...current, enabled: false })).status).toBe(200);
    const off = await limitsOf(beta);
    expect(off.gov_free).toBeUndefined();
    expect(off.gov_limited).toEqual({ maxCallsPerMinute: LIMITED_PER_MINUTE });
  });
});
