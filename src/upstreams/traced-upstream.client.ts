import { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ClientRequest, Implementation, Request } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK client of one upstream, whose every request carries the W3C
 * `traceparent` of the gateway request it serves in `params._meta`, the
 * place MCP gives it on every transport (stdio has no headers).
 */
export class TracedUpstreamClient extends Client {
  constructor(
    info: Implementation,
    options: ClientOptions,
    private readonly traceparent: () => string | undefined,
  ) {
    super(info, options);
  }

  override request<T extends AnySchema>(
    request: ClientRequest | Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<SchemaOutput<T>> {
    const traceparent = this.traceparent();
    return super.request(
      traceparent === undefined ? request : withTraceparent(request, traceparent),
      resultSchema,
      options,
    );
  }
}

function withTraceparent<R extends Request>(request: R, traceparent: string): R {
  const params = request.params ?? {};
  return { ...request, params: { ...params, _meta: { ...params._meta, traceparent } } };
}
