import { bearerChallenge, protectedResourceMetadataUrl } from './bearer-challenge';

describe('protectedResourceMetadataUrl', () => {
  it.each([
    [
      'https://mcp.example.com/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    ],
    [
      'https://mcp.example.com/mcp/',
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    ],
    [
      'https://mcp.example.com:8443/tenants/acme/mcp',
      'https://mcp.example.com:8443/.well-known/oauth-protected-resource/tenants/acme/mcp',
    ],
    ['https://mcp.example.com', 'https://mcp.example.com/.well-known/oauth-protected-resource'],
    ['https://mcp.example.com/', 'https://mcp.example.com/.well-known/oauth-protected-resource'],
    ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp'],
  ])('inserts the well-known prefix between origin and path: %s', (resource, expected) => {
    expect(protectedResourceMetadataUrl(resource)).toBe(expected);
  });

  it('drops a query from the resource URI', () => {
    expect(protectedResourceMetadataUrl('https://mcp.example.com/mcp?tenant=a')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
  });
});

describe('bearerChallenge', () => {
  const metadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

  it('names only the metadata when no token was sent', () => {
    expect(bearerChallenge(metadata)).toBe(`Bearer resource_metadata="${metadata}"`);
  });

  it('adds error, error_description and scope, in that order', () => {
    expect(
      bearerChallenge(metadata, {
        error: 'insufficient_scope',
        description: 'the tool orders_list needs the scope orders.read',
        scope: 'mcp orders.read',
      }),
    ).toBe(
      `Bearer resource_metadata="${metadata}", error="insufficient_scope", ` +
        'error_description="the tool orders_list needs the scope orders.read", scope="mcp orders.read"',
    );
  });

  it('leaves out empty parameters', () => {
    expect(bearerChallenge(metadata, { error: 'invalid_token', description: '', scope: '' })).toBe(
      `Bearer resource_metadata="${metadata}", error="invalid_token"`,
    );
  });

  it('replaces quotes, backslashes, control and non-ASCII characters so a value cannot break out', () => {
    const header = bearerChallenge(metadata, {
      error: 'invalid_token',
      description: 'a "quoted" \\ name\r\nX-Injected: 1 — é',
    });
    expect(header).toBe(
      `Bearer resource_metadata="${metadata}", error="invalid_token", ` +
        'error_description="a ?quoted? ? name??X-Injected: 1 ? ?"',
    );
    expect(header).not.toMatch(/[\r\n\\]/);
  });
});
