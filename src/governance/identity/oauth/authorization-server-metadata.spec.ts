import { metadataUrls } from './authorization-server-metadata';

describe('metadataUrls', () => {
  it('tries RFC 8414, then OpenID discovery, for an issuer without a path', () => {
    expect(metadataUrls('https://idp.example.com')).toEqual([
      'https://idp.example.com/.well-known/oauth-authorization-server',
      'https://idp.example.com/.well-known/openid-configuration',
    ]);
    expect(metadataUrls('https://idp.example.com/')).toEqual(
      metadataUrls('https://idp.example.com'),
    );
  });

  it('inserts the well-known prefix before an issuer path, then tries OpenID appended', () => {
    expect(metadataUrls('https://idp.example.com/realms/acme')).toEqual([
      'https://idp.example.com/.well-known/oauth-authorization-server/realms/acme',
      'https://idp.example.com/.well-known/openid-configuration/realms/acme',
      'https://idp.example.com/realms/acme/.well-known/openid-configuration',
    ]);
  });

  it('keeps a port and drops trailing slashes of the path', () => {
    expect(metadataUrls('http://127.0.0.1:4444/tenant/v2.0/')).toEqual([
      'http://127.0.0.1:4444/.well-known/oauth-authorization-server/tenant/v2.0',
      'http://127.0.0.1:4444/.well-known/openid-configuration/tenant/v2.0',
      'http://127.0.0.1:4444/tenant/v2.0/.well-known/openid-configuration',
    ]);
  });
});
