/** The label value of every client past `metrics.client_label_limit`. */
export const OTHER_CLIENTS = 'other';

/**
 * Client ids as metric label values: the first `limit` distinct ids (first
 * come, first served) keep their own value, every later one is "other", so a
 * caller that invents ids cannot grow the series or this set past `limit`.
 */
export class ClientLabels {
  private readonly own = new Set<string>();

  constructor(private readonly limit: number) {}

  /** How many ids have a label of their own (never more than the limit). */
  get size(): number {
    return this.own.size;
  }

  labelFor(clientId: string): string {
    if (this.own.has(clientId)) return clientId;
    if (this.own.size >= this.limit || clientId === OTHER_CLIENTS) return OTHER_CLIENTS;
    this.own.add(clientId);
    return clientId;
  }
}
