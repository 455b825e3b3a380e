/**
 * Baseline (c): a bare NestJS controller on platform-express answering
 * POST /mcp with the gateway's JSON-RPC response bodies: tools/call echoes
 * its arguments as the gateway's text block; tools/list answers the list the
 * gateway itself returned (read from BENCH_CANNED_RESULTS, a JSON file keyed
 * by method). No sessions, no validation, no governance: the framework floor.
 */
import 'reflect-metadata';
import { Body, Controller, Header, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AddressInfo, Server } from 'node:net';
import { cannedAnswer, readCannedResults, RpcRequest } from '../shared/canned-answer';
import { announceListening, exitOnSignals } from '../shared/listening';

const canned = readCannedResults();

@Controller('mcp')
class BareMcpController {
  @Post()
  @HttpCode(200)
  @Header('Content-Type', 'application/json')
  answer(@Body() body: RpcRequest): unknown {
    return cannedAnswer(body, canned);
  }
}

@Module({ controllers: [BareMcpController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(BareModule, {
    logger: ['error', 'warn'],
  });
  await app.listen(0, '127.0.0.1');
  announceListening(((app.getHttpServer() as Server).address() as AddressInfo).port);
}

exitOnSignals();
main().catch((err: unknown) => {
  process.stderr.write(`bare nest server failed: ${String(err)}\n`);
  process.exit(1);
});
