import { Global, Module } from '@nestjs/common';
import { SessionRegistry } from './session.registry';
import { SessionBus } from './shared/session-bus';
import { SharedSessionStore } from './shared/shared-session.store';

@Global()
@Module({
  providers: [SessionRegistry, SharedSessionStore, SessionBus],
  exports: [SessionRegistry, SharedSessionStore, SessionBus],
})
export class SessionModule {}
