import { Global, Module } from '@nestjs/common';
import { SessionRegistry } from './session.registry';
import { ReplicaHeartbeat } from './shared/replica-heartbeat';
import { SessionBus } from './shared/session-bus';
import { SharedSessionStore } from './shared/shared-session.store';

@Global()
@Module({
  providers: [SessionRegistry, SharedSessionStore, SessionBus, ReplicaHeartbeat],
  exports: [SessionRegistry, SharedSessionStore, SessionBus, ReplicaHeartbeat],
})
export class SessionModule {}
