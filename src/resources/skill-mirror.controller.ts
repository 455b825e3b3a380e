import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import rangeParser from 'range-parser';
import { ErrorCode } from '../errors/error-code';
import { JsonRpcDispatcher } from '../json-rpc/json-rpc.dispatcher';
import { isFailure, JsonRpcResponse } from '../json-rpc/json-rpc.types';
import { LATEST_PROTOCOL_VERSION } from '../json-rpc/protocol-version';
import { SessionRegistry } from '../session/session.registry';
import { ClientIdentityResolver } from '../governance/identity/client-identity.resolver';
import { traceparentOf } from '../transport/http/http-headers';
import { sendHttpError } from '../transport/http/http-reply';
import { CallerIdentity } from '../governance/identity/caller-identity';
import { CallScopeCheck } from '../governance/identity/oauth/call-scope.check';
import { identifyOrRefuse, sendIdentityRefusal } from '../transport/http/identity-refusal';
import { META_ETAG } from './resource-entry';
import { META_NOT_MODIFIED } from './resources.methods';
import { formatSkillUri } from './skill-uri';

const STATUS_OF: Partial<Record<number, number>> = {
  [ErrorCode.ResourceNotFound]: 404,
  [ErrorCode.InvalidParams]: 400,
  [ErrorCode.GovernanceDenied]: 429,
};

interface ReadResult {
  contents: Array<{
    mimeType: string;
    text?: string;
    blob?: string;
    _meta: Record<string, unknown>;
  }>;
  _meta?: Record<string, unknown>;
}

/**
 * A plain HTTP view of SKILL.md files for caches and browsers: ETag,
 * Last-Modified, If-None-Match -> 304, Range -> 206. Each request is a real
 * `resources/read` through the dispatcher, so governance and the ledger see it.
 */
@Controller('resources/skill')
export class SkillMirrorController {
  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    private readonly identity: ClientIdentityResolver,
    private readonly scopes: CallScopeCheck,
  ) {}

  @Get(':category/:name')
  async read(
    @Param('category') category: string,
    @Param('name') name: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const caller = await identifyOrRefuse(this.identity, req, res);
    if (caller === undefined) return;
    const uri = formatSkillUri({ category, name, path: [] });
    const request = { uri, ifNoneMatch: req.headers['if-none-match'] };
    const scopeRefusal = this.scopes.refusal(
      {
        kind: 'single',
        entry: {
          kind: 'request',
          message: { jsonrpc: '2.0', id: 1, method: 'resources/read', params: request },
        },
      },
      caller,
    );
    if (scopeRefusal) return sendIdentityRefusal(req, res, scopeRefusal);
    const full = await this.readThroughGateway(caller, request, traceparentOf(req));
    if (isFailure(full))
      return sendHttpError(
        res,
        STATUS_OF[full.error.code] ?? 500,
        full.error.message,
        full.error.code,
      );
    const result = full.result as ReadResult;
    if (result._meta?.[META_NOT_MODIFIED] === true) {
      return res.status(304).set('ETag', String(result._meta[META_ETAG])).end();
    }
    const content = result.contents[0];
    const bytes =
      content.text !== undefined
        ? Buffer.from(content.text, 'utf8')
        : Buffer.from(content.blob ?? '', 'base64');
    res.set({
      'Content-Type': `${content.mimeType}; charset=utf-8`,
      ETag: String(content._meta[META_ETAG]),
      'Last-Modified': new Date(String(content._meta['owlclaw/lastModified'])).toUTCString(),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
    });
    const range =
      req.headers.range === undefined
        ? undefined
        : rangeParser(bytes.length, req.headers.range, { combine: true });
    if (range === -1) {
      return res.status(416).set('Content-Range', `bytes */${bytes.length}`).end();
    }
    if (Array.isArray(range) && range.type === 'bytes' && range.length === 1) {
      const { start, end } = range[0];
      return res
        .status(206)
        .set('Content-Range', `bytes ${start}-${end}/${bytes.length}`)
        .send(bytes.subarray(start, end + 1));
    }
    return res.status(200).send(bytes);
  }

  /** One short-lived session per mirror request, identified like any HTTP client. */
  private async readThroughGateway(
    caller: CallerIdentity,
    params: Record<string, unknown>,
    traceparent: string | undefined,
  ): Promise<JsonRpcResponse> {
    // Not capped by limits.sessions_*: it ends with this request and stores nothing of the client's.
    const session = this.sessions.create('streamable-http', caller.clientId, { capped: false });
    session.protocolVersion = LATEST_PROTOCOL_VERSION;
    session.initialized = true;
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params });
      return (await this.dispatcher.dispatchFrame(body, {
        session,
        token: caller.token,
        traceparent,
      })) as JsonRpcResponse;
    } finally {
      this.sessions.remove(session.id);
    }
  }
}
