import { GatewayError } from '../errors/gateway.error';
import { fromGatewayResourceUri, toGatewayResourceUri } from './upstream-resource-uri';

describe('upstream resource URIs', () => {
  const originals = [
    'file:///notes/a b.txt',
    'demo://resource/static/document/1?x=1#frag',
    'https://example.com/ü/%41',
    'urn:isbn:0451450523',
  ];

  it.each(originals)('round-trips %s through a URI that parses', (original) => {
    const uri = toGatewayResourceUri('fs_1', original);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('mcp+upstream:');
    expect(parsed.host).toBe('fs_1');
    expect(fromGatewayResourceUri(uri)).toEqual({ serverId: 'fs_1', upstreamUri: original });
  });

  it.each([
    'mcp+upstream://fs/file:%2F%2F%2Fa', // another escaping of file:///a
    'mcp+upstream://fs/file%3A%2F%2F%2Fa/extra',
    'mcp+upstream://FS/file%3A%2F%2F%2Fa',
    'mcp+upstream://fs/',
    'mcp+upstream://fs/%E0%A4%A',
    'mcp+upstream:///file%3A',
  ])('refuses %s with -32602', (uri) => {
    expect(() => fromGatewayResourceUri(uri)).toThrow(GatewayError);
    try {
      fromGatewayResourceUri(uri);
    } catch (error) {
      expect((error as GatewayError).code).toBe(-32602);
    }
  });
});
