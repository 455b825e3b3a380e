/**
 * Counts running stdio children against `upstreams.max_children`, shared by
 * every connection of the pool. A slot is taken before a child is spawned and
 * given back once its whole process group is gone.
 */
export class ChildSlots {
  private running = 0;

  constructor(
    readonly max: number,
    private readonly onChange: (running: number) => void = () => undefined,
  ) {}

  get inUse(): number {
    return this.running;
  }

  tryAcquire(): boolean {
    if (this.running >= this.max) return false;
    this.running++;
    this.onChange(this.running);
    return true;
  }

  release(): void {
    this.running = Math.max(0, this.running - 1);
    this.onChange(this.running);
  }
}
