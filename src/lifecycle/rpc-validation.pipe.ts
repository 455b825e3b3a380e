import { ValidationPipe } from '@nestjs/common';
import { installLinearGetKeys } from '../tools/class-transformer-keys';

installLinearGetKeys();

/** Validates MCP params DTOs; failures become -32602 through the JSON-RPC filter. */
export const rpcValidationPipe = new ValidationPipe({
  transform: true,
  whitelist: false,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
});
