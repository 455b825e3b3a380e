/** Which cap refused a slot: the client's own, or the one shared by every client. */
export type SlotRefusal = 'per_client' | 'total';

/**
 * Counts what each client holds open (sessions, streams) against a cap per
 * client and a cap for all clients together. A client that holds nothing has
 * no entry, so the map is as large as the number of clients holding slots.
 */
export class ClientSlots {
  private readonly held = new Map<string, number>();
  private taken = 0;

  constructor(
    readonly perClient: number,
    readonly total: number,
  ) {}

  /** Takes a slot for `clientId`; when a cap is reached nothing is taken and the cap is named. */
  acquire(clientId: string): SlotRefusal | undefined {
    const mine = this.held.get(clientId) ?? 0;
    if (mine >= this.perClient) return 'per_client';
    if (this.taken >= this.total) return 'total';
    this.held.set(clientId, mine + 1);
    this.taken++;
    return undefined;
  }

  /** Gives back a slot taken by acquire (exactly once per successful acquire). */
  release(clientId: string): void {
    const mine = this.held.get(clientId);
    if (mine === undefined) return;
    if (mine <= 1) this.held.delete(clientId);
    else this.held.set(clientId, mine - 1);
    this.taken--;
  }

  heldBy(clientId: string): number {
    return this.held.get(clientId) ?? 0;
  }

  get size(): number {
    return this.taken;
  }

  /** Clients holding at least one slot. */
  get clients(): number {
    return this.held.size;
  }
}
