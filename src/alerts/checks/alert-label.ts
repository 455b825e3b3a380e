import { clipText } from '../../logging/clipped-text';
import { ALERT_LIMITS } from '../alerts.constants';

/** A label value taken from a client or registry id, cut so no id decides a payload's size. */
export function clipLabel(value: string): string {
  return clipText(value, ALERT_LIMITS.maxLabelChars);
}
