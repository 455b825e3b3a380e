import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { BoundedRecord } from '../upstreams/bounded-record.decorator';
import { Default, Section } from './config-schema.decorators';

/** Alert rules evaluated by the gateway and delivered to webhooks (docs/deployment.md, Alerts). */

const FINITE = { allowNaN: false, allowInfinity: false };
const FINITE_MESSAGE = { message: 'must be a finite number' };

/** Bounds of `alerts.webhooks`; every one is named in the message that refuses it. */
export const WEBHOOK_LIMITS = {
  maxWebhooks: 8,
  maxUrlLength: 2048,
  maxHeaders: 16,
  maxHeaderNameLength: 128,
  maxHeaderValueLength: 4096,
} as const;

// RFC 9110 token characters: anything else cannot be sent as a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function headerNameProblem(key: string): string | undefined {
  if (key.length > WEBHOOK_LIMITS.maxHeaderNameLength) {
    return `is longer than ${WEBHOOK_LIMITS.maxHeaderNameLength} characters`;
  }
  return HEADER_NAME.test(key) ? undefined : 'is not a valid HTTP header name';
}

function headerValueProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string (quote numbers and booleans)';
  return value.length > WEBHOOK_LIMITS.maxHeaderValueLength
    ? `is longer than ${WEBHOOK_LIMITS.maxHeaderValueLength} characters`
    : undefined;
}

/** One receiver of alert notifications; defaults are the class's initial values. */
export class AlertWebhookSchema {
  /** http(s) URL; may hold `${ENV:NAME}` references (checked once resolved, config-alerts.check.ts). */
  @MaxLength(WEBHOOK_LIMITS.maxUrlLength)
  @IsNotEmpty()
  @IsString()
  url!: string;

  /** Sent with every notification; values may hold `${ENV:NAME}` references (secrets). */
  @BoundedRecord({
    maxEntries: WEBHOOK_LIMITS.maxHeaders,
    key: headerNameProblem,
    value: headerValueProblem,
  })
  headers: Record<string, string> = {};

  /** One attempt is abandoned after this long. */
  @Min(100)
  @Max(60_000)
  @IsInt()
  timeout_ms = 5000;

  /** Attempts after the first one, with exponential backoff and jitter. */
  @Min(0)
  @Max(10)
  @IsInt()
  max_retries = 3;
}

/**
 * A webhook is a mapping or, shorter (and what MCP_SERVER_ALERTS_WEBHOOKS holds), a bare URL.
 * Anything else is left as it is and fails the nested validation with a clear message.
 */
function toWebhooks({ value }: { value: unknown }): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry: unknown) => {
    if (typeof entry === 'string') return plainToInstance(AlertWebhookSchema, { url: entry });
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      return plainToInstance(AlertWebhookSchema, entry);
    }
    return entry;
  });
}

/** A rule with nothing to tune. */
export class SwitchRuleSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;
}

export class ErrorRateRuleSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  /** Fires while failed requests / requests over the window is above this (0 to 1). */
  @Default(0.05)
  @Max(1)
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  threshold!: number;

  @Default(300)
  @Max(86_400)
  @Min(1)
  @IsInt()
  window_seconds!: number;

  /** Fewer requests in the window say nothing: the rule stays quiet. */
  @Default(20)
  @Min(1)
  @IsInt()
  min_requests!: number;
}

export class UpstreamDownRuleSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  /** Fires once an upstream has been down this long (fractions allowed: 0.5 is 30 s). */
  @Default(5)
  @Max(1440)
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  minutes!: number;
}

export class BudgetRuleSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  /** Fires for each client whose spend this month reaches this share of its monthly budget. */
  @Default(90)
  @Max(100)
  @Min(1)
  @IsNumber(FINITE, FINITE_MESSAGE)
  percent!: number;
}

export class AlertRulesSchema {
  /** The ledger cannot record calls (governed calls are refused meanwhile). */
  @Section(() => SwitchRuleSchema)
  ledger_unwritable!: SwitchRuleSchema;

  /** With `state.driver: redis` only: Redis does not answer. */
  @Section(() => SwitchRuleSchema)
  redis_down!: SwitchRuleSchema;

  @Section(() => ErrorRateRuleSchema)
  error_rate!: ErrorRateRuleSchema;

  @Section(() => UpstreamDownRuleSchema)
  upstream_down!: UpstreamDownRuleSchema;

  @Section(() => BudgetRuleSchema)
  budget!: BudgetRuleSchema;
}

export class AlertsSchema {
  /** Off by default: nothing is evaluated. On without webhooks: logs and metrics only. */
  @Default(false)
  @IsBoolean()
  enabled!: boolean;

  @Default(15)
  @Max(3600)
  @Min(1)
  @IsInt()
  evaluation_interval_seconds!: number;

  /** A still firing alert is notified again no more often than this. */
  @Default(14_400)
  @Max(7 * 86_400)
  @Min(1)
  @IsInt()
  repeat_interval_seconds!: number;

  /** Notifications (firing and resolved, all alerts) per minute; more wait for the next evaluation. */
  @Default(30)
  @Max(10_000)
  @Min(1)
  @IsInt()
  max_notifications_per_minute!: number;

  /** Mappings ({url, headers, timeout_ms, max_retries}) or bare URLs (the env variable: comma separated). */
  @Default([])
  @ArrayMaxSize(WEBHOOK_LIMITS.maxWebhooks, {
    message: `must have at most ${WEBHOOK_LIMITS.maxWebhooks} entries`,
  })
  @ValidateNested({ each: true })
  @Transform(toWebhooks, { toClassOnly: true })
  @IsArray()
  webhooks!: AlertWebhookSchema[];

  @Section(() => AlertRulesSchema)
  rules!: AlertRulesSchema;
}
