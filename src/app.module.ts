import { DynamicModule, Module, Type } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { AlertsModule } from './alerts/alerts.module';
import { GatewayConfig, TransportKind } from './config/gateway-config';
import { GatewayConfigModule } from './config/gateway-config.module';
import { GovernanceModule } from './governance/governance.module';
import { HealthModule } from './health/health.module';
import { JsonRpcModule } from './json-rpc/json-rpc.module';
import { LedgerModule } from './ledger/ledger.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { PromptsModule } from './prompts/prompts.module';
import { loadCapabilityModules } from './capabilities/capability-modules.loader';
import { ToolsModule } from './tools/tools.module';
import { ResourcesModule } from './resources/resources.module';
import { MetricsModule } from './observability/metrics.module';
import { TracingModule } from './observability/tracing/tracing.module';
import { SessionModule } from './session/session.module';
import { HttpTransportModule } from './transport/http/http-transport.module';
import { StdioTransportModule } from './transport/stdio/stdio-transport.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { UpstreamsModule } from './upstreams/upstreams.module';

export interface AppModuleOptions {
  transport: TransportKind | 'none';
  config: GatewayConfig;
  /** The file `config` was read from (governance reloads its rules from it). */
  configSource?: string;
  /** Capability or test modules added to the graph (they may declare MCP methods, guards...). */
  extraModules?: Array<Type | DynamicModule>;
}

/** Everything but the transport: the same graph serves HTTP, stdio and the CLI. */
const CORE_MODULES = [
  MetricsModule,
  TracingModule,
  SessionModule,
  JsonRpcModule,
  LifecycleModule,
  HealthModule,
  ResourcesModule,
  SubscriptionsModule,
  ToolsModule,
  PromptsModule,
  LedgerModule,
  AdminModule,
  GovernanceModule,
  UpstreamsModule,
];

const TRANSPORT_MODULES: Record<AppModuleOptions['transport'], Array<Type>> = {
  http: [HttpTransportModule],
  stdio: [StdioTransportModule],
  none: [],
};

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        GatewayConfigModule.forRoot(options.config, options.configSource),
        ...CORE_MODULES,
        ...loadCapabilityModules(options.config),
        ...(options.extraModules ?? []),
        ...TRANSPORT_MODULES[options.transport],
        // A CLI listing (transport none) is not a serving gateway: it evaluates no alerts.
        ...(options.transport === 'none' ? [] : [AlertsModule]),
      ],
    };
  }
}
