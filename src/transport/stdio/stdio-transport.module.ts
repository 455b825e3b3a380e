import { Module } from '@nestjs/common';
import { StdioTransport } from './stdio.transport';

@Module({ providers: [StdioTransport], exports: [StdioTransport] })
export class StdioTransportModule {}
