import { INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule, AppModuleOptions } from '../app.module';
import { GatewayConfig } from '../config/gateway-config';
import { ShutdownDeadline } from '../health/shutdown.deadline';
import { StdioTransport } from '../transport/stdio/stdio.transport';

export interface StdioGatewayOptions {
  config: GatewayConfig;
  configSource?: string;
  logger: LoggerService;
  extraModules?: AppModuleOptions['extraModules'];
}

/**
 * Runs the gateway over stdin/stdout until EOF or SIGTERM, then closes the
 * application. No HTTP server exists in this process. After a signal the
 * drain (`stdio.shutdown_grace_seconds`) and the close must fit in
 * `limits.shutdown_deadline_seconds`, or the process exits anyway.
 */
export async function runStdioGateway(options: StdioGatewayOptions): Promise<void> {
  const app: INestApplicationContext = await NestFactory.createApplicationContext(
    AppModule.forRoot({
      transport: 'stdio',
      config: options.config,
      configSource: options.configSource,
      extraModules: options.extraModules,
    }),
    { logger: options.logger },
  );
  const transport = app.get(StdioTransport);
  const deadline = app.get(ShutdownDeadline);
  const stop = (signal: NodeJS.Signals) => {
    deadline.arm(signal);
    transport.stop();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await transport.run();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await app.close();
  }
}
