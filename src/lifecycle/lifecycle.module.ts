import { Global, Module } from '@nestjs/common';
import { LifecycleMethods } from './lifecycle.methods';
import { ServerCapabilities } from './server-capabilities.service';

@Global()
@Module({ providers: [LifecycleMethods, ServerCapabilities], exports: [ServerCapabilities] })
export class LifecycleModule {}
