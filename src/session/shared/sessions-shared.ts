import { GatewayConfig } from '../../config/gateway-config';

/** Whether MCP sessions live in Redis for every replica: the redis driver, unless `state.sessions` keeps them local. */
export function sessionsShared(config: GatewayConfig): boolean {
  return config.state.driver === 'redis' && config.state.sessions === 'shared';
}
