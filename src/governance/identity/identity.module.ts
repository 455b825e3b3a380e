import { Module } from '@nestjs/common';
import { ApiKeys } from './api-keys';
import { ClientIdentityResolver } from './client-identity.resolver';
import { AccessTokenVerifier } from './oauth/access-token.verifier';
import { CallScopeCheck } from './oauth/call-scope.check';
import { ProtectedResourceController } from './oauth/protected-resource.controller';
import { ScopeGrants } from './oauth/scope-grants';

/**
 * Who a caller is: API keys, OAuth access tokens (validated here, never
 * forwarded), the scopes they carry, and the RFC 9728 document that tells
 * OAuth clients where to get a token (docs/auth.md).
 */
@Module({
  controllers: [ProtectedResourceController],
  providers: [ApiKeys, AccessTokenVerifier, ClientIdentityResolver, ScopeGrants, CallScopeCheck],
  exports: [ApiKeys, AccessTokenVerifier, ClientIdentityResolver, ScopeGrants, CallScopeCheck],
})
export class IdentityModule {}
